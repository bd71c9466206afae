package loadgen

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	mrand "math/rand/v2"
	"net/http"
	neturl "net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// Row is one kind of work of the performance table (docs/operations.md):
// the appliance doing it and the baseline it is held to, measured in the
// same run, and the shared kit's command that measures the same ratio.
type Row struct {
	Key, Work, Baseline string
	Budget              float64 // the least ratio; 0 for none
	Kit                 string  // the command that reproduces the row with the shared kit
	App, Base           Result
	Skipped             string // why the row was not measured
	Hooks               int    // webhook deliveries the baseline's /hook received during the row
	Writer              Writer // what the bbolt writer did during the row
}

// Ratio is the appliance's throughput over the baseline's.
func (r Row) Ratio() float64 {
	if r.Base.Rate() <= 0 {
		return 0
	}
	return r.App.Rate() / r.Base.Rate()
}

// Budgets of the rows beyond the hot read's ReadBudget and the creates' WriteBudget.
const (
	ReadsBudget   = 0.75 // random reads among TableContracts / raw bbolt reads of random values
	MixedBudget   = 0.70 // 9 reads : 1 create / the same mix of raw reads and puts
	WebhookBudget = 0.60 // creates with a webhook target / raw bbolt puts
	PGBudget      = 0.50 // PostgreSQL creates and reads / raw INSERTs and SELECTs
	P99Budget     = 50 * time.Millisecond
)

// TableContracts is how many contracts the random reads pick among.
const TableContracts = 4000

// TableRows are the rows in the order they run; the pg ones need Config.Postgres.
var TableRows = []Row{
	{Key: "read", Work: "one hot contract, read again and again", Baseline: "bare echo /ping", Budget: ReadBudget,
		Kit: ".ci/ratio-bench read"},
	{Key: "reads", Work: "random reads among 4,000 contracts", Baseline: "raw bbolt reads of random values /get/N", Budget: ReadsBudget,
		Kit: ".ci/ratio-bench reads"},
	{Key: "mixed", Work: "9 random reads : 1 create", Baseline: "the same mix of /get/N and /put", Budget: MixedBudget,
		Kit: ".ci/ratio-bench mixed"},
	{Key: "webhook", Work: "creates, a webhook target answering 204", Baseline: "raw bbolt Batch puts /put", Budget: WebhookBudget,
		Kit: ".ci/ratio-bench webhook"},
	{Key: "create", Work: "plain creates", Baseline: "raw bbolt Batch puts /put", Budget: WriteBudget,
		Kit: ".ci/ratio-bench write"},
	{Key: "pgcreate", Work: "PostgreSQL, one node: creates", Baseline: "raw INSERT of a 1.5 KB row /pg/put", Budget: PGBudget,
		Kit: "RATIO_PG=URL .ci/ratio-bench pgwrite"},
	{Key: "pgreads", Work: "PostgreSQL, one node: random reads among 4,000", Baseline: "raw SELECT by key /pg/get/N", Budget: PGBudget,
		Kit: "RATIO_PG=URL .ci/ratio-bench pgread"},
}

// TableReport is what Table measured.
type TableReport struct {
	Config     Config
	Contracts  int
	Rows       []Row
	LoadBefore string
}

// Table measures each row named in keys (all when empty) on a fresh
// appliance of its own against the baseline process, as .ci/ratio-bench
// does with the shared kit: with cfg.Wrk, wrk -t2 for cfg.Duration on each
// side, twice, alternating; else this process's client in cfg.Rounds
// slices. contracts (TableContracts when 0) are made by parallel creates
// before the random reads.
func Table(ctx context.Context, cfg Config, keys []string, contracts int, progress io.Writer) (*TableReport, error) {
	cfg.Defaults()
	if contracts <= 0 {
		contracts = TableContracts
	}
	rows, err := tableRows(keys)
	if err != nil {
		return nil, err
	}
	rep := &TableReport{Config: cfg, Contracts: contracts, LoadBefore: loadavg()}
	base, baseIn, err := startEcho(ctx, cfg)
	if err != nil {
		return nil, err
	}
	defer stopEcho(base, baseIn)
	for _, row := range rows {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if strings.HasPrefix(row.Key, "pg") && cfg.Postgres == "" {
			row.Skipped = "no PostgreSQL URL (--postgres)"
		} else if err := measureRow(ctx, cfg, &row, base, contracts, progress); err != nil {
			return nil, fmt.Errorf("%s: %w", row.Key, err)
		}
		rep.Rows = append(rep.Rows, row)
	}
	return rep, nil
}

// tableRows are the rows of keys, in the order given (all when empty).
func tableRows(keys []string) ([]Row, error) {
	if len(keys) == 0 {
		return slices.Clone(TableRows), nil
	}
	var out []Row
	for _, k := range keys {
		i := slices.IndexFunc(TableRows, func(r Row) bool { return r.Key == k })
		if i < 0 {
			var names []string
			for _, r := range TableRows {
				names = append(names, r.Key)
			}
			return nil, fmt.Errorf("unknown row %q (rows: %s)", k, strings.Join(names, ", "))
		}
		out = append(out, TableRows[i])
	}
	return out, nil
}

// measureRow starts, provisions and fills an appliance for the row, then
// measures it against its baseline.
func measureRow(ctx context.Context, cfg Config, row *Row, base *child, contracts int, progress io.Writer) error {
	dir, err := os.MkdirTemp("", "contracts-bench-"+row.Key+"-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	adminToken, extra := randomHex(24), []string(nil)
	pg := strings.HasPrefix(row.Key, "pg")
	if pg {
		dbURL, drop, err := benchDatabase(ctx, cfg.Postgres)
		if err != nil {
			return err
		}
		defer drop()
		extra = []string{"CONTRACTS_DATA__DRIVER=postgres", "CONTRACTS_DATA__POSTGRES__URL=" + dbURL, "CONTRACTS_SECRETS__MASTERKEY=" + randomHex(24)}
	}
	srv, err := startServer(ctx, cfg, filepath.Join(dir, "data"), adminToken, extra...)
	if err != nil {
		return err
	}
	defer func() { _ = srv.stop() }()
	client := newClient(cfg.Clients)
	w, err := provision(srv, adminToken, client)
	if err != nil {
		return fmt.Errorf("provision: %w", err)
	}
	created := &ids{}
	n := 1
	if row.Key == "reads" || row.Key == "mixed" || row.Key == "pgreads" {
		n = contracts
	}
	start := time.Now()
	if err := w.fill(ctx, cfg.Clients, n, created); err != nil {
		return err
	}
	if n > 1 {
		fmt.Fprintf(progress, "bench: %s: %d contracts made in %s\n", row.Key, n, time.Since(start).Round(time.Millisecond))
	}
	if row.Key == "webhook" {
		if err := w.call("POST", w.admin+"/admin/v1/keys", adminToken, "application/json", mustJSON(map[string]any{
			"name": "Bench hooked", "ownerIn": ownerIN, "scopes": []string{"CONTRACTS_READ"}, "allTemplates": true,
			"webhookUrl": "http://" + base.addr("echo") + "/hook"}), nil); err != nil {
			return err
		}
	}
	app, ref := w.rowPhases(row.Key, client, created.snapshot(), base.addr("echo"))
	hooks, err := w.hooksReceived(base.addr("echo"))
	if err != nil {
		return err
	}
	stored, err := w.storeMetrics(adminToken)
	if err != nil {
		return err
	}
	row.App, row.Base = runPair(ctx, cfg, app, ref, &srv.rss, &base.rss, cfg.Rounds)
	if now, err := w.storeMetrics(adminToken); err == nil {
		row.Writer = writerBetween(stored, now)
	}
	after, err := w.hooksReceived(base.addr("echo"))
	row.Hooks = after - hooks
	fmt.Fprintf(progress, "bench: %-9s appliance %8.0f req/s p99 %-9v baseline %8.0f req/s  ratio %.2f\n", row.Key,
		row.App.Rate(), round(row.App.P99), row.Base.Rate(), row.Ratio())
	return err
}

// hooksReceived is how many deliveries the baseline's /hook has received.
func (w *world) hooksReceived(baseAddr string) (int, error) {
	var v struct{ Received int }
	err := w.call("GET", "http://"+baseAddr+"/hook", "", "", nil, &v)
	return v.Received, err
}

// fill makes n typical contracts from clients parallel creates.
func (w *world) fill(ctx context.Context, clients, n int, created *ids) error {
	body := ContractBody(w.templateID)
	create := phase{name: nameCreate, op: httpOp(w.client, http.StatusOK, func(int) (*http.Request, error) {
		return w.request("POST", "/v1/contracts", body), nil
	}, created.add)}
	res := loop(ctx, min(clients, n), 10*time.Minute, n, create, nil)
	if got := len(created.snapshot()); got != n {
		return fmt.Errorf("made %d of %d contracts: %s", got, n, res.FirstError)
	}
	return nil
}

// rowPhases are the appliance's phase of a row and its baseline's, each
// with the request wrk sends and the same requests for this process's client.
func (w *world) rowPhases(key string, client *http.Client, pool []string, baseAddr string) (app, ref phase) {
	bearer := "Authorization: Bearer " + w.token
	body := ContractBody(w.templateID)
	baseURL := "http://" + baseAddr
	pg := ""
	if strings.HasPrefix(key, "pg") {
		pg = "/pg"
	}
	switch key {
	case "read":
		app = w.mixPhase(nameRead, client, pool[:1], "", nil)
		app.wrk = &wrkRequest{method: "GET", url: w.embedded + "/v1/contracts/" + pool[0], header: bearer}
		return app, echoPhase(client, baseAddr)
	case "reads", "pgreads":
		return w.mixPhase("random "+nameRead, client, pool, "", nil),
			basePhase("baseline: random "+pg+"/get/N", client, baseURL, pg, false)
	case "mixed":
		return w.mixPhase("9 random reads : 1 create", client, pool, "/v1/contracts", body),
			basePhase("baseline: 9 /get/N : 1 /put", client, baseURL, pg, true)
	}
	app = phase{name: nameCreate, op: httpOp(client, http.StatusOK, func(int) (*http.Request, error) {
		return w.request("POST", "/v1/contracts", body), nil
	}, nil), wrk: &wrkRequest{method: "POST", url: w.embedded + "/v1/contracts", header: bearer, body: body}}
	if key == "webhook" {
		app.name += " (webhook target)"
	}
	url := baseURL + pg + "/put"
	ref = phase{name: "baseline: " + pg + "/put", op: httpOp(client, http.StatusOK, func(int) (*http.Request, error) {
		return http.NewRequest("POST", url, nil)
	}, nil), wrk: &wrkRequest{method: "POST", url: url}}
	return app, ref
}

// request is an authenticated request of the app to the embedded interface.
func (w *world) request(method, path string, body []byte) *http.Request {
	req, _ := http.NewRequest(method, w.embedded+path, strings.NewReader(string(body)))
	req.Header.Set("Authorization", "Bearer "+w.token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return req
}

// mixPhase reads a random contract of pool per request; with post, every
// tenth request posts body there instead, as ratio.sh mixed does.
func (w *world) mixPhase(name string, client *http.Client, pool []string, post string, body []byte) phase {
	return phase{name: name, op: httpOp(client, http.StatusOK, func(n int) (*http.Request, error) {
		if post != "" && n%10 == 0 {
			return w.request("POST", post, body), nil
		}
		return w.request("GET", "/v1/contracts/"+pool[mrand.IntN(len(pool))], nil), nil
	}, nil), wrk: &wrkRequest{url: w.embedded, header: "Authorization: Bearer " + w.token,
		lua: mixLua(pool, "/v1/contracts/", 0, post, body)}}
}

// basePhase reads random stored values of the baseline (under prefix /pg
// or none); with mixed, every tenth request is a put.
func basePhase(name string, client *http.Client, baseURL, prefix string, mixed bool) phase {
	post := ""
	if mixed {
		post = prefix + "/put"
	}
	return phase{name: name, op: httpOp(client, http.StatusOK, func(n int) (*http.Request, error) {
		if post != "" && n%10 == 0 {
			return http.NewRequest("POST", baseURL+post, nil)
		}
		return http.NewRequest("GET", baseURL+prefix+"/get/"+strconv.Itoa(mrand.IntN(BaselineFill)), nil)
	}, nil), wrk: &wrkRequest{url: baseURL, lua: mixLua(nil, prefix+"/get/", BaselineFill, post, nil)}}
}

// benchDatabase creates an empty database on the server of url for one
// appliance, and returns its URL and what drops it.
func benchDatabase(ctx context.Context, url string) (string, func(), error) {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return "", nil, fmt.Errorf("--postgres: %w", err)
	}
	exec := func(ctx context.Context, sql string) error {
		conn, err := pgx.ConnectConfig(ctx, cfg)
		if err != nil {
			return err
		}
		defer conn.Close(context.Background())
		_, err = conn.Exec(ctx, sql)
		return err
	}
	name := "contracts_bench_" + randomHex(6)
	if err := exec(ctx, "CREATE DATABASE "+name); err != nil {
		return "", nil, fmt.Errorf("create a database for the bench: %w", err)
	}
	drop := func() { _ = exec(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)") }
	u, err := neturl.Parse(url)
	if err != nil || u.Scheme == "" {
		return url + " dbname=" + name, drop, nil // a keyword/value connection string
	}
	u.Path = "/" + name
	return u.String(), drop, nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
