package cli

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// writeTree writes files (path relative to dir -> content) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// readTree reads every file under dir, checking that directories are
// 0700 and files 0600.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	got := map[string]string{}
	err := filepath.Walk(dir, func(path string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if want := os.FileMode(0o600); fi.IsDir() {
			want = 0o700
			if fi.Mode().Perm() != want {
				t.Errorf("%s: mode %v, want %v", rel, fi.Mode().Perm(), want)
			}
		} else {
			if fi.Mode().Perm() != want {
				t.Errorf("%s: mode %v, want %v", rel, fi.Mode().Perm(), want)
			}
			data, err := os.ReadFile(path)
			got[rel] = string(data)
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestSaveFiles(t *testing.T) {
	root := t.TempDir()
	data, out := filepath.Join(root, "data"), filepath.Join(root, "backup.db.files")
	kept := map[string]string{"master.key": "m1", "admin.token": "t1", "seal.crt": "c1", "seal.key": "k1",
		"acme/acme_account+key": "a1", "acme/contracts.example": "cert1"}
	writeTree(t, data, kept)
	writeTree(t, data, map[string]string{"contracts.db": "the database is saved apart", "notes.txt": "not kept"})

	saved, err := saveFiles(data, out)
	if err != nil || !reflect.DeepEqual(saved, []string{"master.key", "admin.token", "seal.crt", "seal.key", "acme"}) {
		t.Fatalf("saved %v, %v", saved, err)
	}
	if got := readTree(t, out); !reflect.DeepEqual(got, kept) {
		t.Fatalf("saved files %v, want %v", got, kept)
	}

	// A later backup to the same name replaces the older copy whole.
	os.RemoveAll(filepath.Join(data, "acme"))
	os.Remove(filepath.Join(data, "seal.crt"))
	os.Remove(filepath.Join(data, "seal.key"))
	writeTree(t, data, map[string]string{"master.key": "m2"})
	if saved, err := saveFiles(data, out); err != nil || len(saved) != 2 {
		t.Fatalf("second save: %v %v", saved, err)
	}
	if got := readTree(t, out); !reflect.DeepEqual(got, map[string]string{"master.key": "m2", "admin.token": "t1"}) {
		t.Fatalf("after the second save: %v", got)
	}

	// A data directory that is not here, or holds none: nothing is written.
	for _, dir := range []string{filepath.Join(root, "elsewhere"), filepath.Join(root, "empty")} {
		os.MkdirAll(filepath.Join(root, "empty"), 0o700)
		target := filepath.Join(root, filepath.Base(dir)+".files")
		if saved, err := saveFiles(dir, target); err != nil || saved != nil {
			t.Fatalf("%s: %v %v", dir, saved, err)
		}
		if _, err := os.Stat(target); !os.IsNotExist(err) {
			t.Fatalf("%s: wrote %s", dir, target)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(root, "*.partial")); len(left) != 0 {
		t.Fatalf("left behind: %v", left)
	}
}

func TestRestoreFiles(t *testing.T) {
	root := t.TempDir()
	saved := filepath.Join(root, "backup.db.files")
	writeTree(t, saved, map[string]string{"master.key": "m-backup", "admin.token": "t", "seal.crt": "c", "seal.key": "k",
		"acme/acme_account+key": "account", "acme/contracts.example": "old cert", "acme/api.contracts.example": "api cert"})
	now := time.Date(2026, 11, 22, 9, 30, 0, 0, time.UTC)

	// Onto a new host: everything is put back.
	fresh := filepath.Join(root, "fresh")
	done, err := restoreFiles(saved, fresh, now)
	if err != nil || len(done) != 5 {
		t.Fatalf("restore onto a new host: %q %v", done, err)
	}
	if got, want := readTree(t, fresh), readTree(t, saved); !reflect.DeepEqual(got, want) {
		t.Fatalf("restored %v, want %v", got, want)
	}

	// Onto the host it came from, later: the same keys stay untouched, a
	// different master key is kept aside and replaced, and a certificate
	// renewed since stays.
	data := filepath.Join(root, "data")
	writeTree(t, data, map[string]string{"master.key": "m-other", "admin.token": "t", "seal.crt": "c", "seal.key": "k",
		"acme/acme_account+key": "account", "acme/contracts.example": "renewed cert"})
	done, err = restoreFiles(saved, data, now)
	want := []string{"kept the old master.key as " + filepath.Join(data, "master.key.before-restore-20261122T093000Z"),
		"put master.key back into " + data, "put 1 files back into " + filepath.Join(data, "acme")}
	if err != nil || !reflect.DeepEqual(done, want) {
		t.Fatalf("restore onto its host:\n got %q %v\nwant %q", done, err, want)
	}
	got := readTree(t, data)
	for name, content := range map[string]string{"master.key": "m-backup", "master.key.before-restore-20261122T093000Z": "m-other",
		"acme/contracts.example": "renewed cert", "acme/api.contracts.example": "api cert"} {
		if got[name] != content {
			t.Errorf("%s: %q, want %q", name, got[name], content)
		}
	}
	for name := range got {
		if strings.HasSuffix(name, ".partial") {
			t.Errorf("left behind: %s", name)
		}
	}

	// A backup without kept files restores none.
	if done, err := restoreFiles(filepath.Join(root, "none.files"), data, now); err != nil || done != nil {
		t.Fatalf("no saved files: %q %v", done, err)
	}
}
