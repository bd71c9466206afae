package storage_test

import (
	"testing"

	"contracts/internal/fixture"
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
	db := rollBack(t, w.DB, 2, func(btx *bolt.Tx) error { return btx.DeleteBucket([]byte("contract_counts")) })
	check(db, "rebuilt by the migration")
}
