package storage

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// CheckFile opens the database file at path read-only and checks that it
// carries a schema version this build reads: what a backup must pass
// before it is kept or restored.
func CheckFile(path string) error {
	db, err := Open(path, Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		return err
	}
	defer db.Close()
	v, err := db.SchemaVersion()
	if err == nil && (v == 0 || v > CurrentSchema()) {
		err = fmt.Errorf("%s: schema version %d is not one this build reads", path, v)
	}
	return err
}

// Restore puts the database file from in place of target, which no
// process may be using, and keeps the old target beside it as
// <target>.before-restore-<now, UTC>, whose path it returns ("" when there
// was none). from must pass CheckFile.
func Restore(from, target string, now time.Time) (aside string, err error) {
	if err := CheckFile(from); err != nil {
		return "", err
	}
	if _, err := os.Stat(target); err == nil {
		// Taking the lock proves no appliance is running on this file.
		db, err := Open(target, Options{ReadOnly: true, Timeout: 500 * time.Millisecond})
		if err != nil {
			return "", fmt.Errorf("refusing: %w", err)
		}
		db.Close()
		aside = fmt.Sprintf("%s.before-restore-%s", target, now.UTC().Format("20060102T150405Z"))
		if err := os.Rename(target, aside); err != nil {
			return "", err
		}
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o700); err != nil {
		return aside, err
	}
	return aside, copyFile(from, target)
}

// copyFile copies src to dst through dst.partial, synced, then renamed:
// dst is never half written.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst+".partial", os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Sync(); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	return os.Rename(dst+".partial", dst)
}
