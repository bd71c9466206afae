package storage

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"contracts/signflow"

	bolt "go.etcd.io/bbolt"
)

// openMigrateDB opens path, failing the test on error.
func openMigrateDB(t *testing.T, path string, opt Options) *DB {
	t.Helper()
	db, err := Open(path, opt)
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// migSetSchema writes a schema version into the file, as an older or a
// newer build would have left it.
func migSetSchema(t *testing.T, db *DB, v uint64) {
	t.Helper()
	err := db.bolt.Update(func(btx *bolt.Tx) error { return btx.Bucket(bucketMeta).Put(keySchema, seq8(v)) })
	if err != nil {
		t.Fatal(err)
	}
}

// migPutClient stores an owner's record through the store.
func migPutClient(t *testing.T, db *DB, in, legalName string) {
	t.Helper()
	err := db.Update(func(tx signflow.Tx) error {
		return tx.PutOwner(&signflow.Client{IN: in, Type: signflow.ClientCompany, LegalName: legalName})
	})
	if err != nil {
		t.Fatal(err)
	}
}

// migHasClient reports whether the file holds the owner's record.
func migHasClient(t *testing.T, db *DB, in string) bool {
	t.Helper()
	err := db.View(func(tx signflow.Tx) error { _, err := tx.Owner(in); return err })
	if err != nil && signflow.ErrorCode(err) != signflow.ENOTFOUND {
		t.Fatal(err)
	}
	return err == nil
}

// migWithExtra appends migrations for the duration of the test, as a later
// build would have them.
func migWithExtra(t *testing.T, extra ...func(*bolt.Tx) error) {
	saved := migrations
	migrations = append(append([]func(*bolt.Tx) error{}, saved...), extra...)
	t.Cleanup(func() { migrations = saved })
}

func TestMigrateFreshFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "contracts.db")
	db := openMigrateDB(t, path, Options{})
	defer db.Close()
	if v, err := db.SchemaVersion(); err != nil || v != CurrentSchema() || v == 0 {
		t.Fatalf("fresh file at schema %d (%v), want %d", v, err, CurrentSchema())
	}
	err := db.bolt.View(func(btx *bolt.Tx) error {
		for _, name := range append(allBuckets, bucketOwners, bucketOwnerNames, bucketClaims, bucketClaimNames,
			bucketClientsAside, bucketCabinetLogins, bucketCabinetSessions, bucketCabinetExpiry, bucketContractCounts) {
			if btx.Bucket(name) == nil && string(name) != "clients" && string(name) != "client_names" && string(name) != "delivery_queue" {
				t.Errorf("bucket %s not created", name)
			}
		}
		for _, gone := range [][]byte{bucketClients, bucketClientNames, bucketDeliveryQueue} {
			if btx.Bucket(gone) != nil {
				t.Errorf("bucket %s of schema 3 is still there", gone)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if baks, _ := filepath.Glob(path + ".pre-v*.bak"); len(baks) != 0 {
		t.Fatalf("a fresh file needs no snapshot, got %v", baks)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("file mode %v, %v; want 0600", st.Mode(), err)
	}
}

// TestMigrateUnversionedFileWithData: a file with data but schema 0 (as a
// build before versioning left it) is snapshotted, then migrated.
func TestMigrateUnversionedFileWithData(t *testing.T) {
	path := filepath.Join(t.TempDir(), "contracts.db")
	db := openMigrateDB(t, path, Options{})
	migPutClient(t, db, "301234567", "Old Data LLC")
	migSetSchema(t, db, 0)
	db.Close()

	db = openMigrateDB(t, path, Options{})
	defer db.Close()
	if v, _ := db.SchemaVersion(); v != CurrentSchema() {
		t.Fatalf("schema %d after migration, want %d", v, CurrentSchema())
	}
	if !migHasClient(t, db, "301234567") {
		t.Fatal("the migration lost the data")
	}
	bak := path + ".pre-v" + strconv.FormatUint(CurrentSchema(), 10) + ".bak"
	old := openMigrateDB(t, bak, Options{ReadOnly: true})
	defer old.Close()
	if v, _ := old.SchemaVersion(); v != 0 {
		t.Fatalf("snapshot at schema %d, want the old 0", v)
	}
	if !migHasClient(t, old, "301234567") {
		t.Fatal("the snapshot lacks the data")
	}
}

// TestMigrateToNextSchema plays a later build: one more migration runs
// once, after a snapshot of the file as it was.
func TestMigrateToNextSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "contracts.db")
	db := openMigrateDB(t, path, Options{})
	migPutClient(t, db, "301234567", "Alpha LLC")
	db.Close()
	from := CurrentSchema()

	runs := 0
	migWithExtra(t, func(btx *bolt.Tx) error {
		runs++
		return btx.Bucket(bucketMeta).Put([]byte("migrated"), []byte("yes"))
	})
	db = openMigrateDB(t, path, Options{})
	if v, _ := db.SchemaVersion(); v != from+1 {
		t.Fatalf("schema %d, want %d", v, from+1)
	}
	if m, _ := db.Meta("migrated"); m != "yes" || runs != 1 {
		t.Fatalf("the new migration ran %d times, marker %q", runs, m)
	}
	db.Close()
	db = openMigrateDB(t, path, Options{})
	db.Close()
	if runs != 1 {
		t.Fatalf("a migrated file was migrated again (%d runs)", runs)
	}

	bak := path + ".pre-v" + strconv.FormatUint(from+1, 10) + ".bak"
	old := openMigrateDB(t, bak, Options{ReadOnly: true})
	defer old.Close()
	if v, _ := old.SchemaVersion(); v != from {
		t.Fatalf("snapshot at schema %d, want %d", v, from)
	}
	if m, _ := old.Meta("migrated"); m != "" || !migHasClient(t, old, "301234567") {
		t.Fatalf("the snapshot is not the file before migration (marker %q)", m)
	}
}

// TestMigrateFailureLeavesFileAsItWas: a failing migration refuses to open
// and leaves the file at its old schema, with the snapshot beside it.
func TestMigrateFailureLeavesFileAsItWas(t *testing.T) {
	path := filepath.Join(t.TempDir(), "contracts.db")
	db := openMigrateDB(t, path, Options{})
	migPutClient(t, db, "301234567", "Alpha LLC")
	db.Close()
	from := CurrentSchema()

	migWithExtra(t, func(btx *bolt.Tx) error {
		if err := btx.Bucket(bucketOwners).Delete([]byte("301234567")); err != nil {
			return err
		}
		return errors.New("disk says no")
	})
	if db, err := Open(path, Options{}); err == nil {
		db.Close()
		t.Fatal("opened despite a failing migration")
	} else if !strings.Contains(err.Error(), "migration to schema "+strconv.FormatUint(from+1, 10)) || !strings.Contains(err.Error(), "disk says no") {
		t.Fatalf("error %q does not name the migration and its cause", err)
	}
	db = openMigrateDB(t, path, Options{ReadOnly: true})
	defer db.Close()
	if v, _ := db.SchemaVersion(); v != from || !migHasClient(t, db, "301234567") {
		t.Fatalf("a failed migration changed the file: schema %d", v)
	}
	if _, err := os.Stat(path + ".pre-v" + strconv.FormatUint(from+1, 10) + ".bak"); err != nil {
		t.Fatalf("no snapshot before the failed migration: %v", err)
	}
}

// TestMigrateRefusesNewerSchema: a file written by a newer build is not
// opened, and not touched.
func TestMigrateRefusesNewerSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "contracts.db")
	db := openMigrateDB(t, path, Options{})
	newer := CurrentSchema() + 1
	migSetSchema(t, db, newer)
	db.Close()

	_, err := Open(path, Options{})
	if err == nil {
		t.Fatal("opened a file of a newer schema")
	}
	for _, want := range []string{path, "schema version " + strconv.FormatUint(newer, 10), "newer than this build", "upgrade"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	db = openMigrateDB(t, path, Options{ReadOnly: true})
	defer db.Close()
	if v, _ := db.SchemaVersion(); v != newer {
		t.Fatalf("the refused file was changed to schema %d", v)
	}
}
