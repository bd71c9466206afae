package signflow_test

import (
	"strings"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// Every amount, every product line (price × quantity) and the sums of the
// products and of the payments stay within MaxMoney: past it the request
// is refused naming the field, nothing is written, and nothing stored can
// have wrapped around (a product of 10^15 × 10^4 was once stored as
// -9223372036854775808).
func TestMoneyBounds(t *testing.T) {
	w := fixture.NewStandard(t)
	appA := w.Access(t, w.AppA)
	const max = signflow.MaxMoney
	day := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	product := func(price int64, qty float64) signflow.Product {
		return signflow.Product{Name: "TV", Quantity: qty, Price: price}
	}
	payments := func(amounts ...int64) []signflow.Payment {
		var out []signflow.Payment
		for _, a := range amounts {
			out = append(out, signflow.Payment{Amount: a, PaymentDate: day})
		}
		return out
	}
	cases := []struct {
		name string
		edit func(*signflow.ContractInput)
		want string // message prefix; "" = accepted
	}{
		{"price at the maximum", func(in *signflow.ContractInput) { in.Price = max }, ""},
		{"price above", func(in *signflow.ContractInput) { in.Price = max + 1 }, "price: must be between 0 and 10000000000000.00 (1000000000000000 in minor units)"},
		{"negative price", func(in *signflow.ContractInput) { in.Price = -1 }, "price: must be between 0"},
		{"initial payment above", func(in *signflow.ContractInput) { in.Price, in.InitialPayment = 0, max+1 },
			"initialPayment: must be between 0"},
		{"line at the maximum", func(in *signflow.ContractInput) { in.Products = []signflow.Product{product(max/4, 4)} }, ""},
		{"line of 10^15 × 10^4", func(in *signflow.ContractInput) { in.Products = []signflow.Product{product(max, 1e4)} },
			"products[0]: price × quantity must be at most 10000000000000.00 (1000000000000000 in minor units)"},
		{"line just above", func(in *signflow.ContractInput) { in.Products = []signflow.Product{product(max/4, 4.0000001)} },
			"products[0]: price × quantity must be at most"},
		{"product price above", func(in *signflow.ContractInput) { in.Products = []signflow.Product{product(max+1, 1)} },
			"products[0].price: must be between 0"},
		{"product amount given above", func(in *signflow.ContractInput) {
			in.Products = []signflow.Product{{Name: "TV", Quantity: 1, Price: 5, Amount: -1 << 63}}
		}, "products[0].amount: must be between 0"},
		{"products adding up to the maximum", func(in *signflow.ContractInput) {
			in.Products = []signflow.Product{product(max/2, 1), product(max/2, 1)}
		}, ""},
		{"products adding up past it", func(in *signflow.ContractInput) {
			for range 1000 { // 1,000 lines of 10^15 would have reached 10^18
				in.Products = append(in.Products, product(max, 1))
			}
		}, "products: the amounts must add up to at most 10000000000000.00 (1000000000000000 in minor units)"},
		{"payments adding up to the maximum", func(in *signflow.ContractInput) { in.Payments = payments(max-1, 1) }, ""},
		{"payments adding up past it", func(in *signflow.ContractInput) { in.Payments = payments(max, 1) },
			"payments: the amounts must add up to at most 10000000000000.00 (1000000000000000 in minor units)"},
		{"payment above", func(in *signflow.ContractInput) { in.Payments = payments(max + 1) }, "payments[0].amount: must be between 0"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := &signflow.ContractInput{TemplateID: w.Template.ID, BuyerIN: fixture.CustomerIN, Price: 100}
			tc.edit(in)
			before := len(listAll(t, w, appA))
			c, err := w.Service.CreateContract(appA, in, signflow.Actor{})
			if tc.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				var sum int64
				for _, p := range c.Products {
					if p.Amount < 0 || p.Amount > max {
						t.Fatalf("stored line amount %d", p.Amount)
					}
					sum += p.Amount
				}
				if sum > max {
					t.Fatalf("stored products add up to %d", sum)
				}
				return
			}
			if signflow.ErrorCode(err) != signflow.EINVALID || !strings.HasPrefix(signflow.ErrorMessage(err), tc.want) {
				t.Fatalf("got %v, want EINVALID %q", err, tc.want)
			}
			if after := len(listAll(t, w, appA)); after != before {
				t.Fatalf("a refused create wrote a contract")
			}
		})
	}
}
