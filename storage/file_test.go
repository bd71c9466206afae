package storage_test

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"contracts/storage"

	bolt "go.etcd.io/bbolt"
)

// boltFile writes a bbolt file whose meta bucket holds schema (none when 0).
func boltFile(t *testing.T, path string, schema uint64) {
	t.Helper()
	b, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if schema == 0 {
		return
	}
	err = b.Update(func(tx *bolt.Tx) error {
		meta, err := tx.CreateBucket([]byte("meta"))
		if err != nil {
			return err
		}
		return meta.Put([]byte("schema"), binary.BigEndian.AppendUint64(nil, schema))
	})
	if err != nil {
		t.Fatal(err)
	}
}

// openDB opens a database that the test closes at its end.
func openDB(t *testing.T, path string) *storage.DB {
	t.Helper()
	db, err := storage.Open(path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestCheckFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.db")
	openDB(t, good).Close()
	inUse := filepath.Join(dir, "in-use.db")
	openDB(t, inUse)
	notDB := filepath.Join(dir, "not.db")
	if err := os.WriteFile(notDB, []byte(strings.Repeat("not a database ", 1000)), 0o600); err != nil {
		t.Fatal(err)
	}
	noSchema, newer := filepath.Join(dir, "no-schema.db"), filepath.Join(dir, "newer.db")
	boltFile(t, noSchema, 0)
	boltFile(t, newer, storage.CurrentSchema()+1)

	cases := []struct {
		name, path, want string // want: "" for no error, else a part of it
	}{
		{"a database of this build", good, ""},
		{"a file another process holds", inUse, "another process is using " + inUse},
		{"no file", filepath.Join(dir, "absent.db"), "absent.db"},
		{"not a database", notDB, "not.db"},
		{"a bbolt file without a schema", noSchema, "schema version 0 is not one this build reads"},
		{"a database of a newer build", newer, "is not one this build reads"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := storage.CheckFile(c.path)
			if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
				t.Fatalf("CheckFile: %v, want %q", err, c.want)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "absent.db")); !os.IsNotExist(err) {
		t.Fatalf("checking a missing file created it: %v", err)
	}
}

func TestRestore(t *testing.T) {
	dir := t.TempDir()
	backup := filepath.Join(dir, "backup.db")
	db := openDB(t, backup)
	if err := db.SetMeta("mark", "backup"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	now := time.Date(2026, 11, 22, 9, 30, 0, 0, time.FixedZone("UZT", 5*3600))

	// Onto a new host, without a data directory: nothing to keep aside.
	target := filepath.Join(dir, "data", "contracts.db")
	if aside, err := storage.Restore(backup, target, now); err != nil || aside != "" {
		t.Fatalf("restore without a data directory: %q %v", aside, err)
	}
	assertMark(t, target, "backup")

	// Over a database in use: refused, and nothing moves.
	live := openDB(t, target)
	if err := live.SetMeta("mark", "live"); err != nil {
		t.Fatal(err)
	}
	if _, err := storage.Restore(backup, target, now); err == nil || !strings.Contains(err.Error(), "refusing: another process is using") {
		t.Fatalf("restore over a file in use: %v", err)
	}
	if aside, _ := filepath.Glob(target + ".*"); len(aside) != 0 {
		t.Fatalf("a refused restore left %v", aside)
	}
	live.Close()

	// Over a stopped one: the old file is kept aside, named by the time in UTC.
	aside, err := storage.Restore(backup, target, now)
	if err != nil || aside != target+".before-restore-20261122T043000Z" {
		t.Fatalf("restore: %q %v", aside, err)
	}
	assertMark(t, target, "backup")
	assertMark(t, aside, "live")
	if left, _ := filepath.Glob(target + ".partial"); len(left) != 0 {
		t.Fatalf("restore left %v", left)
	}

	// A file that is not a backup is refused before anything moves.
	notDB := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(notDB, []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := storage.Restore(notDB, target, now.Add(time.Hour)); err == nil {
		t.Fatal("restored a file that is not a database")
	}
	assertMark(t, target, "backup")
}

// assertMark checks the "mark" meta value of the database at path.
func assertMark(t *testing.T, path, want string) {
	t.Helper()
	db, err := storage.Open(path, storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if got, err := db.Meta("mark"); err != nil || got != want {
		t.Fatalf("%s: mark %q (%v), want %q", filepath.Base(path), got, err, want)
	}
}
