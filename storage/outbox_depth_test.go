package storage_test

import (
	"errors"
	"path/filepath"
	"testing"
	"time"

	"contracts/signflow"
	"contracts/storage"
)

// A claim reports the outbox's depth from a count kept in memory: it
// follows every committed write of a row (new, delivered, retried, failed,
// queued again), ignores a transaction rolled back, and is counted again
// from the file at open.
func TestClaimDepthFollowsCommittedWrites(t *testing.T) {
	path := filepath.Join(t.TempDir(), "contracts.db")
	db := openDB(t, path)
	at := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	depth := func(db *storage.DB, want int) {
		t.Helper()
		b, err := db.ClaimDeliveries(signflow.DeliveryClaim{Claimer: "t", Now: at, Lease: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		if b.Pending != want {
			t.Fatalf("depth %d, want %d", b.Pending, want)
		}
	}
	write := func(fn func(tx signflow.Tx) error) error { return db.Update(fn) }
	var ids []string
	add := func(tx signflow.Tx) error {
		d := &signflow.Delivery{ID: signflow.NewID(), Event: signflow.EventCreated, ContractID: signflow.NewID(), Target: "app:a",
			URL: "https://example.com/hook", Body: []byte(`{}`), Status: signflow.DeliveryPending, Attempts: []signflow.Attempt{},
			NextAt: at, CreatedAt: at}
		ids = append(ids, d.ID)
		return tx.AddDelivery(d)
	}
	set := func(id string, edit func(*signflow.Delivery)) {
		t.Helper()
		if err := write(func(tx signflow.Tx) error {
			d, err := tx.Delivery(id)
			if err != nil {
				return err
			}
			edit(d)
			return tx.PutDelivery(d)
		}); err != nil {
			t.Fatal(err)
		}
	}
	for range 3 {
		if err := write(add); err != nil {
			t.Fatal(err)
		}
	}
	depth(db, 3)
	refused := errors.New("refused")
	if err := write(func(tx signflow.Tx) error { add(tx); return refused }); !errors.Is(err, refused) {
		t.Fatalf("rolled back write: %v", err)
	}
	depth(db, 3)
	set(ids[0], func(d *signflow.Delivery) { d.Status = signflow.DeliveryDelivered })
	depth(db, 2)
	set(ids[1], func(d *signflow.Delivery) { d.NextAt = at.Add(2 * time.Second) }) // a retry stays queued
	depth(db, 2)
	set(ids[1], func(d *signflow.Delivery) { d.Status = signflow.DeliveryFailed })
	depth(db, 1)
	set(ids[1], func(d *signflow.Delivery) { d.Status, d.RoundStart = signflow.DeliveryPending, len(d.Attempts) }) // redelivered
	depth(db, 2)
	db.Close()
	depth(openDB(t, path), 2)
}

// The pool's wake-up runs after the commit has counted the new row: a
// claim made as soon as it wakes reports the row in the depth (the wake-up
// ran first once, and a claim that won the race reported one row fewer
// until the next).
func TestWakeUpSeesTheNewRowCounted(t *testing.T) {
	db := openDB(t, filepath.Join(t.TempDir(), "contracts.db"))
	at := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	seen := -1
	db.OnDeliveryAdded(func() {
		b, err := db.ClaimDeliveries(signflow.DeliveryClaim{Claimer: "wake", Now: at, Lease: time.Minute})
		if err != nil {
			t.Error(err)
		}
		seen = b.Pending
	})
	for want := 1; want <= 3; want++ {
		if err := db.Update(func(tx signflow.Tx) error {
			return tx.AddDelivery(&signflow.Delivery{ID: signflow.NewID(), Event: signflow.EventCreated, ContractID: signflow.NewID(),
				Target: "app:a", URL: "https://example.com/hook", Body: []byte(`{}`), Status: signflow.DeliveryPending,
				Attempts: []signflow.Attempt{}, NextAt: at, CreatedAt: at})
		}); err != nil {
			t.Fatal(err)
		}
		if seen != want {
			t.Fatalf("the wake-up's claim saw a depth of %d, want %d", seen, want)
		}
	}
}
