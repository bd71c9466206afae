package wire

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"contracts/server"

	"github.com/labstack/echo/v4"
)

// Decoding the create request through encoding/json's reflection was the
// largest part of a create's work outside the write. BindContract reads
// the common form of the request by hand: keys spelt as the spec spells
// them, each once, strings without escapes, no nulls, product values of
// plain strings, numbers and booleans. Anything else (and so every
// malformed body) goes to server.Decode, whose answer is the one given;
// contract_decode_test.go holds the two to the same request.

// BindContract reads the request body into r as server.Bind does.
func BindContract(c echo.Context, r *ContractRequest) error {
	data, err := server.ReadBody(c)
	if err != nil {
		return err
	}
	if decodeContract(data, r) {
		return nil
	}
	*r = ContractRequest{}
	return server.Decode(data, r)
}

// decodeContract reads data into r, or reports false when it is not in
// the common form.
func decodeContract(data []byte, r *ContractRequest) bool {
	d := scanner{data: data}
	ok := d.object(func(key string) bool {
		switch key {
		case "templateId":
			return d.str(&r.TemplateID)
		case "buyerIn":
			return d.str(&r.BuyerIN)
		case "sellerIn":
			return d.str(&r.SellerIN)
		case "price":
			return d.amount(&r.Price)
		case "currency":
			return d.str(&r.Currency)
		case "initialPayment":
			return d.amount(&r.InitialPayment)
		case "deliveryAt":
			return d.str(&r.DeliveryAt)
		case "signBy":
			return d.str(&r.SignBy)
		case "values":
			return d.values(&r.Values)
		case "payments":
			return d.payments(&r.Payments)
		case "witnessIds":
			return array(&d, &r.WitnessIDs, d.str)
		case "products":
			return d.products(&r.Products)
		}
		return false
	})
	d.space()
	return ok && d.i == len(d.data)
}

// scanner reads JSON of the common form from data at i.
type scanner struct {
	data []byte
	i    int
}

func (d *scanner) space() {
	for d.i < len(d.data) {
		switch d.data[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// next skips white space and takes c, reporting whether it was there.
func (d *scanner) next(c byte) bool {
	d.space()
	if d.i < len(d.data) && d.data[d.i] == c {
		d.i++
		return true
	}
	return false
}

// peek skips white space and reports whether c comes next.
func (d *scanner) peek(c byte) bool {
	d.space()
	return d.i < len(d.data) && d.data[d.i] == c
}

// object reads an object, calling field for each key with the scanner on
// its value; a key given twice is not the common form.
func (d *scanner) object(field func(key string) bool) bool {
	if !d.next('{') {
		return false
	}
	if d.next('}') {
		return true
	}
	var seen []string
	for {
		var key string
		if !d.str(&key) || !d.next(':') {
			return false
		}
		for _, k := range seen {
			if k == key {
				return false
			}
		}
		seen = append(seen, key)
		if !field(key) {
			return false
		}
		if d.next('}') {
			return true
		}
		if !d.next(',') {
			return false
		}
	}
}

// array reads an array into *out (empty, not nil, for []), each element
// by elem.
func array[T any](d *scanner, out *[]T, elem func(*T) bool) bool {
	if !d.next('[') {
		return false
	}
	list := make([]T, 0, 4)
	if !d.next(']') {
		for {
			list = append(list, *new(T))
			if !elem(&list[len(list)-1]) {
				return false
			}
			if d.next(']') {
				break
			}
			if !d.next(',') {
				return false
			}
		}
	}
	*out = list
	return true
}

// str reads a string with no escapes, of valid UTF-8.
func (d *scanner) str(out *string) bool {
	if !d.next('"') {
		return false
	}
	start := d.i
	ascii := true
	for ; d.i < len(d.data); d.i++ {
		switch c := d.data[d.i]; {
		case c == '"':
			s := d.data[start:d.i]
			d.i++
			if !ascii && !utf8.Valid(s) {
				return false
			}
			*out = string(s)
			return true
		case c == '\\' || c < 0x20:
			return false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return false
}

// number reads a number's text, as JSON's grammar has it.
func (d *scanner) number() (string, bool) {
	d.space()
	start, b := d.i, d.data
	digits := func() int {
		n := 0
		for d.i < len(b) && b[d.i] >= '0' && b[d.i] <= '9' {
			d.i++
			n++
		}
		return n
	}
	if d.i < len(b) && b[d.i] == '-' {
		d.i++
	}
	switch {
	case d.i < len(b) && b[d.i] == '0':
		d.i++
	case digits() == 0:
		return "", false
	}
	if d.i < len(b) && b[d.i] == '.' {
		d.i++
		if digits() == 0 {
			return "", false
		}
	}
	if d.i < len(b) && (b[d.i] == 'e' || b[d.i] == 'E') {
		d.i++
		if d.i < len(b) && (b[d.i] == '+' || b[d.i] == '-') {
			d.i++
		}
		if digits() == 0 {
			return "", false
		}
	}
	return string(b[start:d.i]), true
}

func (d *scanner) amount(out *Amount) bool {
	n, ok := d.number()
	*out = Amount(n)
	return ok
}

func (d *scanner) values(out *[]ValueItem) bool {
	return array(d, out, func(v *ValueItem) bool {
		return d.object(func(key string) bool {
			switch key {
			case "id":
				return d.str(&v.ID)
			case "position":
				n, ok := d.number()
				p, err := strconv.ParseInt(n, 10, 32)
				v.Position = int32(p)
				return ok && err == nil
			case "value":
				return d.str(&v.Value)
			case "templateId":
				return d.str(&v.TemplateID)
			case "templateFieldId":
				return d.str(&v.TemplateFieldID)
			case "keyName":
				return d.str(&v.KeyName)
			}
			return false
		})
	})
}

func (d *scanner) payments(out *[]PaymentItem) bool {
	return array(d, out, func(p *PaymentItem) bool {
		return d.object(func(key string) bool {
			switch key {
			case "amount":
				return d.amount(&p.Amount)
			case "paymentDate":
				return d.str(&p.PaymentDate)
			}
			return false
		})
	})
}

func (d *scanner) products(out *[]ProductItem) bool {
	return array(d, out, func(p *ProductItem) bool {
		return d.object(func(key string) bool {
			switch key {
			case "name":
				return d.str(&p.Name)
			case "unit":
				return d.str(&p.Unit)
			case "price":
				return d.amount(&p.Price)
			case "quantity":
				n, ok := d.number()
				f, err := strconv.ParseFloat(n, 64)
				p.Quantity = f
				return ok && err == nil
			case "amount":
				return d.amount(&p.Amount)
			case "deliveryAt":
				return d.str(&p.DeliveryAt)
			case "values":
				p.Values = map[string]any{}
				return d.object(func(key string) bool { return d.plain(p.Values, key) })
			}
			return false
		})
	})
}

// plain reads a string, number or boolean into m[key], as a decoder that
// uses json.Number does.
func (d *scanner) plain(m map[string]any, key string) bool {
	switch {
	case d.peek('"'):
		var s string
		ok := d.str(&s)
		m[key] = s
		return ok
	case d.peek('t'), d.peek('f'):
		for _, lit := range []string{"true", "false"} {
			if len(d.data)-d.i >= len(lit) && string(d.data[d.i:d.i+len(lit)]) == lit {
				d.i += len(lit)
				m[key] = lit == "true"
				return true
			}
		}
		return false
	}
	n, ok := d.number()
	m[key] = json.Number(n)
	return ok
}
