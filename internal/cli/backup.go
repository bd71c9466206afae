package main

import (
	"context"
	"contracts/internal/config"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"contracts/storage"

	"github.com/spf13/pflag"
)

// backupCommand fetches a hot snapshot from the running appliance's admin
// API, writes it beside the target, checks that it opens, then renames it.
func backupCommand(ctx context.Context, args []string, stdout io.Writer) error {
	fs := pflag.NewFlagSet("backup", pflag.ContinueOnError)
	config.AddFlags(fs)
	out := fs.String("out", "", "file to write the snapshot to")
	url := fs.String("url", "", "admin API base URL")
	token := fs.String("token", "", "admin token")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" {
		return fmt.Errorf("backup: --out FILE is required")
	}
	cfg, err := config.Load(fs, os.Environ())
	if err != nil {
		return err
	}
	c := &adminClient{url: *url, token: *token, http: &http.Client{Timeout: 30 * time.Minute}}
	if c.url == "" {
		c.url = adminURL(cfg)
	}
	if c.token == "" {
		c.token = adminToken(cfg)
	}
	req, err := http.NewRequestWithContext(ctx, "GET", c.url+"/admin/v1/backup", nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("backup: admin API at %s: %w", c.url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("backup: admin API answered %s", resp.Status)
	}
	tmp := *out + ".partial"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	n, err := io.Copy(f, resp.Body)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = checkDBFile(tmp)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("backup: %w", err)
	}
	if err := os.Rename(tmp, *out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "backup: wrote %d bytes to %s\n", n, *out)
	return nil
}

// checkDBFile opens a database file read-only and reads its schema version.
func checkDBFile(path string) error {
	db, err := storage.Open(path, storage.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		return err
	}
	defer db.Close()
	v, err := db.SchemaVersion()
	if err == nil && (v == 0 || v > storage.CurrentSchema()) {
		err = fmt.Errorf("%s: schema version %d is not one this build reads", path, v)
	}
	return err
}

// restoreCommand puts a backup in place of the database. It refuses while
// another process holds the database, and keeps the old file aside.
func restoreCommand(args []string, stdout io.Writer) error {
	fs := pflag.NewFlagSet("restore", pflag.ContinueOnError)
	config.AddFlags(fs)
	from := fs.String("from", "", "backup file to restore")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *from == "" {
		return fmt.Errorf("restore: --from FILE is required")
	}
	cfg, err := config.Load(fs, os.Environ())
	if err != nil {
		return err
	}
	if err := checkDBFile(*from); err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	target := cfg.DBPath()
	if _, err := os.Stat(target); err == nil {
		// Taking the lock proves no appliance is running on this file.
		db, err := storage.Open(target, storage.Options{ReadOnly: true, Timeout: 500 * time.Millisecond})
		if err != nil {
			return fmt.Errorf("restore: refusing: %w", err)
		}
		db.Close()
		aside := fmt.Sprintf("%s.before-restore-%s", target, time.Now().UTC().Format("20060102T150405Z"))
		if err := os.Rename(target, aside); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "restore: kept the old database as %s\n", aside)
	}
	if err := copyFile(*from, target); err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	fmt.Fprintf(stdout, "restore: %s is now %s\n", target, *from)
	return nil
}

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
