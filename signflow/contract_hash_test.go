package signflow

import (
	"testing"
	"time"
)

// The terms encoded before a create's write transaction hash, once the
// contract is numbered, to DocumentHash of the numbered contract.
func TestPreparedHashIsDocumentHash(t *testing.T) {
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	full := &Contract{ID: NewID(), TemplateID: NewID(), Purpose: "CONTRACT", BuyerIN: "31234567890123", SellerIN: "301234567",
		CreatorIN: "301234567", Currency: "UZS", DeliveryAt: &at, Price: 150025, InitialPayment: 100,
		Values:     []Value{{TemplateFieldID: "f1", KeyName: "deliveryAddress", Value: `Toshkent, "Chilonzor" 7 <12> & Number":""`}},
		Payments:   []Payment{{Amount: 70000, PaymentDate: at.AddDate(0, 1, 0)}},
		WitnessIDs: []string{"w 1"},
		Products:   []Product{{Name: "TV", Unit: "DONA", Price: 150025, Amount: 150025, Quantity: 1.5, Values: map[string]any{"b": 1, "a": "x"}}}}
	for _, c := range []*Contract{full, {ID: NewID(), BuyerIN: "31234567890123", SellerIN: "301234567"}} {
		for _, number := range []string{"2026-000001", "2026-1234567", "x\"y\\z", ""} {
			terms := prepareHash(c)
			c.Number = number
			if got, want := terms.hash(c), DocumentHash(c); got != want {
				t.Errorf("number %q: prepared hash %s, DocumentHash %s", number, got, want)
			}
			c.Number = ""
		}
	}
}
