package signflow

import (
	"strings"
	"testing"
	"time"
)

// The money lines as a create request meets them are checked by
// contract_create_test.go (TestCreateContractRules) and
// contract_money_test.go (TestMoneyBounds), and on each interface by
// server/embedded/contracts_money_test.go and server/keyapi's; here,
// contract_lines.go's rules on their own: sums within MaxMoney, a line's
// amount as price × quantity, and the bounds of a product field's value.
func TestContractLines(t *testing.T) {
	day := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
	tpl := &Template{PaymentScheduleEnabled: true, ProductEnabled: true,
		Fields: []Field{{KeyName: "color", Type: "STRING", ProductField: true, Required: true}, {KeyName: "extra", Type: "LIST", ProductField: true}}}
	payments := func(amounts ...int64) error {
		var in []Payment
		for _, a := range amounts {
			in = append(in, Payment{Amount: a, PaymentDate: day})
		}
		return addPayments(&Contract{}, tpl, in)
	}
	for _, tc := range []struct {
		err  error
		want string
	}{
		{payments(1, MaxMoney-1), ""},
		{payments(MaxMoney, 1), "payments: the amounts must add up to at most"},
		{payments(0), "payments[0]: amount above 0"},
		{payments(MaxMoney + 1), "payments[0].amount: must be between 0 and"},
		{addPayments(&Contract{}, &Template{}, []Payment{{Amount: 1, PaymentDate: day}}), "payments: the template has no payment schedule"},
	} {
		if tc.want == "" && tc.err != nil || tc.want != "" && !strings.HasPrefix(ErrorMessage(tc.err), tc.want) {
			t.Errorf("%v, want %q", tc.err, tc.want)
		}
	}

	product := func(change func(*Product)) (*Contract, error) {
		p := Product{Name: " TV ", Price: 150025, Quantity: 1.5, Values: map[string]any{"color": "black"}}
		change(&p)
		c := &Contract{}
		return c, addProducts(c, tpl, []Product{p})
	}
	c, err := product(func(*Product) {})
	if err != nil || c.Products[0].Amount != 225038 || c.Products[0].Unit != "DONA" || c.Products[0].Name != "TV" {
		t.Fatalf("a plain line: %v, %+v", err, c.Products)
	}
	for name, tc := range map[string]struct {
		change func(*Product)
		want   string
	}{
		"amount one minor unit off": {func(p *Product) { p.Amount = 225039 }, ""},
		"amount two off":            {func(p *Product) { p.Amount = 225040 }, "products[0].amount: must equal price × quantity"},
		"line past MaxMoney":        {func(p *Product) { p.Price, p.Quantity = MaxMoney, 2 }, "products[0]: price × quantity must be at most"},
		"no quantity":               {func(p *Product) { p.Quantity = 0 }, "products[0].quantity"},
		"unknown unit":              {func(p *Product) { p.Unit = "BOX" }, "products[0].unit"},
		"required value blank":      {func(p *Product) { p.Values = map[string]any{"color": "  "} }, "products[0].values: color is required"},
		"not a product field":       {func(p *Product) { p.Values["size"] = "L" }, `products[0].values: "size" is not a product field`},
		"string field given a list": {func(p *Product) { p.Values["color"] = []any{"black"} }, "products[0].values.color: must be a string"},
		"value nested too deep":     {func(p *Product) { p.Values["extra"] = []any{[]any{[]any{[]any{[]any{1}}}}} }, "products[0].values.extra: nested too deep"},
		"value nested four deep":    {func(p *Product) { p.Values["extra"] = []any{[]any{[]any{map[string]any{"a": 1}}}} }, ""},
		"value too long":            {func(p *Product) { p.Values["extra"] = []any{strings.Repeat("x", 10000)} }, "products[0].values.extra: too long"},
	} {
		_, err := product(tc.change)
		if tc.want == "" && err != nil || tc.want != "" && (ErrorCode(err) != EINVALID || !strings.HasPrefix(ErrorMessage(err), tc.want)) {
			t.Errorf("%s: %v, want %q", name, err, tc.want)
		}
	}
	if !blank(nil) || !blank(" \t") || blank(0) || blank("x") || blank([]any{}) {
		t.Error("blank: nil and white space say nothing; anything else does")
	}
}
