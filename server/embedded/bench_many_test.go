package embedded

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"contracts/internal/loadgen"
	"contracts/server/wire"
	"contracts/signflow"
)

// manyContracts is how many contracts the benchmarks of random reads
// choose among: more than any cache of answers is sized for by accident.
const manyContracts = 4000

// BenchmarkGetManyContracts is an authenticated GET /v1/contracts/{id} of
// a random contract among manyContracts typical ones (ratio.sh reads).
func BenchmarkGetManyContracts(b *testing.B) {
	e, tok, paths := manyEnv(b)
	cpu := cpuTime()
	b.ReportAllocs()
	b.SetParallelism(25) // 50 clients on two cores, as the ratio bench's wrk -c50
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		n := uint64(len(paths)) * 7919
		for pb.Next() {
			n = n*6364136223846793005 + 1442695040888963407
			req := httptest.NewRequest(http.MethodGet, paths[(n>>33)%uint64(len(paths))], nil)
			req.Header.Set("Authorization", "Bearer "+tok)
			serve(b, e, req)
		}
	})
	b.StopTimer()
	b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
}

// BenchmarkMixedReadsCreates is 9 random reads (as above) to 1 create of a
// typical contract (ratio.sh mixed).
func BenchmarkMixedReadsCreates(b *testing.B) {
	e, tok, paths := manyEnv(b)
	body := string(loadgen.ContractBody(e.Template.ID))
	var next atomic.Uint64
	before, cpu, txs := e.DB.Bolt().Stats().TxN, cpuTime(), writeTxID(b, e)
	b.ReportAllocs()
	b.SetParallelism(25) // 50 clients on two cores, as the ratio bench's wrk -c50
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		n := next.Add(1) * 7919
		for i := 1; pb.Next(); i++ {
			var req *http.Request
			if i%10 == 0 {
				req = httptest.NewRequest(http.MethodPost, "/v1/contracts", strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
			} else {
				n = n*6364136223846793005 + 1442695040888963407
				req = httptest.NewRequest(http.MethodGet, paths[(n>>33)%uint64(len(paths))], nil)
			}
			req.Header.Set("Authorization", "Bearer "+tok)
			serve(b, e, req)
		}
	})
	b.StopTimer()
	// read transactions per request: a create opens one, a kept answer none
	b.ReportMetric(float64(e.DB.Bolt().Stats().TxN-before)/float64(b.N), "readtx/op")
	// write transactions per create: how well the creates share commits
	b.ReportMetric(float64(writeTxID(b, e)-txs)/float64(b.N/10), "writes/create")
	b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
}

// manyEnv is an interface over manyContracts typical contracts of app A,
// written through the service by concurrent writers and read once each;
// it returns a token of app A and the contracts' paths. Run with a fixed
// -benchtime (e.g. 20000x): each round of b.N writes them again.
func manyEnv(b *testing.B) (*env, string, []string) {
	e := newEnv(b, 0)
	tok := e.token(e.AppA)
	var req wire.ContractRequest
	if err := json.Unmarshal(loadgen.ContractBody(e.Template.ID), &req); err != nil {
		b.Fatal(err)
	}
	in, err := req.Input(wire.Major)
	if err != nil {
		b.Fatal(err)
	}
	a := e.Access(b, e.AppA)
	paths := make([]string, manyContracts)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := next.Add(1) - 1; i < manyContracts; i = next.Add(1) - 1 {
				c := *in
				out, err := e.Service.CreateContract(a, &c, signflow.Actor{IP: "127.0.0.1"})
				if err != nil {
					b.Error(err)
					return
				}
				paths[i] = "/v1/contracts/" + out.ID
			}
		}()
	}
	wg.Wait()
	if b.Failed() {
		b.FailNow()
	}
	for _, p := range paths { // each read once, as a load driver's first seconds do
		req := httptest.NewRequest(http.MethodGet, p, nil)
		req.Header.Set("Authorization", "Bearer "+tok)
		serve(b, e, req)
	}
	return e, tok, paths
}
