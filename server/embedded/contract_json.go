package embedded

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"sync"
	"time"

	"contracts/server/wire"
	"contracts/signflow"
)

// The contract read response is the most polled answer of the interface
// (the spec tells integrators to check state on the server), so it is
// written by hand from the view instead of through contractOf and
// reflection. appendContract writes the very bytes encoding/json writes for
// contractOf(v) (HTML not escaped, as server.JSON does, with its trailing
// newline); contract_json_test.go holds it to that.

var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// appendContract appends the contract read response of v.
func appendContract(b []byte, v *signflow.ContractView) []byte {
	c := v.Contract
	b = appendString(append(b, `{"id":`...), c.ID)
	b = appendField(b, "number", c.Number)
	b = appendField(b, "status", c.Status)
	b = appendField(b, "purpose", c.Purpose)
	b = appendField(b, "buyerStatus", c.BuyerStatus)
	b = appendField(b, "sellerStatus", c.SellerStatus)
	b = appendField(b, "buyerIn", c.BuyerIN)
	b = appendField(b, "sellerIn", c.SellerIN)
	b = appendField(b, "creatorIn", c.CreatorIN)
	b = signflow.AppendMajor(append(b, `,"price":`...), c.Price)
	b = signflow.AppendMajor(append(b, `,"initialPayment":`...), c.InitialPayment)
	b = appendField(b, "currency", c.Currency)
	b = appendOpt(append(b, `,"currencyId":`...), currencyID(c.Currency))
	b = appendOptTime(append(b, `,"deliveryAt":`...), c.DeliveryAt)
	if c.SignBy != nil && !c.SignBy.IsZero() {
		b = appendTime(append(b, `,"signBy":`...), *c.SignBy)
	}
	b = appendField(b, "templateId", c.TemplateID)
	b = strconv.AppendInt(append(b, `,"templateVersion":`...), int64(c.FromVersion()), 10)
	b = append(b, `,"template":`...)
	if t := v.Template; t == nil {
		b = append(b, "null"...)
	} else {
		b = appendString(append(b, `{"id":`...), t.ID)
		b = appendText(append(b, `,"name":`...), t.Name)
		b = appendText(append(b, `,"sellerName":`...), t.SellerName)
		b = appendText(append(b, `,"buyerName":`...), t.BuyerName)
		b = append(appendField(b, "exchangeMode", t.ExchangeMode), '}')
	}
	b = appendUser(append(b, `,"buyer":`...), v.Buyer)
	b = appendUser(append(b, `,"seller":`...), v.Seller)
	b = appendUser(append(b, `,"createdBy":`...), v.Creator)
	b = appendUserID(append(b, `,"buyerUserId":`...), v.Buyer)
	b = appendUserID(append(b, `,"sellerUserId":`...), v.Seller)
	b = append(b, `,"values":[`...)
	for i, val := range c.Values {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(append(b, `{"id":`...), val.ID)
		b = strconv.AppendInt(append(b, `,"position":`...), int64(val.Position), 10)
		b = appendField(b, "value", val.Value)
		b = appendField(b, "documentId", c.ID)
		b = appendField(b, "templateId", val.TemplateID)
		b = appendField(b, "templateFieldId", val.TemplateFieldID)
		b = appendField(b, "keyName", val.KeyName)
		b = append(b, `,"deleted":false`...)
		b = appendTime(append(b, `,"createdDate":`...), val.CreatedAt)
		b = append(appendTime(append(b, `,"lastModifiedDate":`...), val.UpdatedAt), '}')
	}
	b = append(b, `],"products":[`...)
	for i, p := range c.Products {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(append(b, `{"id":`...), p.ID)
		b = appendField(b, "name", p.Name)
		b = appendField(b, "unit", p.Unit)
		b = signflow.AppendMajor(append(b, `,"price":`...), p.Price)
		b = appendFloat(append(b, `,"quantity":`...), p.Quantity)
		b = signflow.AppendMajor(append(b, `,"amount":`...), p.Amount)
		b = appendOptTime(append(b, `,"deliveryAt":`...), p.DeliveryAt)
		if len(p.Values) == 0 {
			b = append(b, `,"values":{}}`...)
		} else {
			b = append(appendAny(append(b, `,"values":`...), p.Values), '}')
		}
	}
	b = append(b, `],"payments":[`...)
	for i, p := range c.Payments {
		if i > 0 {
			b = append(b, ',')
		}
		b = signflow.AppendMajor(append(b, `{"amount":`...), p.Amount)
		b = append(appendTime(append(b, `,"paymentDate":`...), p.PaymentDate), '}')
	}
	b = append(b, `],"witnessIds":[`...)
	for i, id := range c.WitnessIDs {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, id)
	}
	b = append(b, `],"witnesses":[`...)
	for i, w := range c.Witnesses {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(append(b, `{"id":`...), w.ID)
		b = appendField(b, "in", w.IN)
		b = appendOptString(append(b, `,"firstName":`...), w.FirstName)
		b = appendOptString(append(b, `,"lastName":`...), w.LastName)
		b = appendOptString(append(b, `,"midName":`...), w.MidName)
		b = appendOptString(append(b, `,"legalName":`...), w.LegalName)
		b = appendField(b, "status", w.Status)
		b = append(appendOptTime(append(b, `,"signedAt":`...), (*time.Time)(wire.WitnessSignedAt(c, w.IN))), '}')
	}
	b = strconv.AppendBool(append(b, `],"deleted":`...), c.Deleted)
	b = appendTime(append(b, `,"createdDate":`...), c.CreatedAt)
	b = appendTime(append(b, `,"lastModifiedDate":`...), c.UpdatedAt)
	b = strconv.AppendInt(append(b, `,"version":`...), c.Version, 10)
	return append(b, "}\n"...)
}

// appendText writes a {uz, ru, en} text.
func appendText(b []byte, t signflow.Text) []byte {
	b = appendString(append(b, `{"uz":`...), t.UZ)
	b = appendString(append(b, `,"ru":`...), t.RU)
	return append(appendString(append(b, `,"en":`...), t.EN), '}')
}

// appendUser writes the user object of a party, null when unregistered.
func appendUser(b []byte, u *signflow.Client) []byte {
	if u == nil {
		return append(b, "null"...)
	}
	b = appendString(append(b, `{"id":`...), u.ID)
	b = appendOptString(append(b, `,"firstName":`...), u.FirstName)
	b = appendOptString(append(b, `,"lastName":`...), u.LastName)
	b = appendOptString(append(b, `,"phone":`...), u.Phone)
	b = appendOptString(append(b, `,"legalName":`...), u.LegalName)
	return append(appendField(b, "type", u.Type), '}')
}

func appendUserID(b []byte, u *signflow.Client) []byte {
	if u == nil {
		return append(b, "null"...)
	}
	return appendString(b, u.ID)
}

// appendField writes `,"key":"value"`.
func appendField(b []byte, key, value string) []byte {
	b = append(append(append(b, `,"`...), key...), `":`...)
	return appendString(b, value)
}

// appendOptString writes s, or null when it is empty (as optString).
func appendOptString(b []byte, s string) []byte {
	if s == "" {
		return append(b, "null"...)
	}
	return appendString(b, s)
}

func appendOpt(b []byte, s *string) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	return appendString(b, *s)
}

func appendTime(b []byte, t time.Time) []byte {
	return append(t.UTC().AppendFormat(append(b, '"'), wire.TimeLayout), '"')
}

// appendOptTime writes t, or null when it is nil or zero (as optTime).
func appendOptTime(b []byte, t *time.Time) []byte {
	if t == nil || t.IsZero() {
		return append(b, "null"...)
	}
	return appendTime(b, *t)
}

// appendAny writes a free-form value (product values) through encoding/json.
func appendAny(b []byte, v any) []byte {
	buf := bytes.NewBuffer(b)
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return append(b, "null"...)
	}
	out := buf.Bytes()
	return out[:len(out)-1] // Encode's newline
}

// appendFloat writes f as encoding/json does (ES6 number form).
func appendFloat(b []byte, f float64) []byte {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return append(b, "null"...)
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if n := len(b); format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1]
		b = b[:n-1]
	}
	return b
}

// appendString writes s as a JSON string exactly as encoding/json does
// without HTML escaping (signflow.AppendJSONText).
func appendString(b []byte, s string) []byte { return signflow.AppendJSONText(b, s) }
