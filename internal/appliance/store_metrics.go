package appliance

import (
	"contracts/storage"

	"github.com/prometheus/client_golang/prometheus"
)

// writerCollectors are the bbolt writer's series, read from WriterStats
// when scraped: rate(contracts_store_writer_busy_seconds_total) near 1
// means every write waits its turn for the one writer.
func writerCollectors(db *storage.DB) []prometheus.Collector {
	stat := func(f func(storage.WriterStats) float64) func() float64 {
		return func() float64 { return f(db.WriterStats()) }
	}
	counter := func(name, help string, f func(storage.WriterStats) float64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help}, stat(f))
	}
	return []prometheus.Collector{
		counter("contracts_store_commits_total", "Write transactions of the group commit.",
			func(s storage.WriterStats) float64 { return float64(s.Commits) }),
		counter("contracts_store_commit_writes_total", "Writes (creates, changes, webhook results) carried by those transactions.",
			func(s storage.WriterStats) float64 { return float64(s.Writes) }),
		counter("contracts_store_writer_busy_seconds_total", "Time the writer spent running and committing them.",
			func(s storage.WriterStats) float64 { return s.Busy.Seconds() }),
		counter("contracts_store_disk_write_seconds_total", "Time write transactions spent writing their pages and waiting for the disk to hold them.",
			func(s storage.WriterStats) float64 { return s.Disk.Seconds() }),
		counter("contracts_store_pages_written_total", "Pages written by write transactions.",
			func(s storage.WriterStats) float64 { return float64(s.Pages) }),
	}
}
