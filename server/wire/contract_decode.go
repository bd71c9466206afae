package wire

import (
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
	// One string holds the body; the request's strings are parts of it.
	d := scanner{text: string(data)}
	var seen uint16
	for n := 0; ; n++ {
		key, done, ok := d.key(n)
		if !ok {
			return false
		} else if done {
			break
		}
		var bit uint16
		switch key {
		case "templateId":
			bit, ok = 1<<0, d.str(&r.TemplateID)
		case "buyerIn":
			bit, ok = 1<<1, d.str(&r.BuyerIN)
		case "sellerIn":
			bit, ok = 1<<2, d.str(&r.SellerIN)
		case "price":
			bit, ok = 1<<3, d.amount(&r.Price)
		case "currency":
			bit, ok = 1<<4, d.str(&r.Currency)
		case "initialPayment":
			bit, ok = 1<<5, d.amount(&r.InitialPayment)
		case "deliveryAt":
			bit, ok = 1<<6, d.str(&r.DeliveryAt)
		case "signBy":
			bit, ok = 1<<7, d.str(&r.SignBy)
		case "values":
			bit, ok = 1<<8, d.values(&r.Values)
		case "payments":
			bit, ok = 1<<9, d.payments(&r.Payments)
		case "witnessIds":
			bit, ok = 1<<10, d.strings(&r.WitnessIDs)
		case "products":
			bit, ok = 1<<11, d.products(&r.Products)
		}
		if !ok || bit == 0 || seen&bit != 0 {
			return false
		}
		seen |= bit
	}
	d.space()
	return d.i == len(d.text)
}

// scanner reads JSON of the common form from text at i.
type scanner struct {
	text string
	i    int
}

func (d *scanner) space() {
	for d.i < len(d.text) {
		switch d.text[d.i] {
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
	if d.i < len(d.text) && d.text[d.i] == c {
		d.i++
		return true
	}
	return false
}

// key reads the opening brace (n == 0) or the comma before the object's
// next key and the key with its colon, or the closing brace (done).
func (d *scanner) key(n int) (key string, done, ok bool) {
	if n == 0 && !d.next('{') {
		return "", false, false
	}
	if d.next('}') {
		return "", true, true
	}
	if n > 0 && !d.next(',') {
		return "", false, false
	}
	ok = d.str(&key) && d.next(':')
	return key, false, ok
}

// elem reads the opening bracket (n == 0) or the comma before the array's
// next element, or the closing bracket (done).
func (d *scanner) elem(n int) (done, ok bool) {
	if n == 0 && !d.next('[') {
		return false, false
	}
	if d.next(']') {
		return true, true
	}
	return false, n == 0 || d.next(',')
}

// str reads a string with no escapes, of valid UTF-8.
func (d *scanner) str(out *string) bool {
	if !d.next('"') {
		return false
	}
	start := d.i
	ascii := true
	for ; d.i < len(d.text); d.i++ {
		switch c := d.text[d.i]; {
		case c == '"':
			s := d.text[start:d.i]
			d.i++
			if !ascii && !utf8.ValidString(s) {
				return false
			}
			*out = s
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
	start, b := d.i, d.text
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
	return b[start:d.i], true
}

func (d *scanner) amount(out *Amount) bool {
	n, ok := d.number()
	*out = Amount(n)
	return ok
}

func (d *scanner) strings(out *[]string) bool {
	list := make([]string, 0, 2)
	for n := 0; ; n++ {
		done, ok := d.elem(n)
		if !ok {
			return false
		} else if done {
			break
		}
		list = append(list, "")
		if !d.str(&list[n]) {
			return false
		}
	}
	*out = list
	return true
}
