package storage

import (
	"testing"

	"contracts/signflow"
)

// newMemoWorld is a cached file holding one contract, c1, with helpers that
// fail the test when a write or a read fails.
func newMemoWorld(t *testing.T) (db *DB, c *signflow.Contract, update, view func(func(signflow.Tx) error)) {
	db = openCacheDB(t)
	c = &signflow.Contract{ID: "c1", Number: "2026-000001", Seq: 1, Status: signflow.StatusCreated, BuyerIN: "31234567890123",
		SellerIN: "301234567", BuyerStatus: signflow.PartyPending, SellerStatus: signflow.PartyPending}
	update = func(fn func(signflow.Tx) error) {
		t.Helper()
		if err := db.Update(fn); err != nil {
			t.Fatal(err)
		}
	}
	view = func(fn func(signflow.Tx) error) {
		t.Helper()
		if err := db.View(fn); err != nil {
			t.Fatal(err)
		}
	}
	update(func(tx signflow.Tx) error { return tx.PutContract(c) })
	return db, c, update, view
}
