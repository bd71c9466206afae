package storage

import (
	"fmt"
	"testing"

	"contracts/signflow"
)

// A memo is given without a transaction while every write committed since
// a snapshot it is known to hold in left the contract and the stable
// buckets alone: writes of sessions, of the meta bucket and of other
// contracts leave it fresh; a write of a claim or of the contract ends it.
// Once the notes of contract writes start over past their bound, a reader
// checks in a transaction again, which makes the memo fresh again.
func TestFreshMemoFollowsWrites(t *testing.T) {
	db, c, update, view := newMemoWorld(t)
	if m := db.FreshMemo("c1", "m"); m != nil {
		t.Fatalf("before any memo: %v", m)
	}
	keep := func(v string) {
		t.Helper()
		view(func(tx signflow.Tx) error {
			tx.(signflow.Memos).KeepMemo("c1", "m", v, len(v))
			return nil
		})
	}
	fresh := func(want any, after string) {
		t.Helper()
		for range 2 {
			if m := db.FreshMemo("c1", "m"); m != want {
				t.Fatalf("after %s: fresh memo %v, want %v", after, m, want)
			}
		}
	}
	inTx := func(want any, after string) {
		t.Helper()
		view(func(tx signflow.Tx) error {
			if m := tx.(signflow.Memos).Memo("c1", "m"); m != want {
				t.Errorf("after %s: memo in a transaction %v, want %v", after, m, want)
			}
			return nil
		})
	}
	keep("one")
	fresh("one", "keeping it")
	if m := db.FreshMemo("c1", "other"); m != nil {
		t.Fatalf("a memo of another name: %v", m)
	}

	update(func(tx signflow.Tx) error {
		return tx.PutSession(&signflow.SignSession{ID: "s1", TokenHash: []byte("h"), Status: signflow.SessionPending})
	})
	fresh("one", "a session write")
	if err := db.SetMeta("note", "x"); err != nil {
		t.Fatal(err)
	}
	fresh("one", "a meta write")
	other := *c
	other.ID, other.Number, other.Seq = "c2", "2026-000002", 2
	update(func(tx signflow.Tx) error { return tx.PutContract(&other) })
	fresh("one", "another contract's write")

	update(func(tx signflow.Tx) error {
		return tx.PutClaim("301234567", &signflow.Client{IN: "31234567890123", FirstName: "Aziz", LastName: "Karimov"})
	})
	fresh(nil, "a claim write")
	inTx(nil, "a claim write")

	keep("two")
	fresh("two", "keeping it again")
	update(func(tx signflow.Tx) error {
		for i := range contractWritesKept + 1 {
			o := other
			o.ID, o.Number, o.Seq = fmt.Sprintf("n%05d", i), fmt.Sprintf("2027-%06d", i), uint64(10+i)
			if err := tx.PutContract(&o); err != nil {
				return err
			}
		}
		return nil
	})
	fresh(nil, "more contract writes than are noted")
	inTx("two", "more contract writes than are noted")
	fresh("two", "the check in a transaction")

	c.Status = signflow.StatusCancelled
	update(func(tx signflow.Tx) error { return tx.PutContract(c) })
	fresh(nil, "the contract's write")
	inTx(nil, "the contract's write")
}
