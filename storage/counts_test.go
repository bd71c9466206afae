package storage_test

import (
	"testing"

	"contracts/internal/fixture"
	"contracts/storage"
	"contracts/storage/storagetest"

	bolt "go.etcd.io/bbolt"
)

// The counts dropped from a file and rebuilt by the schema-3 migration
// give the same totals as those kept with the writes.
func TestCountsRebuiltByMigration(t *testing.T) {
	w := fixture.NewStandard(t)
	check := storagetest.CountScenario(t, w)
	check(w.DB, "kept with writes")

	// Drop the counts and go back to schema 2: reopening rebuilds them.
	path := w.DB.Path()
	w.DB.Close()
	b, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = b.Update(func(btx *bolt.Tx) error {
		if err := btx.DeleteBucket([]byte("contract_counts")); err != nil {
			return err
		}
		return btx.Bucket([]byte("meta")).Put([]byte("schema"), []byte{0, 0, 0, 0, 0, 0, 0, 2})
	})
	b.Close()
	if err != nil {
		t.Fatal(err)
	}
	db, err := storage.Open(path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if v, _ := db.SchemaVersion(); v != storage.CurrentSchema() {
		t.Fatalf("schema %d after reopening", v)
	}
	check(db, "rebuilt by the migration")
}
