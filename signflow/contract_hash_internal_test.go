package signflow

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// TestNumberedTermsHashLikeDocumentHash holds a create's hash, made of
// terms encoded before the number was known, to DocumentHash of the
// numbered contract: for contracts of every shape, texts JSON escapes,
// numbers of any width, and ids or numbers the cut cannot take (which
// take DocumentHash itself).
func TestNumberedTermsHashLikeDocumentHash(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	texts := []string{"", "a", "<b>&\"q\"\\", "Ўзбек", "\x00\n\xff", "\u2028"}
	text := func() string { return texts[r.IntN(len(texts))] + texts[r.IntN(len(texts))] }
	at := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	cut := 0
	for i := range 3000 {
		c := &Contract{ID: newOrderedID(), TemplateID: text(), Purpose: text(), BuyerIN: text(), SellerIN: text(),
			CreatorIN: text(), Currency: text(), Price: r.Int64(), InitialPayment: r.Int64N(100), TemplateVersion: r.IntN(3)}
		if r.IntN(2) == 0 {
			c.DeliveryAt = &at
		}
		for range r.IntN(3) {
			c.Values = append(c.Values, Value{TemplateFieldID: text(), KeyName: text(), Value: text()})
			c.Payments = append(c.Payments, Payment{Amount: r.Int64N(1e9), PaymentDate: at.AddDate(0, r.IntN(9), 0)})
			c.WitnessIDs = append(c.WitnessIDs, text())
			p := Product{Name: text(), Unit: text(), Price: r.Int64N(1e6), Quantity: r.Float64() * 10, Amount: r.Int64N(1e6)}
			if r.IntN(2) == 0 {
				p.Values = map[string]any{text(): text(), "n": r.Float64()}
			}
			c.Products = append(c.Products, p)
		}
		switch i % 100 {
		case 0:
			c.ID = `odd"id`
		case 1:
			c.Number = "x" // a number is set later, but not one the cut takes
		}
		terms := termsBeforeNumber(c)
		if terms.head != nil {
			cut++
		}
		if c.Number == "" {
			c.Number = fmt.Sprintf("%d-%06d", 2026, r.Uint64N(1<<40))
		}
		if i%100 == 2 {
			c.Number = "2026-<1>"
		}
		if i%100 == 3 { // longer than the room before the tail
			c.Number = "2026-" + strings.Repeat("1", 60)
		}
		if got, want := terms.hash(c), DocumentHash(c); got != want {
			t.Fatalf("contract %d (%s): hash %s, DocumentHash %s", i, c.Number, got, want)
		}
	}
	if cut < 2900 {
		t.Fatalf("only %d of 3000 terms were cut at the number", cut)
	}
}
