package postgres_test

import (
	"context"
	"testing"

	"contracts/internal/fixture"
	"contracts/storage/postgres"
	"contracts/storage/postgres/pgtest"
)

// BenchmarkStampStatement is the database's CPU (pg-µs/op) of a memo's
// check, against a bare read of a contract's version by key.
//
//	go test ./storage/postgres -run '^$' -bench StampStatement -benchtime 20000x
func BenchmarkStampStatement(b *testing.B) {
	url := pgtest.NewDatabase(b)
	s := pgtest.OpenURL(b, url)
	w := fixture.NewStandardOn(b, s)
	ids := make([]string, 64)
	for i := range ids {
		ids[i] = w.Contract(b).ID
	}
	pool := postgres.Pool(s)
	for _, bc := range []struct{ name, sql string }{
		{"bare", "SELECT c.ver::text = $2::text, 0::bigint FROM contracts c WHERE c.id = $1"},
		{"holds", postgres.MemoHoldsSQL},
	} {
		b.Run(bc.name, func(b *testing.B) {
			ctx := context.Background()
			var ok bool
			var n int64
			for _, id := range ids {
				if err := pool.QueryRow(ctx, bc.sql, id, "x").Scan(&ok, &n); err != nil {
					b.Fatal(err)
				}
			}
			pg0 := serverCPU(b, backends(b, url))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := pool.QueryRow(ctx, bc.sql, ids[i%len(ids)], "x").Scan(&ok, &n); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			var pg int64
			for pid, t := range serverCPU(b, backends(b, url)) {
				pg += int64(t - pg0[pid])
			}
			b.ReportMetric(float64(pg)/1e3/float64(b.N), "pg-µs/op")
		})
	}
}
