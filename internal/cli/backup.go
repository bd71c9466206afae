package cli

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"contracts/internal/config"
	"contracts/storage"

	"github.com/spf13/pflag"
)

// backupCommand fetches a hot snapshot from the running appliance's admin
// API, writes it beside the target, checks that it opens, then renames it.
// On the appliance's host it also copies the data directory's keys beside
// it (keptFiles).
func backupCommand(ctx context.Context, args []string, env Env) error {
	fs := pflag.NewFlagSet("backup", pflag.ContinueOnError)
	config.AddFlags(fs)
	out := fs.String("out", "", "file to write the snapshot to")
	url := fs.String("url", "", "admin API base URL (default http://<admin.listen>)")
	token := fs.String("token", "", "admin token (default $CONTRACTS_ADMIN_TOKEN, admin.token, <data.dir>/admin.token)")
	if err := parseFlags(fs, args, env, commandUsage(fs, "backup --out FILE",
		"Write a consistent snapshot of the running appliance (and, on its host, the data directory's keys beside it).")); err != nil {
		return err
	}
	if *out == "" {
		return fmt.Errorf("backup: --out FILE is required")
	}
	cfg, err := config.Load(fs, env.Environ)
	if err != nil {
		return err
	}
	if cfg.Data.IsPostgres() {
		return errPgDump("backup")
	}
	c, _ := newAdminClient(cfg, env, *url, *token, 30*time.Minute)
	tmp := *out + ".partial"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	n, err := c.Backup(ctx, f)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = storage.CheckFile(tmp)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("backup: %w", err)
	}
	if err := os.Rename(tmp, *out); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "backup: wrote %d bytes to %s\n", n, *out)
	saved, err := saveFiles(cfg.Data.Dir, filesDir(*out))
	switch {
	case err != nil:
		return fmt.Errorf("backup: the database is saved, its keys are not: %w", err)
	case len(saved) == 0:
		fmt.Fprintf(env.Stdout, "backup: none of %s is in %s on this host: where the appliance keeps them, copy them yourself\n",
			strings.Join(keptFiles, ", "), cfg.Data.Dir)
	default:
		fmt.Fprintf(env.Stdout, "backup: copied %s from %s to %s\n", strings.Join(saved, ", "), cfg.Data.Dir, filesDir(*out))
	}
	return nil
}

// restoreCommand puts a backup in place of the database, and the keys
// saved beside it back into the data directory. It refuses while another
// process holds the database, and keeps what it replaces aside.
func restoreCommand(args []string, env Env) error {
	fs := pflag.NewFlagSet("restore", pflag.ContinueOnError)
	config.AddFlags(fs)
	from := fs.String("from", "", "backup file to restore")
	if err := parseFlags(fs, args, env, commandUsage(fs, "restore --from FILE",
		"Put a backup in place of the database, with the appliance stopped.")); err != nil {
		return err
	}
	if *from == "" {
		return fmt.Errorf("restore: --from FILE is required")
	}
	cfg, err := config.Load(fs, env.Environ)
	if err != nil {
		return err
	}
	if cfg.Data.IsPostgres() {
		return errPgDump("restore")
	}
	now := time.Now()
	aside, err := storage.Restore(*from, cfg.DBPath(), now)
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	if aside != "" {
		fmt.Fprintf(env.Stdout, "restore: kept the old database as %s\n", aside)
	}
	fmt.Fprintf(env.Stdout, "restore: %s is now %s\n", cfg.DBPath(), *from)
	restored, err := restoreFiles(filesDir(*from), cfg.Data.Dir, now)
	if err != nil {
		return fmt.Errorf("restore: the database is restored, its keys are not: %w", err)
	}
	for _, r := range restored {
		fmt.Fprintf(env.Stdout, "restore: %s\n", r)
	}
	return nil
}

// errPgDump refuses a bbolt backup or restore where the data lives in
// PostgreSQL.
func errPgDump(cmd string) error {
	return fmt.Errorf("%s: data.driver is postgres: back the database up with pg_dump and restore it with pg_restore (docs/operations.md)", cmd)
}
