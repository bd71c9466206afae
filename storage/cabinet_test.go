package storage

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"contracts/signflow"

	bolt "go.etcd.io/bbolt"
)

var cabinetBuckets = [][]byte{bucketCabinetLogins, bucketCabinetSessions, bucketCabinetExpiry}

// A file at schema 1 (before the cabinet) is snapshotted, gains the
// cabinet's buckets, keeps its data and takes cabinet records.
func TestMigrateSchema1GainsCabinetBuckets(t *testing.T) {
	path := filepath.Join(t.TempDir(), "contracts.db")
	db := migOpen(t, path, Options{})
	migPutClient(t, db, "301234567", "Alpha LLC")
	err := db.bolt.Update(func(btx *bolt.Tx) error {
		for _, name := range cabinetBuckets {
			if err := btx.DeleteBucket(name); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	migSetSchema(t, db, 1)
	db.Close()

	db = migOpen(t, path, Options{})
	defer db.Close()
	if v, _ := db.SchemaVersion(); v != CurrentSchema() || v < 2 {
		t.Fatalf("schema %d after opening; want %d", v, CurrentSchema())
	}
	err = db.bolt.View(func(btx *bolt.Tx) error {
		for _, name := range cabinetBuckets {
			if btx.Bucket(name) == nil {
				t.Errorf("bucket %s missing after the migration", name)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !migHasClient(t, db, "301234567") {
		t.Fatal("the migration lost the data")
	}
	if _, err := os.Stat(path + ".pre-v" + strconv.FormatUint(CurrentSchema(), 10) + ".bak"); err != nil {
		t.Fatalf("no snapshot of the schema 1 file: %v", err)
	}
	l := &signflow.CabinetLogin{IN: "301234567", Sends: 1, PurgeAt: time.Now().Add(time.Hour)}
	if err := db.Update(func(tx signflow.Tx) error { return tx.PutCabinetLogin(l) }); err != nil {
		t.Fatal(err)
	}
}

// The purge index follows every write, so a purge deletes exactly the
// records whose time has come, and a record moved later survives.
func TestCabinetPurgeFollowsWrites(t *testing.T) {
	db := migOpen(t, filepath.Join(t.TempDir(), "contracts.db"), Options{})
	defer db.Close()
	t0 := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	sess := func(id string, exp time.Time) *signflow.CabinetSession {
		return &signflow.CabinetSession{TokenHash: signflow.HashSecret(id), IN: "301234567", ExpiresAt: exp}
	}
	err := db.Update(func(tx signflow.Tx) error {
		for _, s := range []*signflow.CabinetSession{sess("a", t0.Add(time.Minute)), sess("b", t0.Add(time.Minute)), sess("c", t0.Add(time.Hour))} {
			if err := tx.PutCabinetSession(s); err != nil {
				return err
			}
		}
		// b is touched: its expiry moves on.
		if err := tx.PutCabinetSession(sess("b", t0.Add(2*time.Hour))); err != nil {
			return err
		}
		if err := tx.DeleteCabinetSession(signflow.HashSecret("c")); err != nil {
			return err
		}
		for in, at := range map[string]time.Time{"30000000000001": t0.Add(time.Minute), "30000000000002": t0.Add(3 * time.Hour), "30000000000003": {}} {
			if err := tx.PutCabinetLogin(&signflow.CabinetLogin{IN: in, PurgeAt: at}); err != nil {
				return err
			}
		}
		return tx.PutCabinetLogin(&signflow.CabinetLogin{IN: "30000000000001", PurgeAt: t0.Add(30 * time.Second)})
	})
	if err != nil {
		t.Fatal(err)
	}
	var n, again int
	err = db.Update(func(tx signflow.Tx) (err error) {
		if n, err = tx.PurgeCabinet(t0.Add(time.Hour), 10); err != nil {
			return err
		}
		again, err = tx.PurgeCabinet(t0.Add(time.Hour), 10)
		return err
	})
	if err != nil || n != 3 || again != 0 {
		t.Fatalf("purged %d then %d (%v); want session a and logins 1 and 3, then nothing", n, again, err)
	}
	left := map[string]int{}
	err = db.bolt.View(func(btx *bolt.Tx) error {
		for _, name := range cabinetBuckets {
			left[string(name)] = btx.Bucket(name).Stats().KeyN
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if left["cabinet_sessions"] != 1 || left["cabinet_logins"] != 1 || left["cabinet_expiry"] != 2 {
		t.Fatalf("left after the purge: %v; want session b, login 2 and their two entries", left)
	}
	err = db.View(func(tx signflow.Tx) error {
		if _, err := tx.CabinetSession(signflow.HashSecret("b")); err != nil {
			return err
		}
		_, err := tx.CabinetLogin("30000000000002")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
