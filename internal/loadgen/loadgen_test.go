package loadgen

import (
	"context"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestPercentile(t *testing.T) {
	var d []time.Duration
	for i := 100; i >= 1; i-- {
		d = append(d, time.Duration(i)*time.Millisecond)
	}
	if p := percentile(d, 0.50); p != 50*time.Millisecond {
		t.Fatalf("p50 %v", p)
	}
	if p := percentile(d, 0.99); p != 99*time.Millisecond {
		t.Fatalf("p99 %v", p)
	}
	if p := percentile(nil, 0.99); p != 0 {
		t.Fatalf("p99 of nothing %v", p)
	}
}

// TestRunPairAlternates: a pair gives each side the whole duration and
// request cap between them, and failures are counted, 5xx apart.
func TestRunPairAlternates(t *testing.T) {
	cfg := Config{Clients: 3, Duration: 90 * time.Millisecond, MaxRequests: 30}
	ok := phase{name: "ok", op: func(context.Context, int) (bool, bool, string) { return true, false, "" }}
	bad := phase{name: "bad", op: func(_ context.Context, n int) (bool, bool, string) { return n%2 == 0, true, "boom" }}
	a, b := runPair(context.Background(), cfg, ok, bad, nil, nil, 3)
	if a.Requests != 30 || a.Errors != 0 || a.Name != "ok" {
		t.Fatalf("ok side: %+v", a)
	}
	if b.Requests+b.Errors != 30 || b.ServerErrors != b.Errors || b.Errors == 0 || b.FirstError != "boom" {
		t.Fatalf("bad side: %+v", b)
	}
}

func TestReportBudgets(t *testing.T) {
	r := &Report{Results: []Result{
		{Name: nameEcho, Requests: 1000, Elapsed: time.Second},
		{Name: nameRead, Requests: 500, Elapsed: time.Second},
		{Name: nameRaw + " (1500 B)", Requests: 100, Elapsed: time.Second},
		{Name: nameCreate, Requests: 80, Elapsed: time.Second},
		{Name: "GET /v1/contracts/{id}/pdf", Requests: 10, Elapsed: time.Second, Errors: 2, ServerErrors: 2, FirstError: "500"},
	}, HWM: 50 << 20}
	ratios := r.Ratios()
	if !ratios[0].Known || ratios[0].Value != 0.5 || ratios[0].OK() || !ratios[1].Known || ratios[1].Value != 0.8 || !ratios[1].OK() {
		t.Fatalf("ratios %+v", ratios)
	}
	p := strings.Join(r.Problems(), "\n")
	if !strings.Contains(p, "vs bare echo: 0.50") || strings.Contains(p, "raw bbolt") || !strings.Contains(p, "2 answers 5xx") {
		t.Fatalf("problems:\n%s", p)
	}
}

func TestReadStatus(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc is Linux's")
	}
	rss, hwm, anon, ok := readStatus(os.Getpid())
	if !ok || rss == 0 || hwm < rss || anon == 0 || anon > rss {
		t.Fatalf("VmRSS %d VmHWM %d RssAnon %d ok %v", rss, hwm, anon, ok)
	}
}
