package signflow

import (
	"regexp"
	"strings"
)

var placeholder = regexp.MustCompile(`\{\{\s*([A-Za-z0-9_.]+)\s*\}\}`)

// FillBody renders the template body in lang with the contract's data:
// {{keyName}} of each value, {{price}}, {{initialPayment}}, {{currency}},
// {{number}}, {{buyer.name}}, {{buyer.in}}, {{seller.name}}, {{seller.in}}.
// Unknown placeholders become empty.
func FillBody(v *ContractView, lang string) string {
	vars := map[string]string{
		"price": string(MajorNumber(v.Price)), "initialPayment": string(MajorNumber(v.InitialPayment)),
		"currency": v.Currency, "number": v.Number, "buyer.in": v.BuyerIN, "seller.in": v.SellerIN,
		"buyer.name": partyName(v.Buyer, v.BuyerIN), "seller.name": partyName(v.Seller, v.SellerIN),
	}
	for _, val := range v.Values {
		vars[val.KeyName] = val.Value
	}
	body := ""
	if v.Template != nil {
		body = v.Template.Body.In(lang)
	}
	return placeholder.ReplaceAllStringFunc(body, func(m string) string {
		return vars[strings.TrimSpace(m[2:len(m)-2])]
	})
}

func partyName(c *Client, in string) string {
	if n := c.Name(); n != "" {
		return n
	}
	return in
}

// PartyName is the printable name of a party: its registered name, else its number.
func PartyName(c *Client, in string) string { return partyName(c, in) }
