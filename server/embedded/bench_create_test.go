package embedded

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"syscall"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/internal/loadgen"
	"contracts/signflow"
	"contracts/webhooks"

	bolt "go.etcd.io/bbolt"
)

// BenchmarkCreateContractWebhook is POST /v1/contracts of a typical
// contract while a key of the owner has a webhook target (a local receiver
// answering 204), in two parts:
//   - queued: no pool runs, so each create's outbox row stays PENDING: what
//     the rows cost the create alone (pages/op is exact, steady under load);
//   - sent: the delivery pool runs, and each row is sent and written back.
//     The timer stops once every row is DELIVERED, so the sends are counted.
//
// cpu-ns/op is the process's CPU time per create, steadier than ns/op on a
// busy machine.
//
//	go test -run '^$' -bench CreateContractWebhook -benchmem ./server/embedded/
func BenchmarkCreateContractWebhook(b *testing.B) {
	b.Run("queued", func(b *testing.B) {
		e := newEnv(b, 0)
		hookedKey(b, e, "http://192.0.2.1/hook") // never sent to: no pool runs
		benchCreates(b, e, nil)
	})
	b.Run("sent", func(b *testing.B) {
		e := newEnv(b, 0)
		rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			w.WriteHeader(http.StatusNoContent)
		}))
		b.Cleanup(rcv.Close)
		hookedKey(b, e, rcv.URL+"/hook")
		pool, err := webhooks.New(e.DB, e.Box, nil, fixture.Webhooks(webhooks.Options{}))
		if err != nil {
			b.Fatal(err)
		}
		e.DB.OnDeliveryAdded(pool.Wake)
		pool.Start()
		b.Cleanup(func() { pool.Shutdown(context.Background()) })
		benchCreates(b, e, func() {
			for pending(b, e) {
				time.Sleep(time.Millisecond) // real I/O: the pool works on the wall clock
			}
		})
	})
}

// hookedKey gives the owner a key whose webhook target is url.
func hookedKey(b *testing.B, e *env, url string) {
	fixture.MustCredential(b, e.Service.CreateKey, &signflow.CredentialInput{Name: "Hooked", OwnerIN: fixture.OwnerIN,
		Scopes: []string{signflow.ScopeContractsRead}, AllTemplates: true, WebhookURL: url})
}

// benchCreates creates b.N typical contracts from 8 goroutines a core,
// enough writers to fill the batches, and waits for wait (nil: nothing)
// before the timer stops. It reports, per create, the bbolt pages written,
// the process's CPU time and the write and read transactions.
func benchCreates(b *testing.B, e *env, wait func()) {
	tok := e.token(e.AppA)
	body := loadgen.ContractBody(e.Template.ID)
	before, cpu, txs := e.DB.Bolt().Stats(), cpuTime(), writeTxID(b, e)
	b.ReportAllocs()
	b.SetParallelism(8)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			serve(b, e, createRequest(tok, body))
		}
	})
	if wait != nil {
		wait()
	}
	b.StopTimer()
	stats := e.DB.Bolt().Stats()
	diff := stats.Sub(&before)
	b.ReportMetric(float64(diff.TxStats.GetWrite())/float64(b.N), "pages/op")
	b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(writeTxID(b, e)-txs)/float64(b.N), "writes/op")
	b.ReportMetric(float64(diff.TxN)/float64(b.N), "views/op")
}

// writeTxID is the id of the last committed write transaction: the
// difference of two is the count of write transactions between.
func writeTxID(b *testing.B, e *env) int {
	var id int
	fixture.Must(b, func() error { return e.DB.Bolt().View(func(tx *bolt.Tx) error { id = tx.ID(); return nil }) })
	return id
}

// pending says whether PENDING rows are left, from the count a claim
// reports: a claim that may give out nothing reads no row.
func pending(b *testing.B, e *env) bool {
	batch, err := e.DB.ClaimDeliveries(signflow.DeliveryClaim{Claimer: "bench", Now: time.Now()})
	if err != nil {
		b.Fatal(err)
	}
	return batch.Pending > 0
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var u syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &u)
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
