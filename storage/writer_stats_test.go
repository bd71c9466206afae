package storage

import "testing"

// WriterStats counts each commit of the group commit once, whatever the
// writes it carried, and the pages and disk time of every commit.
func TestWriterStatsCountCommitsAndTheirWrites(t *testing.T) {
	db := openBatchDB(t, 0)
	before := db.WriterStats()
	const n = 10
	writeBehindHeld(t, db, n)
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
