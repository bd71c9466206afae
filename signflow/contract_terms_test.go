package signflow

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// plainTerms is the canonical form of the contract's terms that
// DocumentHash hashes, as encoding/json writes it: what documentTerms
// writes by hand.
func plainTerms(c *Contract) []byte {
	type value struct{ F, K, V string }
	type product struct {
		N, U string
		P, A int64
		Q    float64
		D    string
		V    map[string]any
	}
	terms := struct {
		ID, Number, Template, Purpose, Buyer, Seller, Creator, Currency, Delivery string
		Price, Initial                                                            int64
		Values                                                                    []value
		Payments                                                                  [][2]any
		Witnesses                                                                 []string
		Products                                                                  []product
		// TemplateVersion is left out at 0 and 1, so that the hash of a
		// contract made before versions stays what it was.
		TemplateVersion int `json:",omitempty"`
	}{ID: c.ID, Number: c.Number, Template: c.TemplateID, Purpose: c.Purpose, Buyer: c.BuyerIN, Seller: c.SellerIN,
		Creator: c.CreatorIN, Currency: c.Currency, Delivery: timeText(c.DeliveryAt), Price: c.Price, Initial: c.InitialPayment,
		Witnesses: c.WitnessIDs}
	if c.TemplateVersion > 1 {
		terms.TemplateVersion = c.TemplateVersion
	}
	for _, v := range c.Values {
		terms.Values = append(terms.Values, value{v.TemplateFieldID, v.KeyName, v.Value})
	}
	for _, p := range c.Payments {
		terms.Payments = append(terms.Payments, [2]any{p.Amount, UTC(p.PaymentDate).Format(time.RFC3339)})
	}
	for _, p := range c.Products {
		terms.Products = append(terms.Products, product{p.Name, p.Unit, p.Price, p.Amount, p.Quantity, timeText(p.DeliveryAt), p.Values})
	}
	// encoding/json sorts map keys, so the form is canonical.
	b, _ := json.Marshal(terms)
	return b
}

// TestDocumentTermsAreThePlainForm holds documentTerms to plainTerms for
// contracts of every shape: texts JSON escapes, empty and nil lists, odd
// quantities (NaN fails both), product values, template versions.
func TestDocumentTermsAreThePlainForm(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	texts := []string{"", "a", "<b>&\"q\"\\", "Ўзбек", "\x00\n\xff", "\u2028"}
	text := func() string { return texts[r.IntN(len(texts))] + texts[r.IntN(len(texts))] }
	quantities := []float64{0, 1, 1.5, -2, 1e-7, 3e21, 0.1, math.NaN(), math.Inf(1)}
	at := time.Date(2026, 11, 27, 10, 0, 0, 5, time.FixedZone("UZT", 5*3600))
	for i := range 5000 {
		c := &Contract{ID: text(), Number: text(), TemplateID: text(), Purpose: text(), BuyerIN: text(), SellerIN: text(),
			CreatorIN: text(), Currency: text(), Price: r.Int64() - r.Int64(), InitialPayment: r.Int64N(100), TemplateVersion: r.IntN(4)}
		if r.IntN(2) == 0 {
			c.DeliveryAt = &at
		}
		if r.IntN(3) == 0 {
			c.WitnessIDs = []string{}
		}
		for range r.IntN(3) {
			c.Values = append(c.Values, Value{TemplateFieldID: text(), KeyName: text(), Value: text()})
			c.Payments = append(c.Payments, Payment{Amount: r.Int64N(1e9), PaymentDate: at.AddDate(0, r.IntN(9), 0)})
			c.WitnessIDs = append(c.WitnessIDs, text())
			p := Product{Name: text(), Unit: text(), Price: r.Int64N(1e6), Amount: r.Int64N(1e6)}
			if r.IntN(10) > 0 {
				p.Quantity = r.Float64() * 10
			} else {
				p.Quantity = quantities[r.IntN(len(quantities))]
			}
			if r.IntN(2) == 0 {
				p.DeliveryAt = &at
			}
			switch r.IntN(3) {
			case 0:
				p.Values = map[string]any{text(): text(), "n": json.Number("12"), "b": true, "x": []any{text()}}
			case 1:
				p.Values = map[string]any{}
			}
			c.Products = append(c.Products, p)
		}
		if got, want := documentTerms(c), plainTerms(c); !bytes.Equal(got, want) {
			t.Fatalf("contract %d:\n got %s\nwant %s", i, got, want)
		}
	}
}

// BenchmarkDocumentTerms is the terms of a typical contract, by hand and
// (plain) by encoding/json.
func BenchmarkDocumentTerms(b *testing.B) {
	at := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	c := &Contract{ID: "019ac2f0-8a4e-7b1c-9d3e-0123456789ab", Number: "2026-000007", TemplateID: "019ac2f0-8a4e-7b1c-9d3e-0123456789ac",
		BuyerIN: "123456789", SellerIN: "987654321", CreatorIN: "987654321", Currency: "UZS", DeliveryAt: &at, Price: 150025, InitialPayment: 10000,
		Values:   []Value{{TemplateFieldID: "f1", KeyName: "deliveryAddress", Value: "Toshkent, Chilonzor 7, 12"}, {TemplateFieldID: "f2", KeyName: "warrantyMonths", Value: "12"}},
		Payments: []Payment{{Amount: 70000, PaymentDate: at}, {Amount: 70025, PaymentDate: at}},
		Products: []Product{{Name: "Televizor Samsung 55", Quantity: 1, Price: 150025, Amount: 150025, Values: map[string]any{"color": "black"}}}}
	b.Run("hand", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			documentTerms(c)
		}
	})
	b.Run("json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			plainTerms(c)
		}
	})
}

// timeText is the plain form's text of an optional time.
func timeText(t *time.Time) string {
	if t == nil {
		return ""
	}
	return UTC(*t).Format(time.RFC3339)
}
