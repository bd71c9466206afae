package storage

import (
	"testing"

	"contracts/signflow"
)

// A contract whose memo is kept leaves the record cache: the memo's
// readers need no decoded copy of it. The memo is still given, and a
// later read of the contract decodes it and keeps it again.
func TestKeptMemoLeavesTheRecordCache(t *testing.T) {
	db, _, _, view := newMemoWorld(t)
	cached := func() bool {
		db.cache.mu.RLock()
		defer db.cache.mu.RUnlock()
		_, ok := db.cache.items[string(bucketContracts)]["c1"]
		return ok
	}
	view(func(tx signflow.Tx) error {
		if _, err := tx.Contract("c1"); err != nil {
			return err
		}
		if !cached() {
			t.Fatal("a read left no decoded contract in the record cache")
		}
		tx.(signflow.Memos).KeepMemo("c1", "m", "one", 3)
		return nil
	})
	if cached() {
		t.Fatal("the contract stayed in the record cache beside its memo")
	}
	view(func(tx signflow.Tx) error {
		if m := tx.(signflow.Memos).Memo("c1", "m"); m != "one" {
			t.Fatalf("memo %v, want one", m)
		}
		if c, err := tx.Contract("c1"); err != nil || c.ID != "c1" {
			t.Fatalf("contract %v, %v", c, err)
		}
		return nil
	})
	if !cached() {
		t.Fatal("a later read did not keep the contract again")
	}
}
