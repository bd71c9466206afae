package loadgen

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Writer is what the bbolt writer did during a row, read from the
// admin listener's contracts_store_* series before and after it: how
// near the writes are to the one writer's limit. Zero on PostgreSQL.
type Writer struct {
	Commits, Writes, Pages float64
	Busy, Disk             time.Duration
}

// String is the row's writer line of the report.
func (x Writer) String() string {
	return fmt.Sprintf("%.0f commits, %.1f writes, %.1f pages and %.2f ms of disk a commit, busy %.1f s",
		x.Commits, x.Writes/x.Commits, x.Pages/x.Commits, 1000*x.Disk.Seconds()/x.Commits, x.Busy.Seconds())
}

// storeSeries reads the unlabelled contracts_store_* counters of a
// /metrics text.
func storeSeries(r io.Reader) map[string]float64 {
	out := map[string]float64{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), " ")
		if !ok || !strings.HasPrefix(name, "contracts_store_") {
			continue
		}
		if v, err := strconv.ParseFloat(value, 64); err == nil {
			out[name] = v
		}
	}
	return out
}

// writerBetween is what the writer did between two readings of its series.
func writerBetween(before, after map[string]float64) Writer {
	d := func(name string) float64 { return after[name] - before[name] }
	seconds := func(name string) time.Duration { return time.Duration(d(name) * float64(time.Second)) }
	return Writer{Commits: d("contracts_store_commits_total"), Writes: d("contracts_store_commit_writes_total"),
		Pages: d("contracts_store_pages_written_total"), Busy: seconds("contracts_store_writer_busy_seconds_total"),
		Disk: seconds("contracts_store_disk_write_seconds_total")}
}

// storeMetrics reads the writer's series from the admin listener.
func (w *world) storeMetrics(adminToken string) (map[string]float64, error) {
	req, err := http.NewRequest("GET", w.admin+"/metrics", nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+adminToken)
	resp, err := w.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET /metrics: %d %s", resp.StatusCode, data)
	}
	return storeSeries(bytes.NewReader(data)), nil
}
