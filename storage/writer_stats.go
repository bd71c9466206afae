package storage

import (
	"sync/atomic"
	"time"
)

// WriterStats is what the group commit has done since the file was
// opened: every create and change waits for the one writer, so its busy
// share and what a commit costs say how near the writes are to their
// limit (the metrics contracts_store_*).
type WriterStats struct {
	Commits uint64        // write transactions of the group commit (a batch whose function failed runs again without it)
	Writes  uint64        // the Updates they carried: creates, changes, webhook results
	Busy    time.Duration // time the writer spent running and committing them
	// Disk is the time every write transaction spent writing its pages
	// and waiting for the disk to hold them (bbolt's two fdatasyncs).
	Disk  time.Duration
	Pages uint64 // pages written by every write transaction
}

// writerCounts are the group commit's own counts, moved by its writer.
type writerCounts struct {
	commits, writes atomic.Uint64
	busy            atomic.Int64 // nanoseconds
}

// WriterStats returns the writer's counts so far.
func (db *DB) WriterStats() WriterStats {
	tx := db.bolt.Stats().TxStats
	w := &db.batcher.counts
	return WriterStats{Commits: w.commits.Load(), Writes: w.writes.Load(), Busy: time.Duration(w.busy.Load()),
		Disk: tx.GetWriteTime(), Pages: uint64(tx.GetWrite())}
}
