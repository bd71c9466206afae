package storagetest

import (
	"fmt"
	"slices"
	"testing"
	"time"

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

// A target at its bound, however long its backlog, holds back no other
// target's row, even one due later than the whole backlog; once it has
// room its rows come out oldest due first.
func testClaimsPassABusyTarget(t *testing.T, e Engine) {
	db, o := outbox(t, e)
	var rows []row
	for i := range 300 {
		rows = append(rows, row{"app:busy", fmt.Sprint("c", i), t0.Add(time.Duration(i-300) * time.Second)})
	}
	rows = append(rows, row{"app:other", "c1", t0})
	ids := addRows(t, db, rows...)
	b, err := o.ClaimDeliveries(signflow.DeliveryClaim{Claimer: "A", Now: t0, Lease: time.Minute, Limit: 1, PerTarget: 2,
		Held: map[string]int{"app:busy": 2}})
	must(t, err)
	if len(b.Rows) != 1 || b.Rows[0].ID != ids[300] {
		t.Fatalf("behind a busy target's backlog: %d rows, want the other target's", len(b.Rows))
	}
	b, err = o.ClaimDeliveries(signflow.DeliveryClaim{Claimer: "A", Now: t0, Lease: time.Minute, Limit: 5, PerTarget: 2,
		Held: map[string]int{"app:busy": 1}})
	must(t, err)
	if len(b.Rows) != 1 || b.Rows[0].ID != ids[0] {
		t.Fatalf("with room for one: %d rows, want the busy target's oldest", len(b.Rows))
	}
}

// A row queued again (a redelivery) ahead of its lane's PENDING rows
// leads the lane: it is given out first, and the row that led waits for
// it to be settled.
func testClaimsRedeliveredRowLeads(t *testing.T, e Engine) {
	db, o := outbox(t, e)
	ids := addRows(t, db, row{"app:a", "c1", t0})
	settle(t, db, ids[0], time.Time{}) // delivered
	later := addRows(t, db, row{"app:a", "c1", t0.Add(time.Second)})
	must(t, db.Update(func(tx signflow.Tx) error {
		d, err := tx.Delivery(ids[0])
		if err != nil {
			return err
		}
		d.Status, d.NextAt, d.RoundStart = signflow.DeliveryPending, t0.Add(2*time.Second), len(d.Attempts)
		return tx.PutDelivery(d)
	}))
	if _, got := claim(t, o, "A", t0.Add(time.Second), 10); len(got) != 0 {
		t.Fatalf("the later row was given ahead of the row queued again: %v", got)
	}
	if _, got := claim(t, o, "A", t0.Add(2*time.Second), 10); !slices.Equal(got, ids) {
		t.Fatalf("at the redelivery's time: %v, want only the row queued again", got)
	}
	settle(t, db, ids[0], time.Time{})
	if _, got := claim(t, o, "A", t0.Add(2*time.Second), 10); !slices.Equal(got, later) {
		t.Fatalf("after it was delivered: %v, want the later row", got)
	}
}

// The PENDING rows are listed in outbox order, whatever their targets and
// contracts, from a sequence number on; delivered rows are not.
func testPendingInOutboxOrder(t *testing.T, e Engine) {
	db, _ := outbox(t, e)
	ids := addRows(t, db, row{"key:z", "c9", t0}, row{"app:a", "c1", t0}, row{"key:z", "c1", t0.Add(-time.Hour)},
		row{"app:a", "c0", t0}, row{"app:m", "c5", t0})
	settle(t, db, ids[1], time.Time{})
	var all, after, listed []*signflow.Delivery
	must(t, db.View(func(tx signflow.Tx) (err error) {
		if all, err = tx.PendingDeliveries(0, 10); err != nil {
			return err
		}
		if len(all) == 4 {
			if after, err = tx.PendingDeliveries(all[1].Seq, 1); err != nil {
				return err
			}
		}
		listed, err = tx.Deliveries(signflow.DeliveryFilter{Status: signflow.DeliveryPending, Limit: 3})
		return err
	}))
	idsOf := func(list []*signflow.Delivery) (out []string) {
		for _, d := range list {
			out = append(out, d.ID)
		}
		return out
	}
	want := []string{ids[0], ids[2], ids[3], ids[4]}
	if got := idsOf(all); !slices.Equal(got, want) {
		t.Fatalf("pending %v, want %v", got, want)
	}
	if got := idsOf(after); !slices.Equal(got, want[2:3]) {
		t.Fatalf("pending after the second: %v, want %v", got, want[2:3])
	}
	if got := idsOf(listed); !slices.Equal(got, want[:3]) {
		t.Fatalf("listed pending %v, want %v", got, want[:3])
	}
}
