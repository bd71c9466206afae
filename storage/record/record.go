// Package record writes the stored JSON of a contract and of an audit
// event, byte for byte what json.Marshal writes, for both stores: bbolt
// (storage) and PostgreSQL (storage/postgres).
package record

import (
	"encoding/json"
	"math"
	"strconv"
	"time"

	"contracts/signflow"
)

// A contract (and its audit event) is encoded in every write that creates
// or changes one, inside the write transaction (on bbolt a batch that runs
// its functions one after another): encoding/json's reflection there was
// the largest part of a create's serial time. Contract writes by hand the
// very bytes json.Marshal writes for a Contract (record_test.go holds it
// to that); the free-form parts (signatures, product values) still go through
// encoding/json, and anything json.Marshal would refuse or write otherwise
// (a time outside RFC 3339, a non-finite number) takes json.Marshal itself.

// Contract returns json.Marshal(c).
func Contract(c *signflow.Contract) ([]byte, error) {
	var bad bool
	b := AppendContract(make([]byte, 0, 2048), c, &bad)
	if bad {
		return json.Marshal(c)
	}
	return b, nil
}

// Audit returns json.Marshal(e): every change writes one.
func Audit(e *signflow.AuditEvent) ([]byte, error) {
	var bad bool
	b := signflow.AppendJSONString(append(make([]byte, 0, 512), `{"id":`...), e.ID)
	b = appendField(b, "contractId", e.ContractID)
	b = appendField(b, "type", e.Type)
	b = appendField(b, "actorIn", e.ActorIN)
	b = appendTimeField(b, "at", e.At, &bad)
	b = appendOmitField(b, "ip", e.IP)
	b = appendOmitField(b, "userAgent", e.UserAgent)
	b = appendOmitField(b, "method", e.Method)
	b = appendField(b, "hash", e.Hash)
	b = appendOmitField(b, "sessionId", e.SessionID)
	b = appendOmitField(b, "detail", e.Detail)
	if e.Version != 0 {
		b = strconv.AppendInt(append(b, `,"version":`...), e.Version, 10)
	}
	if bad {
		return json.Marshal(e)
	}
	return append(b, '}'), nil
}

// The append functions below write JSON as json.Marshal does; *bad is set
// when a value is one they do not write the same way. (They take and give
// back the slice rather than keep it in a struct: a slice stored through a
// pointer pays a write barrier on every append while the GC marks.)

func AppendContract(b []byte, c *signflow.Contract, bad *bool) []byte {
	b = AppendHead(b, c)
	b = AppendTerms(b, c, bad)
	return AppendTail(b, c, bad)
}

// A record is written in three parts: the head (id, sequence, number) and
// the tail (from the hash on), which a create sets in its batched write,
// and the terms between them, which it does not change (bbolt's
// PrepareContract encodes them before the write).

func AppendHead(b []byte, c *signflow.Contract) []byte {
	b = append(b, `{"id":`...)
	b = signflow.AppendJSONString(b, c.ID)
	b = strconv.AppendUint(append(b, `,"seq":`...), c.Seq, 10)
	return appendField(b, "number", c.Number)
}

func AppendTerms(b []byte, c *signflow.Contract, bad *bool) []byte {
	b = appendField(b, "status", c.Status)
	b = appendField(b, "purpose", c.Purpose)
	b = appendField(b, "buyerStatus", c.BuyerStatus)
	b = appendField(b, "sellerStatus", c.SellerStatus)
	b = appendField(b, "buyerIn", c.BuyerIN)
	b = appendField(b, "sellerIn", c.SellerIN)
	b = appendField(b, "creatorIn", c.CreatorIN)
	b = strconv.AppendInt(append(b, `,"price":`...), c.Price, 10)
	b = strconv.AppendInt(append(b, `,"initialPayment":`...), c.InitialPayment, 10)
	b = appendField(b, "currency", c.Currency)
	b = appendOptTime(b, "deliveryAt", c.DeliveryAt, bad)
	b = appendOptTime(b, "signBy", c.SignBy, bad)
	b = appendField(b, "templateId", c.TemplateID)
	b = append(b, `,"values":`...)
	b = appendValues(b, c.Values, bad)
	b = append(b, `,"payments":`...)
	b = appendPayments(b, c.Payments, bad)
	b = append(b, `,"witnessIds":`...)
	b = appendStrings(b, c.WitnessIDs)
	b = append(b, `,"products":`...)
	b = appendProducts(b, c.Products, bad)
	b = appendOmitField(b, "appId", c.AppID)
	return appendOmitField(b, "keyId", c.KeyID)
}

func AppendTail(b []byte, c *signflow.Contract, bad *bool) []byte {
	b = appendField(b, "hash", c.Hash)
	if len(c.Signatures) > 0 {
		b = append(b, `,"signatures":`...)
		b = appendMarshal(b, c.Signatures, bad)
	}
	if p := c.Parties; p != nil {
		b = append(b, `,"parties":{`...)
		if p.Buyer != nil {
			b = append(b, `"buyer":`...)
			b = appendClient(b, p.Buyer, bad)
		}
		if p.Seller != nil {
			if p.Buyer != nil {
				b = append(b, ',')
			}
			b = append(b, `"seller":`...)
			b = appendClient(b, p.Seller, bad)
		}
		b = append(b, '}')
	}
	if c.TemplateVersion != 0 {
		b = strconv.AppendInt(append(b, `,"templateVersion":`...), int64(c.TemplateVersion), 10)
	}
	b = strconv.AppendBool(append(b, `,"deleted":`...), c.Deleted)
	b = appendTimeField(b, "createdAt", c.CreatedAt, bad)
	b = appendTimeField(b, "updatedAt", c.UpdatedAt, bad)
	b = strconv.AppendInt(append(b, `,"version":`...), c.Version, 10)
	if len(c.Witnesses) > 0 {
		b = append(b, `,"witnesses":[`...)
		for i := range c.Witnesses {
			if i > 0 {
				b = append(b, ',')
			}
			x := &c.Witnesses[i]
			b = append(b, `{"id":`...)
			b = signflow.AppendJSONString(b, x.ID)
			b = appendField(b, "in", x.IN)
			b = appendField(b, "type", x.Type)
			b = appendOmitField(b, "firstName", x.FirstName)
			b = appendOmitField(b, "lastName", x.LastName)
			b = appendOmitField(b, "midName", x.MidName)
			b = appendOmitField(b, "legalName", x.LegalName)
			b = appendField(b, "status", x.Status)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, '}')
	return b
}

func appendValues(b []byte, vs []signflow.Value, bad *bool) []byte {
	if vs == nil {
		b = append(b, "null"...)
		return b
	}
	b = append(b, '[')
	for i := range vs {
		if i > 0 {
			b = append(b, ',')
		}
		v := &vs[i]
		b = append(b, `{"id":`...)
		b = signflow.AppendJSONString(b, v.ID)
		b = strconv.AppendInt(append(b, `,"position":`...), int64(v.Position), 10)
		b = appendField(b, "value", v.Value)
		b = appendField(b, "templateId", v.TemplateID)
		b = appendField(b, "templateFieldId", v.TemplateFieldID)
		b = appendField(b, "keyName", v.KeyName)
		b = appendTimeField(b, "createdAt", v.CreatedAt, bad)
		b = appendTimeField(b, "updatedAt", v.UpdatedAt, bad)
		b = append(b, '}')
	}
	b = append(b, ']')
	return b
}

func appendPayments(b []byte, ps []signflow.Payment, bad *bool) []byte {
	if ps == nil {
		b = append(b, "null"...)
		return b
	}
	b = append(b, '[')
	for i, p := range ps {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(append(b, `{"amount":`...), p.Amount, 10)
		b = appendTimeField(b, "paymentDate", p.PaymentDate, bad)
		b = append(b, '}')
	}
	b = append(b, ']')
	return b
}

func appendProducts(b []byte, ps []signflow.Product, bad *bool) []byte {
	if ps == nil {
		b = append(b, "null"...)
		return b
	}
	b = append(b, '[')
	for i := range ps {
		if i > 0 {
			b = append(b, ',')
		}
		p := &ps[i]
		b = append(b, `{"id":`...)
		b = signflow.AppendJSONString(b, p.ID)
		b = appendField(b, "name", p.Name)
		b = appendField(b, "unit", p.Unit)
		b = strconv.AppendInt(append(b, `,"price":`...), p.Price, 10)
		b = append(b, `,"quantity":`...)
		if math.IsInf(p.Quantity, 0) || math.IsNaN(p.Quantity) {
			*bad = true
		}
		b = signflow.AppendJSONFloat(b, p.Quantity)
		b = strconv.AppendInt(append(b, `,"amount":`...), p.Amount, 10)
		b = appendOptTime(b, "deliveryAt", p.DeliveryAt, bad)
		if len(p.Values) > 0 {
			var err error
			if b, err = signflow.AppendJSONValues(append(b, `,"values":`...), p.Values); err != nil {
				*bad = true
			}
		}
		b = append(b, '}')
	}
	b = append(b, ']')
	return b
}

func appendClient(b []byte, c *signflow.Client, bad *bool) []byte {
	b = append(b, `{"id":`...)
	b = signflow.AppendJSONString(b, c.ID)
	b = appendField(b, "in", c.IN)
	b = appendField(b, "type", c.Type)
	b = appendOmitField(b, "firstName", c.FirstName)
	b = appendOmitField(b, "lastName", c.LastName)
	b = appendOmitField(b, "midName", c.MidName)
	b = appendOmitField(b, "legalName", c.LegalName)
	b = appendOmitField(b, "phone", c.Phone)
	b = appendOmitField(b, "passport", c.Passport)
	b = appendOmitField(b, "passportIssuedBy", c.PassportIssuedBy)
	b = appendOmitField(b, "passportIssueDate", c.PassportIssueDate)
	b = appendOmitField(b, "passportExpiryDate", c.PassportExpiryDate)
	b = appendOmitField(b, "birthday", c.Birthday)
	if c.IsMan != nil {
		b = strconv.AppendBool(append(b, `,"isMan":`...), *c.IsMan)
	}
	b = appendOmitField(b, "address", c.Address)
	b = appendOmitField(b, "email", c.Email)
	b = strconv.AppendBool(append(b, `,"verified":`...), c.Verified)
	b = appendTimeField(b, "createdAt", c.CreatedAt, bad)
	b = appendTimeField(b, "updatedAt", c.UpdatedAt, bad)
	b = append(b, '}')
	return b
}

func appendStrings(b []byte, list []string) []byte {
	if list == nil {
		b = append(b, "null"...)
		return b
	}
	b = append(b, '[')
	for i, s := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = signflow.AppendJSONString(b, s)
	}
	b = append(b, ']')
	return b
}

// appendField writes ,"key":"value".
func appendField(b []byte, key, value string) []byte {
	b = append(append(append(b, `,"`...), key...), `":`...)
	b = signflow.AppendJSONString(b, value)
	return b
}

// appendOmitField is appendField for a value tagged omitempty.
func appendOmitField(b []byte, key, value string) []byte {
	if value != "" {
		b = appendField(b, key, value)
	}
	return b
}

func appendTimeField(b []byte, key string, t time.Time, bad *bool) []byte {
	b = append(append(append(b, `,"`...), key...), `":`...)
	return appendTime(b, t, bad)
}

// appendOptTime writes a *time.Time tagged omitempty: left out only when nil.
func appendOptTime(b []byte, key string, t *time.Time, bad *bool) []byte {
	if t != nil {
		b = appendTimeField(b, key, *t, bad)
	}
	return b
}

// appendTime writes t as Time.MarshalJSON does; a time it refuses (a year
// outside 0–9999) or writes with an offset is left to json.Marshal.
func appendTime(b []byte, t time.Time, bad *bool) []byte {
	b = append(b, '"')
	n := len(b)
	b = append(t.AppendFormat(b, time.RFC3339Nano), '"')
	if b[n+4] != '-' || b[len(b)-2] != 'Z' {
		*bad = true
	}
	return b
}

// appendMarshal writes a free-form value through encoding/json.
func appendMarshal(b []byte, v any, bad *bool) []byte {
	data, err := json.Marshal(v)
	if err != nil {
		*bad = true
		return b
	}
	return append(b, data...)
}
