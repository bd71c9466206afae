package loadgen

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"time"

	"contracts/internal/config"
	"contracts/signflow"
)

// Shape is one query of the key interface's contract list, by name.
type Shape struct {
	Name  string
	Query url.Values
}

// Shapes are the list and search queries docs/operations.md reports for a
// file that Fill wrote, given the answer of its first page: the first
// page, a status, a template, pages at the start, middle and end, a
// template deep in the list, a status with no match, searches by contract
// number, matching nothing, and matching every contract (the customer's
// name, number and a number prefix).
func Shapes(first FirstPage) []Shape {
	q := func(kv ...string) url.Values {
		v := url.Values{"size": {"20"}}
		for i := 0; i+1 < len(kv); i += 2 {
			v.Set(kv[i], kv[i+1])
		}
		return v
	}
	pages := max(first.TotalPages, 1)
	itoa := func(n int) string { return fmt.Sprint(n) }
	return []Shape{
		{"size=20 (first page)", q()},
		{"status CREATED", q("statuses", signflow.StatusCreated)},
		{"templateId", q("templateId", first.TemplateID)},
		{"page=1000", q("page", itoa(min(1000, pages-1)))},
		{"last page", q("page", itoa(pages-1))},
		{"middle page", q("page", itoa(pages/2))},
		{"templateId, page 4/5 deep", q("templateId", first.TemplateID, "page", itoa(pages*4/5))},
		{"status ACTIVE (no match)", q("statuses", signflow.StatusActive)},
		{"search: contract number", q("search", first.Number)},
		{"search: no match", q("search", "qwerty")},
		{"search: customer's name", q("search", "Karimov")},
		{"search: customer's number", q("search", customerIN)},
		{"search: number prefix", q("search", customerIN[:4])},
		{"search: customer's name, middle page", q("search", "karimov", "page", itoa(pages/2))},
	}
}

// FirstPage is what the shapes need from the list's first page.
type FirstPage struct {
	TotalElements, TotalPages int
	Number, TemplateID        string
}

// ShapeResult is the latency of one shape, one request at a time.
type ShapeResult struct {
	Shape         string
	Requests      int
	TotalElements int
	P50, P99      time.Duration
}

// Latency serves the bbolt file at path (a data directory's contracts.db
// that Fill wrote; no appliance may have it open) with this binary, makes
// a key of Fill's owner through the admin API, and sends each shape from
// one client for d, at most limit requests, printing p50 and p99 per shape.
// Every loop is bounded by d and limit.
func Latency(ctx context.Context, binary, path string, d time.Duration, limit int, out io.Writer) ([]ShapeResult, error) {
	if filepath.Base(path) != config.DBFile {
		return nil, fmt.Errorf("%s: the file must be a data directory's %s", path, config.DBFile)
	}
	token := make([]byte, 16)
	rand.Read(token)
	cfg := Config{Binary: binary, LogLevel: "warn", BatchDelay: config.Default().Data.BatchDelay}
	srv, err := startServer(ctx, cfg, filepath.Dir(path), hex.EncodeToString(token))
	if err != nil {
		return nil, err
	}
	stopped := false
	defer func() {
		if !stopped {
			srv.kill()
		}
	}()
	w := &world{key: "http://" + srv.addr("key"), admin: "http://" + srv.addr("admin"), client: newClient(1)}
	var key struct{ Key string }
	if err := w.call("POST", w.admin+"/admin/v1/keys", hex.EncodeToString(token), "application/json", mustJSON(map[string]any{
		"name": "Bench latency", "ownerIn": ownerIN, "scopes": signflow.KeyScopes, "allTemplates": true}), &key); err != nil {
		return nil, err
	}
	get := func(v url.Values) (*http.Request, error) {
		req, err := http.NewRequest("GET", w.key+"/v1/contracts?"+v.Encode(), nil)
		if err == nil {
			req.Header.Set("X-API-Key", key.Key)
		}
		return req, err
	}
	var page struct {
		Content []struct {
			Number     string `json:"number"`
			TemplateID string `json:"templateId"`
		} `json:"content"`
		TotalElements, TotalPages int
	}
	decode := func(body []byte) { _ = json.Unmarshal(body, &page) }
	if ok, _, failure := httpOp(w.client, http.StatusOK, func(int) (*http.Request, error) { return get(url.Values{"size": {"20"}}) }, decode)(ctx, 0); !ok {
		return nil, fmt.Errorf("first page: %s", failure)
	}
	if len(page.Content) == 0 {
		return nil, fmt.Errorf("%s: the owner %s has no contracts (write them with --fill)", path, ownerIN)
	}
	first := FirstPage{page.TotalElements, page.TotalPages, page.Content[0].Number, page.Content[0].TemplateID}
	fmt.Fprintf(out, "latency: %d contracts of owner %s, one client, %s or %d requests per shape\n", first.TotalElements, ownerIN, d, limit)
	var results []ShapeResult
	for _, s := range Shapes(first) {
		r := ShapeResult{Shape: s.Name}
		p := phase{name: s.Name, op: httpOp(w.client, http.StatusOK, func(int) (*http.Request, error) { return get(s.Query) },
			func(body []byte) { page.TotalElements = -1; decode(body); r.TotalElements = page.TotalElements })}
		lat := &latencies{}
		res := loop(ctx, 1, d, limit, p, lat)
		if res.Errors > 0 {
			return results, fmt.Errorf("%s: %d errors, first: %s", s.Name, res.Errors, res.FirstError)
		}
		r.Requests, r.P50, r.P99 = len(lat.all), percentile(lat.all, 0.50), percentile(lat.all, 0.99)
		results = append(results, r)
	}
	PrintLatency(out, results)
	stopped = true
	return results, srv.stop()
}

// PrintLatency writes the shapes' latencies as a table.
func PrintLatency(out io.Writer, results []ShapeResult) {
	fmt.Fprintf(out, "%-38s %9s %9s %10s %10s\n", "query", "matches", "requests", "p50", "p99")
	for _, r := range results {
		fmt.Fprintf(out, "%-38s %9d %9d %10s %10s\n", r.Shape, r.TotalElements, r.Requests, fmtMs(r.P50), fmtMs(r.P99))
	}
}

func fmtMs(d time.Duration) string {
	return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond))
}
