package storage

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"contracts/signflow"
)

func openCacheDB(t *testing.T) *DB {
	t.Helper()
	db, err := Open(filepath.Join(t.TempDir(), "c.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func readApp(t *testing.T, db *DB, id string) *signflow.App {
	t.Helper()
	var a *signflow.App
	if err := db.View(func(tx signflow.Tx) (err error) { a, err = tx.App(id); return err }); err != nil {
		t.Fatal(err)
	}
	return a
}

// A cached record is never stale: a committed change is seen at once, a
// rolled-back one never, and what a reader does to its copy stays its own.
func TestRecordCacheIsNeverStale(t *testing.T) {
	db := openCacheDB(t)
	app := &signflow.App{ID: "a1", Name: "one", Scopes: []string{"X", "Y", "V"}, SecretGen: 1}
	put := func(a *signflow.App) error { return db.Update(func(tx signflow.Tx) error { return tx.PutApp(a) }) }
	if err := put(app); err != nil {
		t.Fatal(err)
	}
	first := readApp(t, db, "a1")
	if first.Name != "one" || len(first.Scopes) != 3 {
		t.Fatalf("first read %+v", first)
	}

	// The reader's changes to its copy: a field and an append.
	first.Name = "changed by a reader"
	first.Scopes = append(first.Scopes, "Z")
	again := readApp(t, db, "a1")
	if again.Name != "one" || len(again.Scopes) != 3 {
		t.Fatalf("a reader's change leaked into the cache: %+v", again)
	}
	// Two readers appending never write into one backing array.
	again.Scopes = append(again.Scopes, "W")
	if first.Scopes[3] != "Z" {
		t.Fatalf("appends of two readers share memory: %v", first.Scopes)
	}
	if db.cache.items["apps"]["a1"].val.Interface().(signflow.App).Name != "one" {
		t.Fatal("the record was not cached")
	}

	// A committed write is seen by the next read.
	app.Name, app.SecretGen = "two", 2
	if err := put(app); err != nil {
		t.Fatal(err)
	}
	if got := readApp(t, db, "a1"); got.Name != "two" || got.SecretGen != 2 {
		t.Fatalf("after a write: %+v", got)
	}

	// A write that rolls back is never seen, though its transaction read it back.
	boom := errors.New("boom")
	err := db.Update(func(tx signflow.Tx) error {
		if err := tx.PutApp(&signflow.App{ID: "a1", Name: "rolled back"}); err != nil {
			return err
		}
		if a, err := tx.App("a1"); err != nil || a.Name != "rolled back" {
			t.Errorf("inside the writer: %+v %v", a, err)
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatal(err)
	}
	if got := readApp(t, db, "a1"); got.Name != "two" {
		t.Fatalf("after a rollback: %+v", got)
	}
}

// A writable transaction decodes its own copy of a contract, whose
// signature map it changes in place: a failed signing leaves the cached
// contract untouched.
func TestWriterGetsItsOwnContract(t *testing.T) {
	db := openCacheDB(t)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := &signflow.Contract{ID: "c1", Number: "2026-000001", Seq: 1, Status: signflow.StatusCreated, BuyerIN: "31234567890123",
		SellerIN: "301234567", BuyerStatus: signflow.PartyPending, SellerStatus: signflow.PartyPending,
		Signatures: map[string]*signflow.Signature{"x": {Method: "OTP_SMS"}}}
	if err := db.Update(func(tx signflow.Tx) error { return tx.PutContract(c) }); err != nil {
		t.Fatal(err)
	}
	read := func() *signflow.Contract {
		var out *signflow.Contract
		if err := db.View(func(tx signflow.Tx) (err error) { out, err = tx.Contract("c1"); return err }); err != nil {
			t.Fatal(err)
		}
		return out
	}
	read() // cached now
	err := db.Update(func(tx signflow.Tx) error {
		c, err := tx.Contract("c1")
		if err != nil {
			return err
		}
		if _, err := c.Sign("301234567", signflow.Signature{Method: "E_IMZO"}, now); err != nil {
			return err
		}
		return errors.New("roll back")
	})
	if err == nil {
		t.Fatal("expected the rollback error")
	}
	if got := read(); len(got.Signatures) != 1 || got.SellerStatus != signflow.PartyPending {
		t.Fatalf("a rolled-back signing reached the cache: %+v", got.Signatures)
	}
}

// The cache keeps to its byte budget.
func TestRecordCacheBudget(t *testing.T) {
	rc := newRecordCache(64 << 10)
	raw := []byte(`{"id":"x","name":"` + strings.Repeat("n", 900) + `"}`)
	for i := 0; i < 500; i++ {
		var a signflow.App
		if err := rc.decode([]byte("apps"), []byte{byte(i), byte(i >> 8)}, raw, &a, 0); err != nil {
			t.Fatal(err)
		}
		if rc.size > rc.max {
			t.Fatalf("size %d over the budget %d after %d records", rc.size, rc.max, i+1)
		}
	}
	if rc.n == 0 || rc.n > 70 || len(rc.items["apps"]) != rc.n {
		t.Fatalf("%d records kept", rc.n)
	}
}

// A read-only transaction takes a rarely written record, or its absence,
// from the cache without opening its bucket, and sees a write committed
// after the record was cached.
func TestStableRecordsSkipTheFile(t *testing.T) {
	db := openCacheDB(t)
	put := func(a *signflow.App) {
		t.Helper()
		if err := db.Update(func(tx signflow.Tx) error { return tx.PutApp(a) }); err != nil {
			t.Fatal(err)
		}
	}
	// read returns the app (nil when absent) and how many buckets the read opened.
	read := func(id string) (*signflow.App, int) {
		t.Helper()
		var a *signflow.App
		var opened int
		err := db.View(func(stx signflow.Tx) error {
			got, err := stx.App(id)
			if signflow.ErrorCode(err) == signflow.ENOTFOUND {
				got, err = nil, nil
			}
			a, opened = got, len(stx.(*tx).open)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return a, opened
	}
	put(&signflow.App{ID: "a1", Name: "one"})
	if a, opened := read("a1"); a == nil || a.Name != "one" || opened != 1 {
		t.Fatalf("first read: %+v, %d buckets opened", a, opened)
	}
	if a, opened := read("a1"); a == nil || a.Name != "one" || opened != 0 {
		t.Fatalf("second read: %+v, %d buckets opened, want the cache's", a, opened)
	}
	if a, _ := read("a2"); a != nil {
		t.Fatalf("a2 before it was written: %+v", a)
	}
	if a, opened := read("a2"); a != nil || opened != 0 {
		t.Fatalf("a2's absence again: %+v, %d buckets opened", a, opened)
	}
	put(&signflow.App{ID: "a2", Name: "two"})
	put(&signflow.App{ID: "a1", Name: "one again"})
	if a, _ := read("a2"); a == nil || a.Name != "two" {
		t.Fatalf("a2 after its write: %+v", a)
	}
	if a, _ := read("a1"); a == nil || a.Name != "one again" {
		t.Fatalf("a1 after its write: %+v", a)
	}
	// A write of another kind leaves the cached records valid.
	if err := db.Update(func(tx signflow.Tx) error {
		return tx.PutSession(&signflow.SignSession{ID: "s1", TokenHash: []byte("h"), Status: signflow.SessionPending})
	}); err != nil {
		t.Fatal(err)
	}
	if a, opened := read("a1"); a == nil || a.Name != "one again" || opened != 0 {
		t.Fatalf("after a session write: %+v, %d buckets opened", a, opened)
	}
}

// stableWrites tells two snapshots apart exactly when a stable write
// committed between them, and counts forgotten writes as changes.
func TestStableWritesBetweenSnapshots(t *testing.T) {
	var s stableWrites
	s.add(5)
	s.add(5) // a writer that rolled back and the next one with the same id
	s.add(9)
	for _, c := range []struct {
		a, b uint64
		want bool
	}{
		{4, 4, true}, {5, 8, true}, {8, 5, true}, {4, 5, false}, {5, 4, false}, {8, 9, false}, {9, 20, true}, {1, 20, false},
	} {
		if got := s.unchanged(c.a, c.b); got != c.want {
			t.Errorf("unchanged(%d, %d) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
	for id := uint64(10); id < 10+stableKept; id++ {
		s.add(id)
	}
	if s.unchanged(6, 7) {
		t.Error("a range among forgotten writes counts as unchanged")
	}
	if !s.unchanged(10+stableKept, 10+stableKept+5) {
		t.Error("a range after the last write counts as changed")
	}
}
