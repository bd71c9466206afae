package storagetest

import (
	"testing"

	"contracts/signflow"
)

// A claim with PerTarget gives out at most PerTarget rows of one target,
// less those the claimer holds already, oldest due first; other targets'
// rows fill the rest of the limit.
func testClaimsPerTarget(t *testing.T, e Engine) {
	db, o := outbox(t, e)
	var rows []row
	for i := range 6 {
		rows = append(rows, row{"app:slow", "c" + string(rune('a'+i)), t0})
	}
	rows = append(rows, row{"app:other", "c1", t0}, row{"app:other", "c2", t0})
	ids := addRows(t, db, rows...)
	count := func(b *signflow.DeliveryBatch) (slow, other int) {
		for _, d := range b.Rows {
			if d.Target == "app:slow" {
				slow++
			} else {
				other++
			}
		}
		return
	}
	b, err := o.ClaimDeliveries(signflow.DeliveryClaim{Claimer: "A", Now: t0, Lease: 60e9, Limit: 10, PerTarget: 4,
		Held: map[string]int{"app:slow": 1}})
	must(t, err)
	if slow, other := count(b); slow != 3 || other != 2 {
		t.Fatalf("claimed %d of the slow target, %d of the other; want 3 and 2", slow, other)
	}
	b, err = o.ClaimDeliveries(signflow.DeliveryClaim{Claimer: "A", Now: t0, Lease: 60e9, Limit: 10, PerTarget: 4,
		Held: map[string]int{"app:slow": 4}})
	must(t, err)
	if len(b.Rows) != 0 {
		t.Fatalf("a target at its bound was given %d rows", len(b.Rows))
	}
	// Without a bound the rest are given.
	b, err = o.ClaimDeliveries(signflow.DeliveryClaim{Claimer: "A", Now: t0, Lease: 60e9, Limit: 10})
	must(t, err)
	if slow, other := count(b); slow != 3 || other != 0 || len(ids) != 8 {
		t.Fatalf("without a bound: %d, %d", slow, other)
	}
}
