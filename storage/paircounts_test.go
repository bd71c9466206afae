package storage_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"maps"
	"slices"
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
	"contracts/storage"
	"contracts/storage/storagetest"

	bolt "go.etcd.io/bbolt"
)

// pairCountProblems checks each party's counts with each counterparty
// (contract_counts <in> 0x00 "p" <other> 0x00 <template> 0x00 <status>)
// against the contracts: every count right, none for nothing, none 0.
func pairCountProblems(btx *bolt.Tx, contracts map[string]*signflow.Contract) []string {
	want := map[string]uint64{}
	for _, c := range contracts {
		for _, in := range slices.Compact([]string{c.BuyerIN, c.SellerIN}) {
			want[in+"\x00p"+c.Counterparty(in)+"\x00"+c.TemplateID+"\x00"+c.Status]++
		}
	}
	got := map[string]uint64{}
	b := btx.Bucket([]byte("contract_counts"))
	if b == nil {
		return []string{"bucket contract_counts is missing"}
	}
	b.ForEach(func(k, v []byte) error {
		if i := bytes.IndexByte(k, 0); i >= 0 && len(k) > i+1 && k[i+1] == 'p' {
			got[string(k)] = binary.BigEndian.Uint64(v)
		}
		return nil
	})
	var out []string
	for _, k := range slices.Sorted(maps.Keys(want)) {
		if got[k] != want[k] {
			out = append(out, fmt.Sprintf("contract_counts %q: %d, want %d", k, got[k], want[k]))
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			out = append(out, fmt.Sprintf("contract_counts %q: %d for no contract", k, got[k]))
		}
	}
	return out
}

// The counts with each counterparty, dropped from a file rolled back to
// schema 8, are rebuilt by the schema-9 migration, and searches answer
// with the same totals as before.
func TestPairCountsRebuiltByMigration(t *testing.T) {
	w := fixture.NewStandard(t)
	storagetest.CustomerContracts(t, w, 40, 7)
	queries := []signflow.ContractQuery{
		{OwnerIN: fixture.OwnerIN, AllTemplates: true, Search: fixture.CustomerIN, Size: 3},
		{OwnerIN: fixture.OwnerIN, AllTemplates: true, Search: fixture.CustomerIN[:2], Size: 3, Page: 11},
		{OwnerIN: fixture.CustomerIN, AllTemplates: true, Search: fixture.OwnerIN, Statuses: []string{signflow.StatusCancelled}, Size: 2},
		{OwnerIN: fixture.OwnerIN, TemplateIDs: []string{w.Other.ID}, Search: fixture.CustomerIN, Size: 5, Page: 1},
	}
	answers := func(db *storage.DB) (out []string) {
		for _, q := range queries {
			fixture.Must(t, func() error {
				return db.View(func(tx signflow.Tx) error {
					p, err := tx.ListContracts(q)
					if err != nil {
						return err
					}
					out = append(out, fmt.Sprint(p.Total))
					for _, c := range p.Contracts {
						out = append(out, c.ID)
					}
					return nil
				})
			})
		}
		return out
	}
	before := answers(w.DB)
	if before[0] != "40" || !slices.Contains(before, "7") || !slices.Contains(before, "14") {
		t.Fatalf("the scenario does not exercise the counts: %v", before)
	}
	assertIndexesConsistent(t, w.DB)

	db := rollBack(t, w.DB, 8, func(btx *bolt.Tx) error {
		counts := btx.Bucket([]byte("contract_counts"))
		var drop [][]byte
		counts.ForEach(func(k, _ []byte) error {
			if i := bytes.IndexByte(k, 0); i >= 0 && k[i+1] == 'p' {
				drop = append(drop, bytes.Clone(k))
			}
			return nil
		})
		if len(drop) == 0 {
			return fmt.Errorf("no counts with a counterparty to drop")
		}
		for _, k := range drop {
			if err := counts.Delete(k); err != nil {
				return err
			}
		}
		return nil
	})
	assertIndexesConsistent(t, db)
	if after := answers(db); !slices.Equal(after, before) {
		t.Fatalf("after the migration %v, before %v", after, before)
	}
}
