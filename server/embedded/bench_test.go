package embedded

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"contracts/internal/loadgen"
)

// Benchmarks of the embedded interface's handlers, served in process (the
// whole echo stack: middleware, access log, token check, handler): their
// time and allocations per request, and the bbolt pages a create writes.
//
//	go test -run '^$' -bench . -benchmem ./server/embedded/
//
// The read and write budgets, against their baselines, are measured once,
// by "contracts bench" (internal/loadgen) against the real binary; see
// docs/operations.md.

// BenchmarkGetContract is an authenticated GET /v1/contracts/{id}, over
// 100 typical contracts in turn.
func BenchmarkGetContract(b *testing.B) {
	e := newEnv(b, 0)
	tok := e.token(e.AppA)
	body := string(loadgen.ContractBody(e.Template.ID))
	paths := make([]string, 100)
	for i := range paths {
		r := e.do("POST", "/v1/contracts", tok, body)
		if r.Status != http.StatusOK {
			b.Fatalf("create: %d %s", r.Status, r)
		}
		paths[i] = "/v1/contracts/" + r.JSON(b)["id"].(string)
	}
	var next atomic.Int64
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req := httptest.NewRequest(http.MethodGet, paths[next.Add(1)%int64(len(paths))], nil)
			req.Header.Set("Authorization", "Bearer "+tok)
			serve(b, e, req)
		}
	})
}

// BenchmarkCreateContract is POST /v1/contracts of a typical contract. Its
// time per request is mostly the wait for a bbolt batch (data.batchDelay);
// its allocations and pages/op are what it measures.
func BenchmarkCreateContract(b *testing.B) { benchCreates(b, newEnv(b, 0), nil) }

// serve runs one request through the interface and fails b unless it is
// answered 200.
func serve(b *testing.B, e *env, req *http.Request) {
	rec := httptest.NewRecorder()
	e.echo.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		b.Errorf("%s %s: %d %s", req.Method, req.URL.Path, rec.Code, rec.Body)
	}
}

// createRequest is a POST /v1/contracts of body by the bearer of tok.
func createRequest(tok string, body []byte) *http.Request {
	req := httptest.NewRequest(http.MethodPost, "/v1/contracts", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Content-Type", "application/json")
	return req
}
