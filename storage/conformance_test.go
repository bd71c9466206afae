package storage_test

import (
	"testing"

	"contracts/signflow"
	"contracts/storage"
	"contracts/storage/storagetest"
)

// openStore opens a fresh bbolt file in the test's temp dir.
func openStore(tb testing.TB) signflow.Store {
	tb.Helper()
	db, err := storage.Open(tb.TempDir()+"/contracts.db", storage.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// The storage conformance suite on bbolt, with every index checked against
// the records where a test has written, and searches answered both from
// the pair index and by a walk of the owner's entries.
func TestConformance(t *testing.T) {
	storagetest.Run(t, storagetest.Engine{
		Open:  openStore,
		Check: func(tb testing.TB, s signflow.Store) { assertIndexesConsistent(tb, s.(*storage.DB)) },
		ListVariants: map[string]func() func(){
			"walk": func() func() { return storage.SetPairScanLimit(0) },
		},
	})
}
