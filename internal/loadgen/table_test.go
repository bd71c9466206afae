package loadgen

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"contracts/internal/testtools"
	"contracts/storage/postgres/pgtest"

	"github.com/jackc/pgx/v5"
)

// The mixed script of wrk reads random ids of the pool only and posts the
// body on every tenth request of a thread, as ratio.sh mixed does.
func TestMixLuaDrivesReadsAndCreates(t *testing.T) {
	bin := testtools.Need(t, "wrk")[0]
	pool := []string{"0190a0b1-aaaa-7000-8000-000000000001", "0190a0b1-aaaa-7000-8000-000000000002", "0190a0b1-aaaa-7000-8000-000000000003"}
	var mu sync.Mutex
	gets, posts, bad := map[string]int{}, 0, 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		defer mu.Unlock()
		switch {
		case r.Header.Get("Authorization") != "Bearer x":
			bad++
		case r.Method == "POST" && r.URL.Path == "/v1/contracts" && string(body) == `{"a":"]]"}`:
			posts++
		case r.Method == "GET" && strings.HasPrefix(r.URL.Path, "/v1/contracts/"):
			gets[strings.TrimPrefix(r.URL.Path, "/v1/contracts/")]++
		default:
			bad++
		}
	}))
	defer srv.Close()
	res, err := wrkSlice(context.Background(), bin, 2, time.Second, &wrkRequest{url: srv.URL, header: "Authorization: Bearer x",
		lua: mixLua(pool, "/v1/contracts/", 0, "/v1/contracts", []byte(`{"a":"]]"}`))})
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	total := posts
	for id, n := range gets {
		if !strings.Contains(strings.Join(pool, " "), id) {
			t.Fatalf("read %q, not in the pool", id)
		}
		total += n
	}
	if bad != 0 || res.Errors != 0 || len(gets) != len(pool) || total < 100 {
		t.Fatalf("%d bad requests, %d errors, ids read %v, %d requests", bad, res.Errors, gets, total)
	}
	// each of wrk's two threads posts its own tenth: within a request per
	// thread and connection of a tenth of the whole
	if posts < total/10-4 || posts > total/10+4 {
		t.Fatalf("%d posts of %d requests, want a tenth", posts, total)
	}
}

// The baseline process serves the kit's routes: stored values by number,
// puts, a receiver answering 204, and on PostgreSQL the same reads and
// writes on a table of its own.
func TestServeEchoBaselines(t *testing.T) {
	db := pgtest.NewDatabase(t)
	addr, stop := serveEcho(t, db)
	defer stop()
	base := "http://" + addr
	for _, c := range []struct {
		method, path string
		status, min  int
	}{
		{"GET", "/ping", 200, 10},
		{"GET", "/get/7", 200, BaselineValueSize - 10},
		{"GET", "/get/123456", 200, BaselineValueSize - 10}, // modulo the values stored
		{"POST", "/put", 200, 5},
		{"POST", "/hook", 204, 0},
		{"GET", "/pg/get/7", 200, BaselineValueSize - 10},
		{"POST", "/pg/put", 200, 5},
	} {
		req, _ := http.NewRequest(c.method, base+c.path, strings.NewReader(`{"event":"x"}`))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.status || len(body) < c.min || (c.min > 100 && !json.Valid(body)) {
			t.Fatalf("%s %s: %d, %d bytes", c.method, c.path, resp.StatusCode, len(body))
		}
	}
	var hooks struct{ Received int }
	resp, err := http.Get(base + "/hook")
	if err != nil {
		t.Fatal(err)
	}
	err = json.NewDecoder(resp.Body).Decode(&hooks)
	resp.Body.Close()
	if err != nil || hooks.Received != 1 {
		t.Fatalf("GET /hook: %+v %v, want the one delivery posted", hooks, err)
	}
	conn, err := pgx.Connect(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var n int
	if err := conn.QueryRow(context.Background(), `SELECT count(*) FROM baseline_values`).Scan(&n); err != nil || n != BaselineFill+1 {
		t.Fatalf("baseline_values holds %d rows (%v), want the %d filled and the one put", n, err, BaselineFill)
	}
}

// serveEcho runs ServeEcho as "contracts bench --echo-server" does and
// returns its address and what stops it.
func serveEcho(t *testing.T, pgURL string) (string, func()) {
	t.Helper()
	stdinR, stdinW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- ServeEcho(stdinR, outW, t.TempDir(), time.Millisecond, pgURL) }()
	lines := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(outR).ReadString('\n')
		lines <- line
	}()
	select {
	case line := <-lines:
		addr, ok := strings.CutPrefix(strings.TrimSpace(line), "listening ")
		if !ok {
			t.Fatalf("ServeEcho said %q", line)
		}
		return addr, func() {
			stdinW.Close()
			if err := <-done; err != nil {
				t.Error(err)
			}
		}
	case err := <-done:
		t.Fatalf("ServeEcho: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("ServeEcho did not listen within 30s")
	}
	return "", nil
}

// benchDatabase makes an empty database the URL names and drops it.
func TestBenchDatabase(t *testing.T) {
	cluster := pgtest.ClusterURL(t)
	ctx := context.Background()
	url, drop, err := benchDatabase(ctx, cluster)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		drop()
		t.Fatal(err)
	}
	var name string
	err = conn.QueryRow(ctx, `SELECT current_database()`).Scan(&name)
	conn.Close(ctx)
	drop()
	if err != nil || !strings.HasPrefix(name, "contracts_bench_") || strings.Contains(cluster, name) {
		t.Fatalf("connected to %q (%v)", name, err)
	}
	admin, err := pgx.Connect(ctx, cluster)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	var left int
	if err := admin.QueryRow(ctx, `SELECT count(*) FROM pg_database WHERE datname = $1`, name).Scan(&left); err != nil || left != 0 {
		t.Fatalf("database %s still there (%d, %v)", name, left, err)
	}
}

// A row below its ratio or over the p99 budget, or with failed requests, is
// a problem; a skipped row is printed as such and is none.
func TestTableReportBudgets(t *testing.T) {
	rows, err := tableRows([]string{"reads", "create", "pgcreate"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tableRows([]string{"nope"}); err == nil || !strings.Contains(err.Error(), "pgreads") {
		t.Fatalf("an unknown row: %v", err)
	}
	rows[0].App = Result{Name: "a", Requests: 800, Elapsed: time.Second, P99: 10 * time.Millisecond}
	rows[0].Base = Result{Name: "b", Requests: 1000, Elapsed: time.Second}
	rows[1].App = Result{Name: "c", Requests: 700, Elapsed: time.Second, P99: 60 * time.Millisecond, Errors: 3, FirstError: "500"}
	rows[1].Base = Result{Name: "d", Requests: 1000, Elapsed: time.Second}
	rows[2].Skipped = "no PostgreSQL URL (--postgres)"
	r := &TableReport{Contracts: 4000, Rows: rows}
	p := strings.Join(r.Problems(), "\n")
	if strings.Contains(p, "random reads") || !strings.Contains(p, "plain creates: ratio 0.70, budget ≥ 0.75") ||
		!strings.Contains(p, "plain creates: p99 60ms") || !strings.Contains(p, "c: 3 failed requests") || strings.Contains(p, "PostgreSQL") {
		t.Fatalf("problems:\n%s", p)
	}
	var out strings.Builder
	r.Print(&out)
	if !regexp.MustCompile(`PostgreSQL, one node: creates +not measured: no PostgreSQL URL`).MatchString(out.String()) ||
		!regexp.MustCompile(`random reads among 4000 contracts +800 +1000 +0\.80 +≥ 0\.75`).MatchString(out.String()) {
		t.Fatalf("report:\n%s", out.String())
	}
}
