package storage

import (
	"fmt"
	"testing"

	"contracts/signflow"
)

// The notes of contract writes are kept in two generations. A write of
// the contract noted in the older one still ends its memo; a memo checked
// since the older generation began stays fresh, with no transaction, when
// the newer one fills; once the generation it was checked in is forgotten
// it is checked in a transaction again.
func TestFreshMemoAcrossNoteGenerations(t *testing.T) {
	db, c, update, view := newMemoWorld(t)
	keep := func(v string) {
		t.Helper()
		view(func(tx signflow.Tx) error {
			tx.(signflow.Memos).KeepMemo("c1", "m", v, len(v))
			return nil
		})
	}
	n := 0
	others := func(count int) { // count other contracts, 512 to a transaction
		t.Helper()
		for count > 0 {
			k := min(count, 512)
			count -= k
			update(func(tx signflow.Tx) error {
				for range k {
					n++
					o := *c
					o.ID, o.Number, o.Seq = fmt.Sprintf("n%05d", n), fmt.Sprintf("2027-%06d", n), uint64(10+n)
					if err := tx.PutContract(&o); err != nil {
						return err
					}
				}
				return nil
			})
		}
	}
	fresh := func(want any, after string) {
		t.Helper()
		if m := db.FreshMemo("c1", "m"); m != want {
			t.Fatalf("after %s: fresh memo %v, want %v", after, m, want)
		}
	}
	gen := contractWritesKept / 2

	keep("one")
	c.Status = signflow.StatusCancelled
	update(func(tx signflow.Tx) error { return tx.PutContract(c) })
	others(gen) // the contract's write is now in the older generation
	if len(db.written.old) == 0 || db.written.old["c1"] == 0 {
		t.Fatalf("the contract's write is not in the older generation")
	}
	fresh(nil, "the contract's write, handed down to the older generation")
	view(func(tx signflow.Tx) error {
		if m := tx.(signflow.Memos).Memo("c1", "m"); m != nil {
			t.Errorf("in a transaction: %v", m)
		}
		return nil
	})

	keep("two")
	fresh("two", "keeping it")
	others(gen) // the newer generation fills and is handed down
	fresh("two", "one generation of other writes")
	others(gen) // and again: the memo was last checked two generations ago
	fresh("two", "a check in the generation before")
	others(2 * gen)
	fresh(nil, "two generations with no check")
	view(func(tx signflow.Tx) error {
		if m := tx.(signflow.Memos).Memo("c1", "m"); m != "two" {
			t.Errorf("in a transaction: %v", m)
		}
		return nil
	})
	fresh("two", "the check in a transaction")
}
