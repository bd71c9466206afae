package postgres_test

import (
	"testing"

	"contracts/signflow"
	"contracts/storage/postgres"
	"contracts/storage/postgres/pgtest"
	"contracts/storage/storagetest"
)

// The storage conformance suite on PostgreSQL: each test on a fresh
// database, with a second store on it where the suite asks for another
// process, every row beside a record checked where a test has written, and
// searches answered both by lookups and by a walk of the owner's rows.
func TestConformance(t *testing.T) {
	storagetest.Run(t, storagetest.Engine{
		Open:  func(tb testing.TB) signflow.Store { return pgtest.Open(tb) },
		Peer:  func(tb testing.TB, s signflow.Store) signflow.Store { return pgtest.Peer(tb, s.(*postgres.Store)) },
		Check: func(tb testing.TB, s signflow.Store) { assertConsistent(tb, s.(*postgres.Store)) },
		ListVariants: map[string]func() func(){
			"walk": func() func() { return postgres.SetHitsLimit(0) },
		},
	})
}
