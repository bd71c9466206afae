package storage

import "testing"

// WriterStats counts each commit of the group commit once, whatever the
// writes it carried, and the pages and disk time of every commit.
func TestWriterStatsCountCommitsAndTheirWrites(t *testing.T) {
	db := openBatchDB(t, 0)
	before := db.WriterStats()
	const n = 10
	writeBehindHeld(t, db, n, nil)
	s := db.WriterStats()
	if got := s.Commits - before.Commits; got != 2 {
		t.Errorf("commits = %d, want 2 (the held one, then the %d gathered behind it)", got, n)
	}
	if got := s.Writes - before.Writes; got != n+1 {
		t.Errorf("writes = %d, want %d", got, n+1)
	}
	if s.Busy <= before.Busy || s.Disk <= before.Disk {
		t.Errorf("busy %v → %v, disk %v → %v: both should grow", before.Busy, s.Busy, before.Disk, s.Disk)
	}
	// A commit writes at least the leaf it changed and a meta page.
	if got := s.Pages - before.Pages; got < 4 {
		t.Errorf("pages written = %d, want at least 4 for two commits", got)
	}
}

// TestWriterStatsHoldAWriteOnceItReturns: a write's count is in the stats
// by the time its Update returns, as /metrics read after a create shows
// it (TestServeWriterMetrics once read 4 for 5 creates). Many writes share
// one commit, so that the first told of it reads the stats while the
// writer still tells the others.
func TestWriterStatsHoldAWriteOnceItReturns(t *testing.T) {
	db := openBatchDB(t, 0)
	before := db.WriterStats()
	const n = 64
	seen := make(chan WriterStats, n)
	writeBehindHeld(t, db, n, func() { seen <- db.WriterStats() })
	for range n {
		s := <-seen
		if got := s.Writes - before.Writes; got != n+1 {
			t.Fatalf("a write of the second commit read writes = %d on return, want %d", got, n+1)
		}
		if got := s.Commits - before.Commits; got != 2 {
			t.Fatalf("a write of the second commit read commits = %d on return, want 2", got)
		}
	}
}
