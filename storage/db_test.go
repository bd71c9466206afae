package storage_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"
	"contracts/storage"

	bolt "go.etcd.io/bbolt"
)

// The batch delay is the one given, data.batchDelay's 0 ("no wait")
// included: the store has no default of its own.
func TestOpenTakesTheBatchDelay(t *testing.T) {
	for _, d := range []time.Duration{0, 2 * time.Millisecond, 50 * time.Millisecond} {
		db, err := storage.Open(filepath.Join(t.TempDir(), "contracts.db"), storage.Options{BatchDelay: d})
		if err != nil {
			t.Fatal(err)
		}
		if got := db.Bolt().MaxBatchDelay; got != d {
			t.Errorf("BatchDelay %v: bbolt waits %v", d, got)
		}
		db.Close()
	}
}

// TestOpenRefusesAFileInUse holds the file open and checks that a second
// open gives up after its time-out with a readable error naming the file.
func TestOpenRefusesAFileInUse(t *testing.T) {
	path := filepath.Join(t.TempDir(), "contracts.db")
	first, err := storage.Open(path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, readOnly := range []bool{false, true} {
		start := time.Now()
		second, err := storage.Open(path, storage.Options{Timeout: 300 * time.Millisecond, ReadOnly: readOnly})
		took := time.Since(start)
		if err == nil {
			second.Close()
			t.Fatalf("readOnly=%v: a second handle opened a file in use", readOnly)
		}
		if want := "another process is using " + path; !strings.Contains(err.Error(), want) {
			t.Fatalf("readOnly=%v: error %q does not say %q", readOnly, err, want)
		}
		if took < 250*time.Millisecond || took > 5*time.Second {
			t.Fatalf("readOnly=%v: gave up after %v, want about the 300ms time-out", readOnly, took)
		}
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := storage.Open(path, storage.Options{Timeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatalf("open after the holder closed: %v", err)
	}
	again.Close()
}

// Values kept in the meta bucket (the suite checks their round trip)
// leave the schema version alone.
func TestSetMetaKeepsTheSchema(t *testing.T) {
	db, err := storage.Open(filepath.Join(t.TempDir(), "contracts.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.SetMeta("demo_seeded", "app-1"); err != nil {
		t.Fatal(err)
	}
	if v, err := db.SchemaVersion(); err != nil || v != storage.CurrentSchema() {
		t.Fatalf("SetMeta disturbed the schema version: %d, %v", v, err)
	}
}

// TestBackupReopensWithSameData writes a backup of a provisioned store and
// compares every key and value of every bucket with the original.
func TestBackupReopensWithSameData(t *testing.T) {
	w := fixture.NewStandard(t)
	c := w.Contract(t)
	if _, err := w.Service.Cancel(w.Access(t, w.AppA), c.ID, signflow.Actor{}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "backup.db")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	n, err := w.DB.Backup(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(path); n <= 0 || st.Size() != n {
		t.Fatalf("Backup reported %d bytes, the file has %d", n, st.Size())
	}
	b, err := storage.Open(path, storage.Options{})
	if err != nil {
		t.Fatalf("the backup does not open: %v", err)
	}
	defer b.Close()
	orig, copied := dumpBuckets(t, w.DB), dumpBuckets(t, b)
	if len(orig) == 0 || len(orig["contracts"]) != 1 || len(orig["templates"]) != 3 || len(orig["apps"]) != 2 {
		t.Fatalf("the original is not the provisioned world: %d buckets", len(orig))
	}
	for name, records := range orig {
		if len(copied[name]) != len(records) {
			t.Errorf("bucket %s: %d records in the backup, %d in the original", name, len(copied[name]), len(records))
			continue
		}
		for k, v := range records {
			if copied[name][k] != v {
				t.Errorf("bucket %s key %q differs in the backup", name, k)
			}
		}
	}
	// The backup is usable through the store, not only as bytes.
	fixture.Must(t, func() error {
		return b.View(func(tx signflow.Tx) error {
			got, err := tx.Contract(c.ID)
			if err == nil && got.Status != signflow.StatusCancelled {
				err = fmt.Errorf("contract in the backup is %s", got.Status)
			}
			return err
		})
	})
}

// TestBackupWhileWriting takes backups while goroutines keep creating,
// cancelling and registering; every backup must open and be consistent.
func TestBackupWhileWriting(t *testing.T) {
	w := fixture.NewStandard(t)
	app := w.Access(t, w.AppA)
	// A webhook target gives each contract outbox rows too.
	fixture.MustCredential(t, w.Service.CreateKey, &signflow.CredentialInput{Name: "hooked", OwnerIN: fixture.OwnerIN,
		Scopes: signflow.KeyScopes, AllTemplates: true, WebhookURL: "http://127.0.0.1:1/hook"})

	var stop atomic.Bool
	var written atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; !stop.Load(); i++ {
				buyer := fmt.Sprintf("32%02d%010d", g, i)
				if _, err := w.Service.RegisterClient(app, &signflow.Client{IN: buyer, FirstName: "Ali", LastName: fmt.Sprintf("Valiyev%d", i), Phone: "998900000000"}); err != nil {
					errs <- err
					return
				}
				c, err := w.Service.CreateContract(app, &signflow.ContractInput{TemplateID: w.Template.ID, BuyerIN: buyer, Price: int64(i + 1)}, signflow.Actor{})
				if err != nil {
					errs <- err
					return
				}
				if i%2 == 1 {
					if _, err := w.Service.Cancel(app, c.ID, signflow.Actor{}); err != nil {
						errs <- err
						return
					}
				}
				written.Add(1)
			}
		}(g)
	}
	// waitWritten lets the writers get ahead, failing if they stop.
	waitWritten := func(n int64) {
		deadline := time.Now().Add(time.Minute)
		for written.Load() < n {
			if len(errs) > 0 || time.Now().After(deadline) {
				stop.Store(true)
				wg.Wait()
				var err error
				select {
				case err = <-errs:
				default:
				}
				t.Fatalf("writers stalled at %d of %d: %v", written.Load(), n, err)
			}
			time.Sleep(time.Millisecond)
		}
	}
	dir := t.TempDir()
	var paths []string
	for i := 0; i < 5; i++ {
		waitWritten(int64(4 * (i + 1)))
		path := filepath.Join(dir, fmt.Sprintf("backup-%d.db", i))
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.DB.Backup(f); err != nil {
			t.Fatalf("backup %d: %v", i, err)
		}
		f.Close()
		paths = append(paths, path)
	}
	// Each writer may have had one contract in flight during the last
	// backup; eight more complete ones guarantee writes after it.
	waitWritten(written.Load() + 8)
	stop.Store(true)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("writer: %v", err)
	}

	final := countContracts(t, w.DB)
	assertIndexesConsistent(t, w.DB)
	prev := -1
	for _, path := range paths {
		b, err := storage.Open(path, storage.Options{ReadOnly: true})
		if err != nil {
			t.Fatalf("%s does not open: %v", filepath.Base(path), err)
		}
		if v, err := b.SchemaVersion(); err != nil || v != storage.CurrentSchema() {
			t.Errorf("%s: schema %d, %v", filepath.Base(path), v, err)
		}
		n := countContracts(t, b)
		t.Run(filepath.Base(path), func(t *testing.T) { assertIndexesConsistent(t, b) })
		b.Close()
		if n < prev || n > final {
			t.Errorf("%s holds %d contracts; the previous backup %d, the final store %d", filepath.Base(path), n, prev, final)
		}
		prev = n
	}
	if prev >= final {
		t.Fatalf("the writers wrote nothing after the last backup (%d of %d): the backups did not overlap writes", prev, final)
	}
}

// dumpBuckets returns every top-level bucket's keys and values as strings.
func dumpBuckets(t *testing.T, db *storage.DB) map[string]map[string]string {
	t.Helper()
	out := map[string]map[string]string{}
	err := db.Bolt().View(func(btx *bolt.Tx) error {
		return btx.ForEach(func(name []byte, b *bolt.Bucket) error {
			m := map[string]string{}
			out[string(name)] = m
			return b.ForEach(func(k, v []byte) error { m[string(k)] = string(bytes.Clone(v)); return nil })
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func countContracts(t *testing.T, db *storage.DB) int {
	t.Helper()
	n := 0
	err := db.Bolt().View(func(btx *bolt.Tx) error {
		n = btx.Bucket([]byte("contracts")).Stats().KeyN
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}
