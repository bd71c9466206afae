package postgres_test

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"
	"contracts/storage/postgres"
	"contracts/storage/postgres/pgtest"
)

// BenchmarkCreate measures a create through the service on PostgreSQL with
// the concurrency of a server, for an app without a webhook (the pgwrite
// row of the ratio bench). Beside ns/op it reports what is stable under a
// loaded machine: round trips and statements per create, and the CPU time
// the database's backends spent per create (pg-µs/op, from /proc, so the
// cluster must run on this machine).
//
//	go test ./storage/postgres -run '^$' -bench 'Create$' -benchmem -count 6
func BenchmarkCreate(b *testing.B) { benchCreate(b, 8) }

// BenchmarkCreate50 is BenchmarkCreate with 50 writers, as many as the
// ratio bench's connections (wrk -c50), so that shared transactions are
// as large as under the driver.
func BenchmarkCreate50(b *testing.B) { benchCreate(b, 25) }

// benchCreate runs BenchmarkCreate with parallelism writers per CPU.
func benchCreate(b *testing.B, parallelism int) {
	c := &counter{}
	url := pgtest.NewDatabase(b)
	s, err := postgres.Open(context.Background(), url, postgres.WithTracer(pgtest.Options(), c))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	w := fixture.NewStandardOn(b, s)
	cred := fixture.MustCredential(b, w.Service.CreateApp, &signflow.CredentialInput{Name: "Bench", OwnerIN: fixture.OwnerIN,
		Scopes: signflow.AppScopes, AllTemplates: true})
	app := w.Access(b, cred)
	create := func() error {
		_, err := w.Service.CreateContract(app, &signflow.ContractInput{TemplateID: w.Template.ID, BuyerIN: fixture.CustomerIN,
			Price: 150000, Currency: "UZS"}, signflow.Actor{})
		return err
	}
	// Warm every connection of the pool and the caches.
	b.SetParallelism(parallelism)
	done := make(chan error, 64)
	for range cap(done) {
		go func() { done <- create() }()
	}
	for range cap(done) {
		if err := <-done; err != nil {
			b.Fatal(err)
		}
	}
	cpu0 := backendCPU(b, s)
	c.mu.Lock()
	c.trips, c.statements, c.sql = 0, 0, nil
	c.mu.Unlock()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := create(); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.StopTimer()
	cpu := backendCPU(b, s) - cpu0
	c.mu.Lock()
	defer c.mu.Unlock()
	b.ReportMetric(float64(c.trips)/float64(b.N), "trips/op")
	b.ReportMetric(float64(c.statements)/float64(b.N), "stmts/op")
	if cpu >= 0 {
		b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "pg-µs/op")
	}
}

// backendCPU sums the CPU time of the database's backend processes, or
// returns -1 when /proc does not show them.
func backendCPU(b *testing.B, s *postgres.Store) time.Duration {
	rows, err := postgres.Pool(s).Query(context.Background(),
		"SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")
	if err != nil {
		b.Fatal(err)
	}
	defer rows.Close()
	var sum time.Duration
	for rows.Next() {
		var pid int32
		if err := rows.Scan(&pid); err != nil {
			b.Fatal(err)
		}
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(int(pid)) + "/stat")
		if err != nil {
			return -1
		}
		// Fields after the command's closing parenthesis: utime and
		// stime are the 12th and 13th, in clock ticks of 10 ms.
		f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		for _, s := range f[11:13] {
			n, _ := strconv.ParseInt(s, 10, 64)
			sum += time.Duration(n) * 10 * time.Millisecond
		}
	}
	return sum
}
