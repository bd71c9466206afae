package embedded

import (
	"encoding/json"
	"strings"
	"testing"

	"contracts/internal/apitest"
	"contracts/internal/fixture"
)

// Hostile money numbers on the embedded interface (major units): a
// megabyte of digits or an exponent is 400 in the error body, refused by
// its text before any parsing (signflow's TestHugeNumbersRefusedBeforeParsing
// shows no number is built); a product line or a sum past the money
// maximum is 400 too, and nothing wraps around.
func TestCreateContractHostileNumbers(t *testing.T) {
	e := newEnv(t, 0)
	tok := e.token(e.AppA)
	plain := "must be a plain number of at most 24 characters, without an exponent"
	body := func(over map[string]any) map[string]any {
		m := map[string]any{"templateId": e.Template.ID, "buyerIn": fixture.CustomerIN, "price": 100}
		for k, v := range over {
			m[k] = v
		}
		return m
	}
	product := func(price json.Number, qty float64) map[string]any {
		return map[string]any{"name": "TV", "price": price, "quantity": qty}
	}
	post := func(name string, over map[string]any, status int, want ...string) apitest.Scenario {
		return apitest.Scenario{Name: name, Method: "POST", Path: "/v1/contracts", As: tok, Body: body(over), Status: status, Want: want}
	}
	million := json.Number(strings.Repeat("9", 1<<20-200))
	apitest.Run(t, e.api, []apitest.Scenario{
		post("a price of a million digits", map[string]any{"price": million}, 400, `"price: `+plain+`"`),
		post("a product price of a million digits", map[string]any{"products": []any{product(million, 1)}}, 400,
			`"products[0].price: `+plain+`"`),
		post("a payment with an exponent", map[string]any{"payments": []any{map[string]any{"amount": json.Number("1e3"),
			"paymentDate": "2027-01-01"}}}, 400, `"payments[0].amount: `+plain+`"`),
		post("an initial payment of 25 characters", map[string]any{"initialPayment": json.Number("1.00000000000000000000000")}, 400,
			`"initialPayment: `+plain+`"`),
		post("24 characters are read", map[string]any{"price": json.Number("100.00000000000000000000")}, 200),
		post("a line of 10^13 × 10^4", map[string]any{"products": []any{product("10000000000000", 1e4)}}, 400,
			`"products[0]: price × quantity must be at most 10000000000000.00 (1000000000000000 in minor units)"`),
		post("lines adding up past the maximum", map[string]any{"products": []any{product("10000000000000", 1),
			product("0.01", 1)}}, 400, `"products: the amounts must add up to at most 10000000000000.00 (1000000000000000 in minor units)"`),
		post("lines adding up to the maximum", map[string]any{"products": []any{product("5000000000000", 1),
			product("5000000000000", 1)}}, 200),
		post("payments adding up past the maximum", map[string]any{"payments": []any{
			map[string]any{"amount": json.Number("10000000000000"), "paymentDate": "2027-01-01"},
			map[string]any{"amount": json.Number("0.01"), "paymentDate": "2027-02-01"}}}, 400,
			`"payments: the amounts must add up to at most 10000000000000.00 (1000000000000000 in minor units)"`),
	})
}
