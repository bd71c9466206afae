package loadgen

import (
	"strings"
	"testing"
	"time"
)

// The writer's line comes from the contracts_store_* counters read before
// and after a row; labelled and other series are left alone.
func TestWriterBetweenReadings(t *testing.T) {
	before := storeSeries(strings.NewReader(`# HELP contracts_store_commits_total Write transactions of the group commit.
# TYPE contracts_store_commits_total counter
contracts_store_commits_total 10
contracts_store_commit_writes_total 100
contracts_store_writer_busy_seconds_total 1.5
contracts_store_disk_write_seconds_total 0.5
contracts_store_pages_written_total 400
contracts_http_requests_total{interface="embedded"} 7
`))
	after := storeSeries(strings.NewReader(`contracts_store_commits_total 110
contracts_store_commit_writes_total 2100
contracts_store_writer_busy_seconds_total 3.5
contracts_store_disk_write_seconds_total 1.5
contracts_store_pages_written_total 5400
`))
	x := writerBetween(before, after)
	if x.Commits != 100 || x.Writes != 2000 || x.Pages != 5000 || x.Busy != 2*time.Second || x.Disk != time.Second {
		t.Fatalf("writer: %+v", x)
	}
	want := "100 commits, 20.0 writes, 50.0 pages and 10.00 ms of disk a commit, busy 2.0 s"
	if x.String() != want {
		t.Fatalf("line %q, want %q", x.String(), want)
	}
	rows, err := tableRows([]string{"create", "pgcreate"})
	if err != nil {
		t.Fatal(err)
	}
	rows[0].Writer = x
	var out strings.Builder
	(&TableReport{Contracts: 4000, Rows: rows}).Print(&out)
	if !strings.Contains(out.String(), "bbolt writer during create (its warm-up and the baseline's runs too): "+want) ||
		strings.Contains(out.String(), "during pgcreate") {
		t.Fatalf("report:\n%s", out.String())
	}
}
