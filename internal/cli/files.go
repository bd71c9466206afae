package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"contracts/internal/config"
	"contracts/server/pdf/pades"
)

// keptFiles are what the data directory holds besides the database and a
// backup keeps beside it: the keys that decrypt and guard what the
// database holds, the generated document seal, and the ACME account and
// certificates (a directory).
var keptFiles = []string{config.MasterKeyFile, config.AdminTokenFile, pades.CertName, pades.KeyName, config.ACMEDir}

// filesDir is where a backup's kept files go: beside the snapshot.
func filesDir(snapshot string) string { return snapshot + ".files" }

// saveFiles copies the kept files that dataDir holds into dir (mode 0700,
// replacing an older copy) and returns their names; none when dataDir
// holds none of them.
func saveFiles(dataDir, dir string) ([]string, error) {
	tmp := dir + ".partial"
	if err := os.RemoveAll(tmp); err != nil {
		return nil, err
	}
	var saved []string
	for _, name := range keptFiles {
		src := filepath.Join(dataDir, name)
		if _, err := os.Stat(src); errors.Is(err, fs.ErrNotExist) {
			continue
		} else if err != nil {
			return nil, err
		}
		if err := os.MkdirAll(tmp, 0o700); err != nil {
			return nil, err
		}
		if err := copyTree(src, filepath.Join(tmp, name), nil); err != nil {
			os.RemoveAll(tmp)
			return nil, err
		}
		saved = append(saved, name)
	}
	if len(saved) == 0 {
		return nil, nil
	}
	if err := os.RemoveAll(dir); err != nil {
		return nil, err
	}
	return saved, os.Rename(tmp, dir)
}

// restoreFiles puts the kept files saved in dir back into dataDir and
// says what it did. A file dataDir lacks is copied; one that differs is
// kept aside as <name>.before-restore-<now> and replaced, since the
// restored database needs the keys it was written with. Into acme/ only
// the files it lacks are copied: a certificate it has is at least as new.
func restoreFiles(dir, dataDir string, now time.Time) ([]string, error) {
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, err
	}
	var done []string
	for _, name := range keptFiles {
		src, dst := filepath.Join(dir, name), filepath.Join(dataDir, name)
		fi, err := os.Stat(src)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		} else if err != nil {
			return done, err
		}
		if fi.IsDir() {
			n := 0
			err := copyTree(src, dst, func(string) { n++ })
			if n > 0 {
				done = append(done, fmt.Sprintf("put %d files back into %s", n, dst))
			}
			if err != nil {
				return done, err
			}
			continue
		}
		old, err := os.ReadFile(dst)
		switch {
		case err == nil:
			saved, err := os.ReadFile(src)
			if err != nil {
				return done, err
			}
			if bytes.Equal(old, saved) {
				continue
			}
			aside := fmt.Sprintf("%s.before-restore-%s", dst, now.UTC().Format("20060102T150405Z"))
			if err := os.Rename(dst, aside); err != nil {
				return done, err
			}
			done = append(done, "kept the old "+name+" as "+aside)
		case !errors.Is(err, fs.ErrNotExist):
			return done, err
		}
		if err := copyTree(src, dst, nil); err != nil {
			return done, err
		}
		done = append(done, "put "+name+" back into "+dataDir)
	}
	return done, nil
}

// copyTree copies the file or directory src to dst, files with mode 0600
// and directories 0700 (they hold private keys), skipping files that dst
// already has; copied is told each file copied.
func copyTree(src, dst string, copied func(path string)) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o700)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if _, err := os.Lstat(target); err == nil {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if err := writeFileSynced(target, data); err != nil {
			return err
		}
		if copied != nil {
			copied(target)
		}
		return nil
	})
}

// writeFileSynced writes data to path (mode 0600) through path.partial,
// synced and renamed, so that path is never half written.
func writeFileSynced(path string, data []byte) error {
	f, err := os.OpenFile(path+".partial", os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path + ".partial")
		return err
	}
	return os.Rename(path+".partial", path)
}
