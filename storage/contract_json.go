package storage

import (
	"encoding/json"
	"math"
	"strconv"
	"time"
	"unicode/utf8"

	"contracts/signflow"
)

// A contract is encoded in every write that creates or changes one, inside
// the batched write transaction, which runs its functions one after
// another: encoding/json's reflection there was the largest part of a
// create's serial time. encodeContract writes by hand the very bytes
// json.Marshal writes for a Contract (contract_json_test.go holds it to
// that); the free-form parts (signatures, product values) still go through
// encoding/json, and anything json.Marshal would refuse or write otherwise
// (a time outside RFC 3339, a non-finite number) takes json.Marshal itself.

// encodeContract returns json.Marshal(c).
func encodeContract(c *signflow.Contract) ([]byte, error) {
	w := recordWriter{b: make([]byte, 0, 2048)}
	w.contract(c)
	if w.bad {
		return json.Marshal(c)
	}
	return w.b, nil
}

// recordWriter appends JSON as json.Marshal writes it; bad is set when a
// value is one it does not write the same way.
type recordWriter struct {
	b   []byte
	bad bool
}

func (w *recordWriter) contract(c *signflow.Contract) {
	w.b = append(w.b, `{"id":`...)
	w.str(c.ID)
	w.b = strconv.AppendUint(append(w.b, `,"seq":`...), c.Seq, 10)
	w.field("number", c.Number)
	w.field("status", c.Status)
	w.field("purpose", c.Purpose)
	w.field("buyerStatus", c.BuyerStatus)
	w.field("sellerStatus", c.SellerStatus)
	w.field("buyerIn", c.BuyerIN)
	w.field("sellerIn", c.SellerIN)
	w.field("creatorIn", c.CreatorIN)
	w.b = strconv.AppendInt(append(w.b, `,"price":`...), c.Price, 10)
	w.b = strconv.AppendInt(append(w.b, `,"initialPayment":`...), c.InitialPayment, 10)
	w.field("currency", c.Currency)
	w.optTime("deliveryAt", c.DeliveryAt)
	w.optTime("signBy", c.SignBy)
	w.field("templateId", c.TemplateID)
	w.b = append(w.b, `,"values":`...)
	w.values(c.Values)
	w.b = append(w.b, `,"payments":`...)
	w.payments(c.Payments)
	w.b = append(w.b, `,"witnessIds":`...)
	w.strings(c.WitnessIDs)
	w.b = append(w.b, `,"products":`...)
	w.products(c.Products)
	w.omitField("appId", c.AppID)
	w.omitField("keyId", c.KeyID)
	w.field("hash", c.Hash)
	if len(c.Signatures) > 0 {
		w.b = append(w.b, `,"signatures":`...)
		w.marshal(c.Signatures)
	}
	if p := c.Parties; p != nil {
		w.b = append(w.b, `,"parties":{`...)
		if p.Buyer != nil {
			w.b = append(w.b, `"buyer":`...)
			w.client(p.Buyer)
		}
		if p.Seller != nil {
			if p.Buyer != nil {
				w.b = append(w.b, ',')
			}
			w.b = append(w.b, `"seller":`...)
			w.client(p.Seller)
		}
		w.b = append(w.b, '}')
	}
	if c.TemplateVersion != 0 {
		w.b = strconv.AppendInt(append(w.b, `,"templateVersion":`...), int64(c.TemplateVersion), 10)
	}
	w.b = strconv.AppendBool(append(w.b, `,"deleted":`...), c.Deleted)
	w.timeField("createdAt", c.CreatedAt)
	w.timeField("updatedAt", c.UpdatedAt)
	w.b = strconv.AppendInt(append(w.b, `,"version":`...), c.Version, 10)
	if len(c.Witnesses) > 0 {
		w.b = append(w.b, `,"witnesses":[`...)
		for i := range c.Witnesses {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			x := &c.Witnesses[i]
			w.b = append(w.b, `{"id":`...)
			w.str(x.ID)
			w.field("in", x.IN)
			w.field("type", x.Type)
			w.omitField("firstName", x.FirstName)
			w.omitField("lastName", x.LastName)
			w.omitField("midName", x.MidName)
			w.omitField("legalName", x.LegalName)
			w.field("status", x.Status)
			w.b = append(w.b, '}')
		}
		w.b = append(w.b, ']')
	}
	w.b = append(w.b, '}')
}

func (w *recordWriter) values(vs []signflow.Value) {
	if vs == nil {
		w.b = append(w.b, "null"...)
		return
	}
	w.b = append(w.b, '[')
	for i := range vs {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		v := &vs[i]
		w.b = append(w.b, `{"id":`...)
		w.str(v.ID)
		w.b = strconv.AppendInt(append(w.b, `,"position":`...), int64(v.Position), 10)
		w.field("value", v.Value)
		w.field("templateId", v.TemplateID)
		w.field("templateFieldId", v.TemplateFieldID)
		w.field("keyName", v.KeyName)
		w.timeField("createdAt", v.CreatedAt)
		w.timeField("updatedAt", v.UpdatedAt)
		w.b = append(w.b, '}')
	}
	w.b = append(w.b, ']')
}

func (w *recordWriter) payments(ps []signflow.Payment) {
	if ps == nil {
		w.b = append(w.b, "null"...)
		return
	}
	w.b = append(w.b, '[')
	for i, p := range ps {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		w.b = strconv.AppendInt(append(w.b, `{"amount":`...), p.Amount, 10)
		w.timeField("paymentDate", p.PaymentDate)
		w.b = append(w.b, '}')
	}
	w.b = append(w.b, ']')
}

func (w *recordWriter) products(ps []signflow.Product) {
	if ps == nil {
		w.b = append(w.b, "null"...)
		return
	}
	w.b = append(w.b, '[')
	for i := range ps {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		p := &ps[i]
		w.b = append(w.b, `{"id":`...)
		w.str(p.ID)
		w.field("name", p.Name)
		w.field("unit", p.Unit)
		w.b = strconv.AppendInt(append(w.b, `,"price":`...), p.Price, 10)
		w.b = append(w.b, `,"quantity":`...)
		w.float(p.Quantity)
		w.b = strconv.AppendInt(append(w.b, `,"amount":`...), p.Amount, 10)
		w.optTime("deliveryAt", p.DeliveryAt)
		if len(p.Values) > 0 {
			w.b = append(w.b, `,"values":`...)
			w.marshal(p.Values)
		}
		w.b = append(w.b, '}')
	}
	w.b = append(w.b, ']')
}

func (w *recordWriter) client(c *signflow.Client) {
	w.b = append(w.b, `{"id":`...)
	w.str(c.ID)
	w.field("in", c.IN)
	w.field("type", c.Type)
	w.omitField("firstName", c.FirstName)
	w.omitField("lastName", c.LastName)
	w.omitField("midName", c.MidName)
	w.omitField("legalName", c.LegalName)
	w.omitField("phone", c.Phone)
	w.omitField("passport", c.Passport)
	w.omitField("passportIssuedBy", c.PassportIssuedBy)
	w.omitField("passportIssueDate", c.PassportIssueDate)
	w.omitField("passportExpiryDate", c.PassportExpiryDate)
	w.omitField("birthday", c.Birthday)
	if c.IsMan != nil {
		w.b = strconv.AppendBool(append(w.b, `,"isMan":`...), *c.IsMan)
	}
	w.omitField("address", c.Address)
	w.omitField("email", c.Email)
	w.b = strconv.AppendBool(append(w.b, `,"verified":`...), c.Verified)
	w.timeField("createdAt", c.CreatedAt)
	w.timeField("updatedAt", c.UpdatedAt)
	w.b = append(w.b, '}')
}

func (w *recordWriter) strings(list []string) {
	if list == nil {
		w.b = append(w.b, "null"...)
		return
	}
	w.b = append(w.b, '[')
	for i, s := range list {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		w.str(s)
	}
	w.b = append(w.b, ']')
}

// field writes ,"key":"value".
func (w *recordWriter) field(key, value string) {
	w.b = append(append(append(w.b, `,"`...), key...), `":`...)
	w.str(value)
}

// omitField is field for a value tagged omitempty.
func (w *recordWriter) omitField(key, value string) {
	if value != "" {
		w.field(key, value)
	}
}

func (w *recordWriter) timeField(key string, t time.Time) {
	w.b = append(append(append(w.b, `,"`...), key...), `":`...)
	w.time(t)
}

// optTime writes a *time.Time tagged omitempty: left out only when nil.
func (w *recordWriter) optTime(key string, t *time.Time) {
	if t != nil {
		w.timeField(key, *t)
	}
}

// time writes t as Time.MarshalJSON does; a time it refuses (a year
// outside 0–9999) or writes with an offset is left to json.Marshal.
func (w *recordWriter) time(t time.Time) {
	w.b = append(w.b, '"')
	n := len(w.b)
	w.b = append(t.AppendFormat(w.b, time.RFC3339Nano), '"')
	if w.b[n+4] != '-' || w.b[len(w.b)-2] != 'Z' {
		w.bad = true
	}
}

// float writes f as encoding/json does (the ES6 number form).
func (w *recordWriter) float(f float64) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		w.bad = true
		return
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b := strconv.AppendFloat(w.b, f, format, -1, 64)
	if n := len(b); format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1]
		b = b[:n-1]
	}
	w.b = b
}

// marshal writes a free-form value through encoding/json.
func (w *recordWriter) marshal(v any) {
	data, err := json.Marshal(v)
	if err != nil {
		w.bad = true
		return
	}
	w.b = append(w.b, data...)
}

const hexDigits = "0123456789abcdef"

// str writes s as json.Marshal does: HTML's <, > and & escaped, invalid
// UTF-8 as U+FFFD, U+2028 and U+2029 escaped.
func (w *recordWriter) str(s string) {
	b := append(w.b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(append(b, s[start:i]...), `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(append(b, s[start:i]...), '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	w.b = append(append(b, s[start:]...), '"')
}
