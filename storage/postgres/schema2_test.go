package postgres_test

import (
	"context"
	"slices"
	"testing"

	"contracts/signflow"
	"contracts/storage/postgres"
	"contracts/storage/postgres/pgtest"
	"contracts/storage/storagetest"
)

// Schema 2 fills the counts with each counterparty from the party rows of
// a database written at schema 1: the counts agree with the rows, and
// searches answer as before.
func TestSchema2FillsPairCounts(t *testing.T) {
	url := pgtest.NewDatabase(t)
	s := pgtest.OpenURL(t, url)
	w := storagetest.NewWorld(t, s, 300, 30, 60)
	queries := []signflow.ContractQuery{
		{OwnerIN: storagetest.BenchOwner, AllTemplates: true, Size: 7, Search: "3"},
		{OwnerIN: storagetest.BenchOwner, AllTemplates: true, Size: 7, Page: 2, Search: "karimov"},
		{OwnerIN: storagetest.BenchOwner, AllTemplates: true, Size: 5, Search: w.Contracts[10].Number},
		{OwnerIN: storagetest.BenchOwner, AllTemplates: true, Size: 5, Statuses: []string{signflow.StatusCreated}, Search: "azi"},
	}
	var before [][]string
	for _, q := range queries {
		ids, total := w.List(t, q)
		if wantIDs, wantTotal := w.Expected(q); total != wantTotal || !slices.Equal(ids, wantIDs) {
			t.Fatalf("%+v: total %d, want %d", q, total, wantTotal)
		}
		before = append(before, append(ids, string(rune(total))))
	}
	if _, total := w.Expected(queries[0]); total < 20 {
		t.Fatalf("the search matches only %d contracts; the data does not exercise it", total)
	}
	ctx := context.Background()
	if _, err := postgres.Pool(s).Exec(ctx, "DROP TABLE contract_pair_counts; UPDATE schema_version SET version = 1"); err != nil {
		t.Fatal(err)
	}
	s.Close()

	s2 := pgtest.OpenURL(t, url)
	if v, err := s2.SchemaVersion(); err != nil || v != postgres.CurrentSchema() {
		t.Fatalf("schema %d (%v) after reopening", v, err)
	}
	assertConsistent(t, s2)
	w.Store = s2
	for i, q := range queries {
		ids, total := w.List(t, q)
		if got := append(ids, string(rune(total))); !slices.Equal(got, before[i]) {
			t.Fatalf("%+v after the migration: %v, before %v", q, got, before[i])
		}
	}
}
