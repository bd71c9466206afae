package storage_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"
	"contracts/storage"

	bolt "go.etcd.io/bbolt"
)

// Schema 10 makes every template of the committed schema-1 file version 1,
// kept among the versions with every other key as it was; the old
// contracts read that version, and the template takes a second one.
func TestUpgradeMakesTemplatesVersionOne(t *testing.T) {
	var m v1Manifest
	data, err := os.ReadFile(filepath.Join("testdata", "schema-v1.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "contracts.db")
	copyFile(t, filepath.Join("testdata", "schema-v1.db"), path)
	var fixtureRecord map[string]any
	readRecord(t, path, m.TemplateID, &fixtureRecord)

	db, err := storage.Open(path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	check := func(db *storage.DB, when string) {
		t.Helper()
		svc := signflow.NewService(db, fixture.Configured(signflow.Options{Now: time.Now}))
		versions, err := svc.AdminTemplateVersions(m.TemplateID)
		if err != nil || len(versions) != 1 || versions[0].Version != 1 || versions[0].Body.UZ == "" {
			t.Fatalf("%s: %d versions (%v)", when, len(versions), err)
		}
		err = db.View(func(tx signflow.Tx) error {
			for _, c := range m.Contracts {
				got, err := tx.Contract(c.ID)
				if err != nil {
					return err
				}
				v, err := svc.AdminContract(got.ID)
				if err != nil || v.Template.Version != 1 || v.Template.Body != versions[0].Body {
					t.Fatalf("%s: contract %s reads template version %d (%v)", when, c.Number, v.Template.Version, err)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	check(db, "from schema 1")
	db = rollBack(t, db, 9, func(btx *bolt.Tx) error {
		if err := btx.DeleteBucket([]byte("template_versions")); err != nil {
			return err
		}
		return btx.Bucket([]byte("templates")).ForEach(func(k, v []byte) error {
			var rec map[string]any
			if err := json.Unmarshal(v, &rec); err != nil {
				return err
			}
			delete(rec, "version")
			out, _ := json.Marshal(rec)
			return btx.Bucket([]byte("templates")).Put(k, out)
		})
	})
	check(db, "from schema 9")
	db.Close()
	var upgraded map[string]any
	readRecord(t, path, m.TemplateID, &upgraded)
	if upgraded["version"] != 1.0 {
		t.Fatalf("the upgraded record's version: %v", upgraded["version"])
	}
	delete(upgraded, "version")
	a, _ := json.Marshal(upgraded)
	b, _ := json.Marshal(fixtureRecord)
	if string(a) != string(b) {
		t.Fatalf("the upgrade changed more than the version:\n%s\n%s", a, b)
	}
}

// readRecord decodes a template record of the file at path as it is stored.
func readRecord(t *testing.T, path, id string, v any) {
	t.Helper()
	b, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := b.View(func(btx *bolt.Tx) error { return json.Unmarshal(btx.Bucket([]byte("templates")).Get([]byte(id)), v) }); err != nil {
		t.Fatal(err)
	}
}
