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
	names := []string{"contracts_store_commits_total", "contracts_store_commit_writes_total",
		"contracts_store_writer_busy_seconds_total", "contracts_store_disk_write_seconds_total", "contracts_store_pages_written_total"}
	before := scrape(t, in.admin, names)
	const creates = 5
	for range creates {
		var c struct{ ID string }
		mustCall(t, "POST", in.key+"/v1/contracts", jsonBody(map[string]any{"templateId": p.templateID, "buyerIn": loadCustomerIN,
			"price": 150000, "products": []map[string]any{{"name": "Televizor", "quantity": 1, "price": 150000}}}), &c, "X-API-Key", p.apiKey)
	}
	after := scrape(t, in.admin, names)
	if got := after[names[1]] - before[names[1]]; got < creates {
		t.Errorf("%s moved by %v, want at least %d creates", names[1], got, creates)
	}
	for _, name := range []string{names[0], names[2], names[3]} {
		if after[name] <= before[name] {
			t.Errorf("%s: %v → %v, want it to grow with the creates", name, before[name], after[name])
		}
	}
	if got := after[names[4]] - before[names[4]]; got < 2*after[names[0]]-2*before[names[0]] {
		t.Errorf("%s moved by %v for %v commits: each writes a leaf and a meta page at least", names[4], got, after[names[0]]-before[names[0]])
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
