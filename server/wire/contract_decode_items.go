package wire

import (
	"encoding/json"
	"strconv"
	"strings"
)

// The items of a create request (values, payments, products) as
// decodeContract reads them by hand (contract_decode.go).

func (d *scanner) values(out *[]ValueItem) bool {
	list := make([]ValueItem, 0, 4)
	for n := 0; ; n++ {
		done, ok := d.elem(n)
		if !ok {
			return false
		} else if done {
			break
		}
		list = append(list, ValueItem{})
		if !d.value(&list[n]) {
			return false
		}
	}
	*out = list
	return true
}

func (d *scanner) value(v *ValueItem) bool {
	var seen uint8
	for n := 0; ; n++ {
		key, done, ok := d.key(n)
		if !ok {
			return false
		} else if done {
			return true
		}
		var bit uint8
		switch key {
		case "id":
			bit, ok = 1<<0, d.str(&v.ID)
		case "position":
			num, isNum := d.number()
			p, err := strconv.ParseInt(num, 10, 32)
			bit, ok, v.Position = 1<<1, isNum && err == nil, int32(p)
		case "value":
			bit, ok = 1<<2, d.str(&v.Value)
		case "templateId":
			bit, ok = 1<<3, d.str(&v.TemplateID)
		case "templateFieldId":
			bit, ok = 1<<4, d.str(&v.TemplateFieldID)
		case "keyName":
			bit, ok = 1<<5, d.str(&v.KeyName)
		}
		if !ok || bit == 0 || seen&bit != 0 {
			return false
		}
		seen |= bit
	}
}

func (d *scanner) payments(out *[]PaymentItem) bool {
	list := make([]PaymentItem, 0, 4)
	for n := 0; ; n++ {
		done, ok := d.elem(n)
		if !ok {
			return false
		} else if done {
			break
		}
		list = append(list, PaymentItem{})
		p := &list[n]
		var seen uint8
		for k := 0; ; k++ {
			key, done, ok := d.key(k)
			if !ok {
				return false
			} else if done {
				break
			}
			var bit uint8
			switch key {
			case "amount":
				bit, ok = 1<<0, d.amount(&p.Amount)
			case "paymentDate":
				bit, ok = 1<<1, d.str(&p.PaymentDate)
			}
			if !ok || bit == 0 || seen&bit != 0 {
				return false
			}
			seen |= bit
		}
	}
	*out = list
	return true
}

func (d *scanner) products(out *[]ProductItem) bool {
	list := make([]ProductItem, 0, 2)
	for n := 0; ; n++ {
		done, ok := d.elem(n)
		if !ok {
			return false
		} else if done {
			break
		}
		list = append(list, ProductItem{})
		if !d.product(&list[n]) {
			return false
		}
	}
	*out = list
	return true
}

func (d *scanner) product(p *ProductItem) bool {
	var seen uint8
	for n := 0; ; n++ {
		key, done, ok := d.key(n)
		if !ok {
			return false
		} else if done {
			return true
		}
		var bit uint8
		switch key {
		case "name":
			bit, ok = 1<<0, d.str(&p.Name)
		case "unit":
			bit, ok = 1<<1, d.str(&p.Unit)
		case "price":
			bit, ok = 1<<2, d.amount(&p.Price)
		case "quantity":
			num, isNum := d.number()
			f, err := strconv.ParseFloat(num, 64)
			bit, ok, p.Quantity = 1<<3, isNum && err == nil, f
		case "amount":
			bit, ok = 1<<4, d.amount(&p.Amount)
		case "deliveryAt":
			bit, ok = 1<<5, d.str(&p.DeliveryAt)
		case "values":
			p.Values = map[string]any{}
			bit, ok = 1<<6, d.plainValues(p.Values)
		}
		if !ok || bit == 0 || seen&bit != 0 {
			return false
		}
		seen |= bit
	}
}

// plainValues reads an object of strings, numbers and booleans into m, as
// a decoder that uses json.Number does.
func (d *scanner) plainValues(m map[string]any) bool {
	for n := 0; ; n++ {
		key, done, ok := d.key(n)
		if !ok {
			return false
		} else if done {
			return true
		}
		if _, twice := m[key]; twice {
			return false
		}
		d.space()
		switch rest := d.text[d.i:]; {
		case strings.HasPrefix(rest, `"`):
			var s string
			ok = d.str(&s)
			m[key] = s
		case strings.HasPrefix(rest, "true"):
			m[key] = true
			d.i += len("true")
		case strings.HasPrefix(rest, "false"):
			m[key] = false
			d.i += len("false")
		default:
			var num string
			num, ok = d.number()
			m[key] = json.Number(num)
		}
		if !ok {
			return false
		}
	}
}
