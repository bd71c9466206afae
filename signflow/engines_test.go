package signflow_test

import (
	"testing"

	"contracts/signflow"
	"contracts/storage"
	"contracts/storage/postgres"
	"contracts/storage/postgres/pgtest"
)

// engine opens fresh stores of one storage engine for the tests that must
// hold on every engine.
type engine struct {
	name string
	open func(t *testing.T) signflow.Store
	// peer, when set, returns another process's handle on the database of s.
	peer func(t *testing.T, s signflow.Store) signflow.Store
}

var engines = []engine{
	{name: "bbolt", open: func(t *testing.T) signflow.Store {
		db, err := storage.Open(t.TempDir()+"/contracts.db", storage.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}},
	{name: "postgres",
		open: func(t *testing.T) signflow.Store { return pgtest.Open(t) },
		peer: func(t *testing.T, s signflow.Store) signflow.Store { return pgtest.Peer(t, s.(*postgres.Store)) }},
}

func eachEngine(t *testing.T, fn func(t *testing.T, e engine)) {
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) { fn(t, e) })
	}
}
