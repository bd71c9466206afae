package storage

import (
	"testing"

	"contracts/signflow"
)

// A memo is given without a transaction only while no write at all has
// committed since a snapshot it is known to hold in: any write, even one
// that leaves the memo valid, sends readers back to a transaction, whose
// check makes the memo fresh again.
func TestFreshMemoEndsWithAnyWrite(t *testing.T) {
	db, c, update, view := newMemoWorld(t)
	if m := db.FreshMemo("c1", "m"); m != nil {
		t.Fatalf("before any memo: %v", m)
	}
	view(func(tx signflow.Tx) error {
		if _, err := tx.Contract("c1"); err != nil {
			return err
		}
		tx.(signflow.Memos).KeepMemo("c1", "m", "one", 3)
		return nil
	})
	for range 2 {
		if m := db.FreshMemo("c1", "m"); m != "one" {
			t.Fatalf("fresh memo %v, want one", m)
		}
	}
	if m := db.FreshMemo("c1", "other"); m != nil {
		t.Fatalf("a memo of another name: %v", m)
	}

	// A write the memo survives still ends what is known without a transaction.
	update(func(tx signflow.Tx) error {
		return tx.PutSession(&signflow.SignSession{ID: "s1", TokenHash: []byte("h"), Status: signflow.SessionPending})
	})
	if m := db.FreshMemo("c1", "m"); m != nil {
		t.Fatalf("after a session write: fresh memo %v, want none", m)
	}
	view(func(tx signflow.Tx) error {
		if m := tx.(signflow.Memos).Memo("c1", "m"); m != "one" {
			t.Errorf("checked in a transaction: %v, want one", m)
		}
		return nil
	})
	if m := db.FreshMemo("c1", "m"); m != "one" {
		t.Fatalf("after the check: fresh memo %v, want one", m)
	}

	// Writes outside signflow's Update count too.
	if err := db.SetMeta("note", "x"); err != nil {
		t.Fatal(err)
	}
	if m := db.FreshMemo("c1", "m"); m != nil {
		t.Fatalf("after a meta write: fresh memo %v, want none", m)
	}

	// The contract changed: the memo is gone for good.
	c.Status = signflow.StatusCancelled
	update(func(tx signflow.Tx) error { return tx.PutContract(c) })
	view(func(tx signflow.Tx) error {
		if m := tx.(signflow.Memos).Memo("c1", "m"); m != nil {
			t.Errorf("after the contract changed: %v", m)
		}
		return nil
	})
	if m := db.FreshMemo("c1", "m"); m != nil {
		t.Fatalf("after the contract changed: fresh memo %v, want none", m)
	}
}
