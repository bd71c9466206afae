// Package loadgen is the load generator behind "contracts bench": it starts
// the real binary on loopback ports in a temporary data directory, drives
// its routes over HTTP with a fixed number of concurrent clients, and
// measures, in the same run, the two baselines of the read and write
// budgets (docs/operations.md) — a bare echo JSON handler in its own
// process and raw bbolt Batch puts — so that the budgets are ratios of
// figures taken on the same machine at the same time.
// Every loop is bounded both in requests and in time.
package loadgen

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"time"

	"contracts/internal/config"
)

// Config is one bench run.
type Config struct {
	Binary      string        // the contracts binary to serve with
	Clients     int           // concurrent clients (connections)
	Duration    time.Duration // measured time per route
	Warmup      time.Duration // unmeasured time per route before it
	MaxRequests int           // cap on the requests of each route (and of its warm-up)
	Routes      []string      // subset of Routes (and "raw"); empty = all
	LogLevel    string        // the server's log.level; info logs a line per request, as in production
	BatchDelay  time.Duration // data.batchDelay of the server and of the raw bbolt baseline
	Keep        bool          // keep the temporary data directory
	Rounds      int           // a route and its baseline alternate in this many slices each
	// Wrk is the path of wrk; when set, the budgeted routes and their
	// baselines are driven by wrk -t2 as ratio.sh does (twice each, the
	// whole Duration each time) instead of by this process's client.
	Wrk string
	// Postgres is the URL of a PostgreSQL server on which Table measures
	// the appliance (in a database of its own there) against the raw
	// INSERTs and SELECTs of the baseline (on a table in the URL's database).
	Postgres string
}

// Defaults fills the zero fields.
func (c *Config) Defaults() {
	if c.Clients <= 0 {
		c.Clients = 50
	}
	if c.Duration <= 0 {
		c.Duration = 5 * time.Second
	}
	if c.Warmup < 0 {
		c.Warmup = 0
	}
	if c.MaxRequests <= 0 {
		c.MaxRequests = 500_000
	}
	if c.LogLevel == "" {
		c.LogLevel = "info"
	}
	if c.Rounds <= 0 {
		c.Rounds = 3
	}
	if c.BatchDelay <= 0 {
		c.BatchDelay = config.Default().Data.BatchDelay
	}
	if len(c.Routes) == 0 {
		c.Routes = append(append([]string(nil), Routes...), "raw")
	}
}

// Report is what a run measured.
type Report struct {
	Config     Config
	Results    []Result
	HWM        uint64 // VmHWM of the server process at the end, bytes
	LastRSS    uint64 // VmRSS of the server process at the end of the load, bytes
	AnonPeak   uint64 // highest RssAnon of the server: its memory less the file pages of the bbolt mmap
	FileSize   int64  // size of the database file at the end
	EchoHWM    uint64
	Acked      int      // contracts the server answered 200 to
	Stored     int      // contracts in the file after a clean stop
	Missing    []string // acknowledged contracts not in the file
	RecordSize int      // mean stored contract record, bytes
	DataDir    string
	LoadBefore string // /proc/loadavg when the run started: other work on the machine skews figures
}

// loadavg is the first three fields of /proc/loadavg, or "" elsewhere.
func loadavg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(data)); err == nil && len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return ""
}

// result finds a route's result by its name, or by the name's prefix for
// the raw baseline, whose name carries the record size.
func (r *Report) result(name string) (Result, bool) {
	for _, x := range r.Results {
		if x.Name == name || (name == nameRaw && strings.HasPrefix(x.Name, nameRaw)) {
			return x, true
		}
	}
	return Result{}, false
}

// Run performs the bench and writes progress lines to progress.
func Run(ctx context.Context, cfg Config, progress io.Writer) (*Report, error) {
	cfg.Defaults()
	if err := validRoutes(cfg.Routes); err != nil {
		return nil, err
	}
	want := map[string]bool{}
	for _, r := range cfg.Routes {
		want[r] = true
	}
	dir, err := os.MkdirTemp("", "contracts-bench-")
	if err != nil {
		return nil, err
	}
	if !cfg.Keep {
		defer os.RemoveAll(dir)
	}
	rep := &Report{Config: cfg, DataDir: dir, LoadBefore: loadavg()}
	tokenBytes := make([]byte, 24)
	_, _ = rand.Read(tokenBytes)
	adminToken := hex.EncodeToString(tokenBytes)
	dataDir := filepath.Join(dir, "data")
	dbPath := filepath.Join(dataDir, "contracts.db")

	fmt.Fprintf(progress, "bench: starting %s serve in %s (GOMAXPROCS %d, %d CPUs)\n", cfg.Binary, dir, runtime.GOMAXPROCS(0), runtime.NumCPU())
	srv, err := startServer(ctx, cfg, dataDir, adminToken)
	if err != nil {
		return nil, err
	}
	defer func() { srv.kill() }()
	client := newClient(cfg.Clients)
	w, err := provision(srv, adminToken, client)
	if err != nil {
		return nil, fmt.Errorf("provision: %w", err)
	}
	created := &ids{}
	// Reads, sessions and PDFs need contracts: a few are made up front, the
	// create phase adds its own, and reads spread over the first 1000.
	for i := 0; i < 20; i++ {
		var c struct{ ID string }
		if err := w.call("POST", w.embedded+"/v1/contracts", w.token, "application/json", ContractBody(w.templateID), &c); err != nil {
			return nil, fmt.Errorf("seed contract: %w", err)
		}
		created.add(mustJSON(c))
	}
	// The report states the stored contract's size (the raw baseline puts
	// BaselineValueSize): stop the server to read it from the file, then
	// serve the same file again.
	if err := srv.stop(); err != nil {
		return nil, err
	}
	if rep.RecordSize, _, _, err = storedContracts(dbPath, nil); err != nil {
		return nil, err
	}
	if srv, err = startServer(ctx, cfg, dataDir, adminToken); err != nil {
		return nil, err
	}
	w.rebind(srv)
	base, baseIn, err := startEcho(ctx, cfg)
	if err != nil {
		return nil, err
	}
	defer stopEcho(base, baseIn)
	raw := putPhase(newClient(cfg.Clients), base.addr("echo"))

	// The pool is fixed before each phase: copying the growing list per
	// request would make the load generator, not the server, the bottleneck.
	var frozen atomic.Pointer[[]string]
	phases := w.phases(client, created, func() []string { return *frozen.Load() })
	report := func(res Result) {
		fmt.Fprintf(progress, "bench: %-44s %8.0f req/s  p50 %-9v p99 %-9v errors %d\n", res.Name, res.Rate(),
			round(res.P50), round(res.P99), res.Errors)
		rep.Results = append(rep.Results, res)
	}
	for _, name := range Routes {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		pool := created.snapshot()
		pool = pool[:min(len(pool), 1000)]
		frozen.Store(&pool)
		switch {
		case name == "create" && want["create"] && want["raw"]:
			a, b := runPair(ctx, cfg, phases["create"], raw, &srv.rss, &base.rss, cfg.Rounds)
			report(a)
			report(b)
		case name == "read" && want["read"] && want["echo"]:
			echo, stdin, err := startEcho(ctx, cfg)
			if err != nil {
				return nil, err
			}
			read := phases["read"] // wrk reads one contract, as ratio.sh does
			read.wrk = &wrkRequest{method: "GET", url: w.embedded + "/v1/contracts/" + pool[0], header: "Authorization: Bearer " + w.token}
			a, b := runPair(ctx, cfg, read, echoPhase(newClient(cfg.Clients), echo.addr("echo")), &srv.rss, &echo.rss, cfg.Rounds)
			stopEcho(echo, stdin)
			rep.EchoHWM = echo.rss.hwm.Load()
			report(b)
			report(a)
		case name == "echo" && want["echo"] && !want["read"]:
			echo, stdin, err := startEcho(ctx, cfg)
			if err != nil {
				return nil, err
			}
			res := run(ctx, cfg, echoPhase(newClient(cfg.Clients), echo.addr("echo")), &echo.rss)
			stopEcho(echo, stdin)
			rep.EchoHWM = echo.rss.hwm.Load()
			report(res)
		case name == "echo":
		case name == "raw":
			if !want["create"] && want["raw"] {
				report(run(ctx, cfg, raw, &base.rss))
			}
		case want[name]:
			report(run(ctx, cfg, phases[name], &srv.rss))
		}
	}
	srv.rss.sample()
	rep.LastRSS, rep.HWM = srv.rss.last.Load(), srv.rss.hwm.Load()
	for _, r := range rep.Results {
		if !strings.HasPrefix(r.Name, "baseline") {
			rep.AnonPeak = max(rep.AnonPeak, r.PeakAnon)
		}
	}
	if err := srv.stop(); err != nil {
		return nil, err
	}
	acked := created.snapshot()
	rep.Acked = len(acked)
	_, rep.Missing, rep.Stored, err = storedContracts(dbPath, acked)
	if st, serr := os.Stat(dbPath); serr == nil {
		rep.FileSize = st.Size()
	}
	return rep, err
}

// stopEcho closes the echo baseline's stdin, which ends it.
func stopEcho(c *child, stdin io.Closer) {
	stdin.Close()
	select {
	case <-c.done:
		c.rss.stop()
	case <-time.After(5 * time.Second):
		c.kill()
	}
}

func round(d time.Duration) time.Duration {
	switch {
	case d >= time.Second:
		return d.Round(10 * time.Millisecond)
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond)
	}
	return d.Round(time.Microsecond)
}
