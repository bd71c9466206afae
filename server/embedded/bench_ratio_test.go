package embedded

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The budget ratios measured with the baseline and the route interleaved:
// each iteration runs every contender for roundTime in turn (the order
// rotating), so that a machine whose load changes during the run weighs
// on all of them alike. Only the reported metrics mean anything; ns/op is
// the time of one round of all contenders.
//
//	go test -run '^$' -bench Budget -benchtime 20x ./server/embedded/

const roundTime = 250 * time.Millisecond

// contender is one workload of an interleaved benchmark.
type contender struct {
	name string
	op   func() error
	ops  int64
	took time.Duration
}

// interleave runs the contenders round after round and reports each one's
// req/s and every rate relative to the first.
func interleave(b *testing.B, cs ...*contender) {
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j := range cs {
			c := cs[(i+j)%len(cs)]
			n, took := runFor(*clients, roundTime, c.op, b)
			c.ops += n
			c.took += took
		}
	}
	b.StopTimer()
	base := float64(cs[0].ops) / cs[0].took.Seconds()
	for _, c := range cs {
		r := float64(c.ops) / c.took.Seconds()
		b.ReportMetric(r, c.name+"_req/s")
		if c != cs[0] {
			b.ReportMetric(r/base, c.name+"_ratio")
		}
	}
}

// runFor calls op from n goroutines for d and counts the calls.
func runFor(n int, d time.Duration, op func() error, b *testing.B) (int64, time.Duration) {
	var count atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	deadline := start.Add(d)
	for g := 0; g < n; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(deadline) {
				if err := op(); err != nil {
					b.Error(err)
					return
				}
				count.Add(1)
			}
		}()
	}
	wg.Wait()
	return count.Load(), time.Since(start)
}

// BenchmarkReadBudget interleaves BenchmarkBareEchoJSON's handler and
// BenchmarkGetContract's route: get_ratio is the read budget (≥ 0.60).
func BenchmarkReadBudget(b *testing.B) {
	bareSrv := httptest.NewServer(bareEchoJSON())
	defer bareSrv.Close()
	e := newEnv(b, 0)
	tok := e.token(e.AppA)
	body := mustJSONMap(b, benchContract(e.Standard))
	urls := make([]string, 100)
	for i := range urls {
		urls[i] = e.srv.URL + "/v1/contracts/" + e.createContract(tok, body)
	}
	client := pooledClient()
	var next atomic.Int64
	interleave(b,
		&contender{name: "bare", op: func() error {
			req, _ := http.NewRequest(http.MethodGet, bareSrv.URL+"/ping", nil)
			return call(client, req)
		}},
		&contender{name: "get", op: func() error {
			req, _ := http.NewRequest(http.MethodGet, urls[next.Add(1)%int64(len(urls))], nil)
			req.Header.Set("Authorization", "Bearer "+tok)
			return call(client, req)
		}})
}

// BenchmarkWriteBudget interleaves BenchmarkRawBoltBatch's put,
// BenchmarkBareEchoBatchPut's HTTP put and BenchmarkCreateContract's route,
// each on its own world with the same MaxBatchDelay: create_ratio is the
// write budget (≥ 0.70), http_put_ratio what HTTP alone leaves.
func BenchmarkWriteBudget(b *testing.B) {
	rawWorld, putWorld, createWorld := writeWorld(b), writeWorld(b), writeWorld(b)
	putSrv := httptest.NewServer(bareEchoPut(rawPut(b, putWorld)))
	defer putSrv.Close()
	tok := createWorld.token(createWorld.AppA)
	client, body := pooledClient(), benchContract(createWorld.Standard)
	interleave(b,
		&contender{name: "raw", op: rawPut(b, rawWorld)},
		&contender{name: "http_put", op: func() error {
			req, _ := http.NewRequest(http.MethodPost, putSrv.URL+"/put", bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			return call(client, req)
		}},
		&contender{name: "create", op: func() error {
			req, _ := http.NewRequest(http.MethodPost, createWorld.srv.URL+"/v1/contracts", bytes.NewReader(body))
			req.Header.Set("Authorization", "Bearer "+tok)
			req.Header.Set("Content-Type", "application/json")
			return call(client, req)
		}})
}
