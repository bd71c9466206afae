package signflow

import (
	"regexp"
	"strings"
)

var placeholder = regexp.MustCompile(`\{\{\s*([A-Za-z0-9_.]+)\s*\}\}`)

// BodyFormat says how FillBody writes the contract's data into the body;
// a nil function writes the data as it is stored.
type BodyFormat struct {
	Money func(minor int64) string // {{price}} and {{initialPayment}}
	Value func(v Value) string     // {{keyName}} of each value
}

// FillBody renders the template body in lang with the contract's data:
// {{keyName}} of each value, {{price}}, {{initialPayment}}, {{currency}},
// {{number}}, {{buyer.name}}, {{buyer.in}}, {{seller.name}}, {{seller.in}}.
// A placeholder with nothing to print (an optional field left empty, or a
// name a template from before the import checks does not have) prints as
// Blank, never as nothing.
func FillBody(v *ContractView, lang string, f BodyFormat) string {
	money := func(minor int64) string { return string(MajorNumber(minor)) }
	if f.Money != nil {
		money = f.Money
	}
	vars := map[string]string{
		"price": money(v.Price), "initialPayment": money(v.InitialPayment),
		"currency": v.Currency, "number": v.Number, "buyer.in": v.BuyerIN, "seller.in": v.SellerIN,
		"buyer.name": partyName(v.Buyer, v.BuyerIN), "seller.name": partyName(v.Seller, v.SellerIN),
	}
	for _, val := range v.Values {
		if f.Value != nil {
			vars[val.KeyName] = f.Value(val)
		} else {
			vars[val.KeyName] = val.Value
		}
	}
	body := ""
	if v.Template != nil {
		body = v.Template.Body.In(lang)
	}
	return placeholder.ReplaceAllStringFunc(body, func(m string) string {
		if s := vars[strings.TrimSpace(m[2:len(m)-2])]; strings.TrimSpace(s) != "" {
			return s
		}
		return Blank
	})
}

// Blank stands where a placeholder has nothing to print, in every language.
const Blank = "—"

func partyName(c *Client, in string) string {
	if n := c.Name(); n != "" {
		return n
	}
	return in
}

// PartyName is the printable name of a party: its registered name, else its number.
func PartyName(c *Client, in string) string { return partyName(c, in) }
