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
	db := openMigrateDB(t, path, Options{})
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

	db = openMigrateDB(t, path, Options{})
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
	l := &signflow.CabinetLogin{IN: "301234567", PurgeAt: time.Now().Add(time.Hour)}
	if err := db.Update(func(tx signflow.Tx) error { return tx.PutCabinetLogin(l) }); err != nil {
		t.Fatal(err)
	}
}
