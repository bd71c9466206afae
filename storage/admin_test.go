package storage_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
	"contracts/storage"
)

// Opening a file of schema 3 fills the counts of the contracts it holds.
func TestContractStatsMigrated(t *testing.T) {
	path := filepath.Join(t.TempDir(), "contracts.db")
	copyFile(t, filepath.Join("testdata", "schema-v3.db"), path)
	db, err := storage.Open(path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	byStatus, perDay := map[string]int{}, map[string]int{}
	var stats *signflow.ContractStats
	fixture.Must(t, func() error {
		return db.View(func(tx signflow.Tx) error {
			page, err := tx.ListContracts(signflow.ContractQuery{AllOwners: true, AllTemplates: true, Size: 1000})
			if err != nil {
				return err
			}
			for _, c := range page.Contracts {
				byStatus[c.Status]++
				perDay[signflow.Day(c.CreatedAt)]++
			}
			stats, err = tx.ContractStats("2000-01-01")
			return err
		})
	})
	if len(byStatus) == 0 {
		t.Fatal("the fixture's contracts are not listed")
	}
	if fmt.Sprint(stats.ByStatus) != fmt.Sprint(byStatus) || fmt.Sprint(stats.PerDay) != fmt.Sprint(perDay) {
		t.Errorf("migrated stats %v %v, want %v %v", stats.ByStatus, stats.PerDay, byStatus, perDay)
	}
}
