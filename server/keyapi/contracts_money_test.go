package keyapi

import (
	"encoding/json"
	"strings"
	"testing"

	"contracts/internal/apitest"
)

// Hostile money numbers on the key interface (minor units): a megabyte of
// digits or an exponent is 400 in the error body, refused by its text
// before any parsing; a product line or a sum past the money maximum is
// 400 too, and nothing wraps around.
func TestCreateContractHostileNumbers(t *testing.T) {
	e := newEnv(t, 0)
	plain := "must be a plain number of at most 24 characters, without an exponent"
	maxText := "10000000000000.00 (1000000000000000 in minor units)"
	product := func(price json.Number, qty float64) map[string]any {
		return map[string]any{"name": "TV", "price": price, "quantity": qty}
	}
	post := func(name string, extra []any, status int, want ...string) apitest.Scenario {
		return apitest.Scenario{Name: name, Method: "POST", Path: "/v1/contracts", As: e.KeyA.Secret, Body: e.sale(extra...),
			Status: status, Want: want}
	}
	million := json.Number(strings.Repeat("9", 1<<20-200))
	apitest.Run(t, e.api, []apitest.Scenario{
		post("a price of a million digits", []any{"price", million}, 400, `"price: `+plain+`"`),
		post("a product price of a million digits", []any{"products", []any{product(million, 1)}}, 400, `"products[0].price: `+plain+`"`),
		post("a price with an exponent", []any{"price", json.Number("15e4")}, 400, `"price: `+plain+`"`),
		post("a payment of 25 characters", []any{"payments", []any{map[string]any{"amount": json.Number("1000000000000000000000000"),
			"paymentDate": "2027-01-01"}}}, 400, `"payments[0].amount: `+plain+`"`),
		post("a line of 10^15 × 10^4", []any{"products", []any{product("1000000000000000", 1e4)}}, 400,
			`"products[0]: price × quantity must be at most `+maxText+`"`),
		post("lines adding up past the maximum", []any{"products", []any{product("1000000000000000", 1), product("1", 1)}}, 400,
			`"products: the amounts must add up to at most `+maxText+`"`),
		post("lines adding up to the maximum", []any{"products", []any{product("999999999999999", 1), product("1", 1)}}, 200),
		post("payments adding up past the maximum", []any{"payments", []any{
			map[string]any{"amount": json.Number("1000000000000000"), "paymentDate": "2027-01-01"},
			map[string]any{"amount": json.Number("1"), "paymentDate": "2027-02-01"}}}, 400,
			`"payments: the amounts must add up to at most `+maxText+`"`),
	})
}
