package postgres_test

import (
	"sync/atomic"
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
	"contracts/storage"
	"contracts/storage/postgres/pgtest"
	"contracts/storage/storagetest"
)

// benchEngines are the engines compared, opened fresh for each benchmark.
var benchEngines = []struct {
	name string
	open func(b *testing.B) signflow.Store
}{
	{"bbolt", func(b *testing.B) signflow.Store {
		db, err := storage.Open(b.TempDir()+"/contracts.db", storage.Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { db.Close() })
		return db
	}},
	{"postgres", func(b *testing.B) signflow.Store { return pgtest.Open(b) }},
}

// BenchmarkEngines compares the engines in one run, with concurrent
// callers as a server has them: creating a contract through the service
// (number, record, party rows, counts, audit event and an outbox row for
// the app's webhook, in one transaction) and reading one as the embedded
// interface does. Compare the engines' ns/op as ratios:
//
//	eval "$(.ci/postgres start --durable)"   # fsync on, as bbolt
//	go test ./storage/postgres -run '^$' -bench Engines -benchtime 3s
func BenchmarkEngines(b *testing.B) {
	for _, e := range benchEngines {
		b.Run(e.name+"/create", func(b *testing.B) {
			w, app := newBenchWorld(b, e.open(b))
			b.SetParallelism(8)
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if _, err := w.Service.CreateContract(app, &signflow.ContractInput{TemplateID: w.Template.ID, BuyerIN: fixture.CustomerIN,
						Price: 150000, Currency: "UZS"}, signflow.Actor{}); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
		b.Run(e.name+"/read", func(b *testing.B) {
			w, app := newBenchWorld(b, e.open(b))
			ids := make([]string, 256)
			for i := range ids {
				ids[i] = w.Contract(b).ID
			}
			var n atomic.Uint64
			b.SetParallelism(8)
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if _, err := w.Service.Contract(app, ids[n.Add(1)%uint64(len(ids))]); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}

// newBenchWorld is a Standard world with an app that has a webhook, so that
// a created contract writes an outbox row.
func newBenchWorld(b testing.TB, store signflow.Store) (*fixture.Standard, *signflow.Access) {
	w := fixture.NewStandardOn(b, store)
	cred := fixture.MustCredential(b, w.Service.CreateApp, &signflow.CredentialInput{Name: "Bench", OwnerIN: fixture.OwnerIN,
		Scopes: signflow.AppScopes, AllTemplates: true, WebhookURL: "https://shop.example/hook"})
	return w, w.Access(b, cred)
}

// BenchmarkListContracts measures list and search over 120,000 contracts
// on PostgreSQL (storagetest.BenchListContracts). Building the data takes
// minutes: run it alone, e.g.
//
//	go test ./storage/postgres -run '^$' -bench ListContracts -benchtime 200x
func BenchmarkListContracts(b *testing.B) { storagetest.BenchListContracts(b, pgtest.Open(b)) }
