package storage

import (
	"testing"

	"contracts/signflow"
)

// A memo of a contract is given back to read-only transactions only, until
// the contract's bytes change or a write of a stable bucket (a claim here)
// commits; a write of another kind leaves it. A memo checked in a newer
// snapshot is known to hold in it, and still lost when the contract changes
// after.
func TestMemoFollowsWrites(t *testing.T) {
	db, c, update, _ := newMemoWorld(t)
	// keep reads the contract and keeps v as its memo "m".
	keep := func(v string) {
		t.Helper()
		err := db.View(func(stx signflow.Tx) error {
			if _, err := stx.Contract("c1"); err != nil {
				return err
			}
			stx.(signflow.Memos).KeepMemo("c1", "m", v, len(v))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	memo := func() any {
		t.Helper()
		var m any
		if err := db.View(func(stx signflow.Tx) error { m = stx.(signflow.Memos).Memo("c1", "m"); return nil }); err != nil {
			t.Fatal(err)
		}
		return m
	}
	keep("one")
	if m := memo(); m != "one" {
		t.Fatalf("memo %v, want one", m)
	}
	update(func(tx signflow.Tx) error {
		if m := tx.(signflow.Memos).Memo("c1", "m"); m != nil {
			t.Errorf("a writer got the memo %v", m)
		}
		return tx.PutSession(&signflow.SignSession{ID: "s1", TokenHash: []byte("h"), Status: signflow.SessionPending})
	})
	for range 2 { // checked in the new snapshot, then known to hold in it
		if m := memo(); m != "one" {
			t.Fatalf("after a session write: memo %v, want one", m)
		}
	}
	update(func(tx signflow.Tx) error {
		return tx.PutClaim("301234567", &signflow.Client{IN: "31234567890123", FirstName: "Aziz", LastName: "Karimov"})
	})
	if m := memo(); m != nil {
		t.Fatalf("after a claim write: memo %v, want none", m)
	}
	keep("two")
	update(func(tx signflow.Tx) error {
		return tx.PutSession(&signflow.SignSession{ID: "s2", TokenHash: []byte("h2"), Status: signflow.SessionPending})
	})
	for range 2 {
		if m := memo(); m != "two" {
			t.Fatalf("after another session write: memo %v, want two", m)
		}
	}
	c.Status = signflow.StatusCancelled
	update(func(tx signflow.Tx) error { return tx.PutContract(c) })
	if m := memo(); m != nil {
		t.Fatalf("after the contract changed: memo %v, want none", m)
	}
}
