package embedded

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync"
	"testing"

	"contracts/internal/fixture"
	"contracts/server/wire"
	"contracts/signflow"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"
	bolt "go.etcd.io/bbolt"
)

// Budgets of DESIGN §11, each against a baseline of the same run:
//
//	go test -run '^$' -bench . -benchtime 3s ./server/embedded/ [-batchdelay 2ms]
//
// Benchmarks run in the order declared, so each baseline runs just before
// the benchmarks measured against it and leaves its rate behind:
//
//   - BenchmarkGetContract: req/s and ratio_vs_bare against
//     BenchmarkBareEchoJSON (budget ≥ 0.60), both over the same HTTP path.
//   - BenchmarkCreateContract: req/s and ratio_vs_raw against
//     BenchmarkRawBoltBatch (budget ≥ 0.70), and ratio_vs_http_put against
//     BenchmarkBareEchoBatchPut, the same raw put behind a bare echo POST:
//     what the HTTP path alone leaves of the raw rate.
//
// All benchmarks run -clients concurrent clients (default 50, as wrk -c50
// in DESIGN §11); the write benchmarks share one MaxBatchDelay (storage's
// default, or -batchdelay). cpu_us/op is the process's CPU time per
// operation, steadier than req/s on a busy machine.
var (
	clients    = flag.Int("clients", 50, "concurrent clients of the benchmarks")
	batchDelay = flag.Duration("batchdelay", 0, "bbolt MaxBatchDelay of the write benchmarks (0: storage's default)")
)

// pooledClient keeps enough idle connections for every goroutine.
func pooledClient() *http.Client {
	return &http.Client{Transport: &http.Transport{MaxIdleConns: 512, MaxIdleConnsPerHost: 512}}
}

// measure runs op from -clients goroutines and reports req/s and cpu_us/op.
func measure(b *testing.B, op func() error) {
	b.SetParallelism((*clients + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0))
	cpu0 := processCPU()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := op(); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.StopTimer()
	if cpu := processCPU() - cpu0; cpu > 0 {
		b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu_us/op")
	}
	b.ReportMetric(rate(b), "req/s")
}

// call sends a request and checks that the answer is 200.
func call(client *http.Client, req *http.Request) error {
	res, err := client.Do(req)
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("status %d", res.StatusCode)
	}
	return nil
}

func rate(b *testing.B) float64 { return float64(b.N) / b.Elapsed().Seconds() }

// baselines holds the last rate of each baseline benchmark of this run.
var baselines sync.Map

// reportBaseline records a baseline's rate for the benchmarks after it.
func reportBaseline(b *testing.B, name string) { baselines.Store(name, rate(b)) }

// reportRatio adds the run's ratio to a baseline that ran in this process.
func reportRatio(b *testing.B, baseline, metric string) {
	if base, ok := baselines.Load(baseline); ok {
		b.ReportMetric(rate(b)/base.(float64), metric)
	} else if b.N > 1 {
		b.Logf("no %s: run %s in the same go test -bench", metric, baseline)
	}
}

// BenchmarkBareEchoJSON is the read baseline: a bare echo handler writing
// a small JSON object, over the same HTTP path as BenchmarkGetContract.
func BenchmarkBareEchoJSON(b *testing.B) {
	srv := httptest.NewServer(bareEchoJSON())
	defer srv.Close()
	client := pooledClient()
	measure(b, func() error {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"/ping", nil)
		return call(client, req)
	})
	reportBaseline(b, "BenchmarkBareEchoJSON")
}

// bareEchoJSON is a bare echo serving GET /ping with a small JSON object.
func bareEchoJSON() *echo.Echo {
	e := echo.New()
	e.GET("/ping", func(c echo.Context) error {
		return c.JSON(http.StatusOK, map[string]string{"id": "8a0c6e3e-3f0d-4a53-9f43-5d2b1f6a0c11", "status": "ok"})
	})
	return e
}

// BenchmarkGetContract is an authenticated GET /v1/contracts/{id} through
// the full embedded stack (common middleware and access log, token check,
// read, encode), over 100 typical contracts in turn.
func BenchmarkGetContract(b *testing.B) {
	e := newEnv(b, 0)
	tok := e.token(e.AppA)
	body := mustJSONMap(b, benchContract(e.Standard))
	urls := make([]string, 100)
	for i := range urls {
		urls[i] = e.srv.URL + "/v1/contracts/" + e.createContract(tok, body)
	}
	client := pooledClient()
	var next sync.Mutex
	i := 0
	measure(b, func() error {
		next.Lock()
		url := urls[i%len(urls)]
		i++
		next.Unlock()
		req, _ := http.NewRequest(http.MethodGet, url, nil)
		req.Header.Set("Authorization", "Bearer "+tok)
		return call(client, req)
	})
	reportRatio(b, "BenchmarkBareEchoJSON", "ratio_vs_bare")
}

// writeWorld is a standard world with the benchmarks' batch delay.
func writeWorld(b *testing.B) *env {
	e := newEnv(b, 0)
	if *batchDelay > 0 {
		e.DB.Bolt().MaxBatchDelay = *batchDelay
	}
	return e
}

// rawPut returns a raw put of a record the size of a stored benchContract,
// keyed as contracts are (a time-ordered UUID), into its own bucket.
func rawPut(b *testing.B, e *env) func() error {
	size := storedContractSize(b, e.Standard)
	db, bucket := e.DB.Bolt(), []byte("bench_raw")
	if err := db.Update(func(tx *bolt.Tx) error { _, err := tx.CreateBucketIfNotExists(bucket); return err }); err != nil {
		b.Fatal(err)
	}
	record := bytes.Repeat([]byte("x"), size)
	b.Logf("raw record: %d bytes, MaxBatchDelay %s", size, db.MaxBatchDelay)
	return func() error {
		key := []byte(uuid.Must(uuid.NewV7()).String())
		return db.Batch(func(tx *bolt.Tx) error { return tx.Bucket(bucket).Put(key, record) })
	}
}

// BenchmarkRawBoltBatch is the write baseline: one db.Bolt().Batch per
// record, putting a record of a stored contract's size keyed as contracts
// are, with the same MaxBatchDelay and parallelism as BenchmarkCreateContract.
func BenchmarkRawBoltBatch(b *testing.B) {
	e := writeWorld(b)
	measure(b, rawPut(b, e))
	reportBaseline(b, "BenchmarkRawBoltBatch")
}

// BenchmarkBareEchoBatchPut is the raw put of BenchmarkRawBoltBatch behind
// a bare echo POST, over the HTTP path of BenchmarkCreateContract: the
// ceiling that HTTP alone leaves.
func BenchmarkBareEchoBatchPut(b *testing.B) {
	e := writeWorld(b)
	srv := httptest.NewServer(bareEchoPut(rawPut(b, e)))
	defer srv.Close()
	client, body := pooledClient(), benchContract(e.Standard)
	measure(b, func() error {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/put", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		return call(client, req)
	})
	reportRatio(b, "BenchmarkRawBoltBatch", "ratio_vs_raw")
	reportBaseline(b, "BenchmarkBareEchoBatchPut")
}

// bareEchoPut is a bare echo serving POST /put: read the body, put.
func bareEchoPut(put func() error) *echo.Echo {
	e := echo.New()
	e.POST("/put", func(c echo.Context) error {
		if _, err := io.ReadAll(c.Request().Body); err != nil {
			return err
		}
		if err := put(); err != nil {
			return err
		}
		return c.JSON(http.StatusOK, map[string]string{"id": "8a0c6e3e-3f0d-4a53-9f43-5d2b1f6a0c11"})
	})
	return e
}

// BenchmarkCreateContract is POST /v1/contracts of benchContract through
// the full embedded stack.
func BenchmarkCreateContract(b *testing.B) {
	e := writeWorld(b)
	tok := e.token(e.AppA)
	client, body := pooledClient(), benchContract(e.Standard)
	before := e.DB.Bolt().Stats()
	measure(b, func() error {
		req, _ := http.NewRequest(http.MethodPost, e.srv.URL+"/v1/contracts", bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+tok)
		req.Header.Set("Content-Type", "application/json")
		return call(client, req)
	})
	stats := e.DB.Bolt().Stats()
	diff := stats.Sub(&before)
	b.ReportMetric(float64(diff.TxStats.GetWrite())/float64(b.N), "pages/op")
	reportRatio(b, "BenchmarkRawBoltBatch", "ratio_vs_raw")
	reportRatio(b, "BenchmarkBareEchoBatchPut", "ratio_vs_http_put")
}

// benchContract is the body of a typical contract: values, a product and
// a payment schedule.
func benchContract(w *fixture.Standard) []byte {
	body, _ := json.Marshal(map[string]any{"templateId": w.Template.ID, "buyerIn": fixture.CustomerIN, "price": 1500.25,
		"currency": "UZS", "initialPayment": 100, "deliveryAt": "2026-12-01T10:00:00Z",
		"values": []map[string]any{{"keyName": "deliveryAddress", "value": "Toshkent, Chilonzor 7, 12"},
			{"keyName": "warrantyMonths", "value": "12"}},
		"products": []map[string]any{{"name": "Televizor Samsung 55", "quantity": 1, "price": 1500.25, "values": map[string]any{"color": "black"}}},
		"payments": []map[string]any{{"amount": 700, "paymentDate": "2027-01-01T00:00:00Z"}, {"amount": 700.25, "paymentDate": "2027-02-01T00:00:00Z"}}})
	return body
}

// storedContractSize creates benchContract through the service and
// returns the size of its stored record.
func storedContractSize(b *testing.B, w *fixture.Standard) int {
	var in wire.ContractRequest
	if err := json.Unmarshal(benchContract(w), &in); err != nil {
		b.Fatal(err)
	}
	ci, err := in.Input(wire.Major)
	if err != nil {
		b.Fatal(err)
	}
	c, err := w.Service.CreateContract(w.Access(b, w.AppA), ci, signflow.Actor{IP: "127.0.0.1", UserAgent: "Go-http-client/1.1"})
	if err != nil {
		b.Fatal(err)
	}
	var size int
	if err := w.DB.Bolt().View(func(tx *bolt.Tx) error { size = len(tx.Bucket([]byte("contracts")).Get([]byte(c.ID))); return nil }); err != nil || size == 0 {
		b.Fatalf("stored size %d: %v", size, err)
	}
	return size
}

func mustJSONMap(tb testing.TB, data []byte) map[string]any {
	tb.Helper()
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		tb.Fatal(err)
	}
	return m
}
