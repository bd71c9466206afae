package e2e

import (
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

// TestServeWriterMetrics: on bbolt, /metrics shows what the one writer
// did: its commits, the writes they carried, its busy time, the disk's
// share of it and the pages written, each moved by creates.
func TestServeWriterMetrics(t *testing.T) {
	dir := t.TempDir()
	in := startInstance(t, dir, filepath.Join(dir, "data"), "CONTRACTS_RATELIMIT__KEYPERSECOND=0")
	p := provision(t, in, "")
	const commits, writes, busy, disk, pages = "contracts_store_commits_total", "contracts_store_commit_writes_total",
		"contracts_store_writer_busy_seconds_total", "contracts_store_disk_write_seconds_total", "contracts_store_pages_written_total"
	names := []string{commits, writes, busy, disk, pages}
	before := scrape(t, in.admin, names)
	const creates = 5
	for range creates {
		var c struct{ ID string }
		mustCall(t, "POST", in.key+"/v1/contracts", jsonBody(map[string]any{"templateId": p.templateID, "buyerIn": loadCustomerIN,
			"price": 150000, "products": []map[string]any{{"name": "Televizor", "quantity": 1, "price": 150000}}}), &c, "X-API-Key", p.apiKey)
	}
	after := scrape(t, in.admin, names)
	moved := func(name string) float64 { return after[name] - before[name] }
	if moved(writes) < creates {
		t.Errorf("%s moved by %v, want at least %d creates", writes, moved(writes), creates)
	}
	for _, name := range []string{commits, busy, disk} {
		if moved(name) <= 0 {
			t.Errorf("%s: %v → %v, want it to grow with the creates", name, before[name], after[name])
		}
	}
	if moved(pages) < 2*moved(commits) {
		t.Errorf("%s moved by %v for %v commits: each writes a leaf and a meta page at least", pages, moved(pages), moved(commits))
	}
	in.stop(t)
}

// scrape reads the named unlabelled series from the admin listener's /metrics.
func scrape(t *testing.T, admin string, names []string) map[string]float64 {
	t.Helper()
	res, err := http.Get(admin + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	out := map[string]float64{}
	for _, name := range names {
		m := regexp.MustCompile(`(?m)^` + name + ` (\S+)$`).FindSubmatch(data)
		if m == nil {
			t.Fatalf("/metrics has no %s", name)
		}
		v, err := strconv.ParseFloat(string(m[1]), 64)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = v
	}
	return out
}
