package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"contracts/internal/config"
	"contracts/internal/migrate"
	"contracts/signflow/secretbox"
	"contracts/storage"
	"contracts/storage/postgres"

	"github.com/spf13/pflag"
)

// migrateCommand copies a bbolt data file into the empty PostgreSQL
// database of a configuration (internal/migrate), with a progress bar on
// standard error and the counts on both sides on standard output.
func migrateCommand(ctx context.Context, args []string, env Env) error {
	fs := pflag.NewFlagSet("migrate", pflag.ContinueOnError)
	config.AddFlags(fs)
	from := fs.String("from", "", "the bbolt data file to copy, e.g. data/contracts.db (its appliance stopped)")
	to := fs.String("to", "", `"postgres": the database of the configuration's data.postgres.url`)
	fromKey := fs.String("from-master-key", "", "the master key the bbolt appliance ran with; default: master.key beside the file")
	if err := parseFlags(fs, args, env, commandUsage(fs, "migrate --from data/contracts.db --to postgres --config FILE",
		"Copy a bbolt file into the empty PostgreSQL database of the configuration (appliance stopped).")); err != nil {
		return err
	}
	if *from == "" || *to != "postgres" {
		return fmt.Errorf("migrate: usage: contracts migrate --from data/contracts.db --to postgres --config FILE")
	}
	cfg, err := config.Load(fs, env.Environ)
	if err != nil {
		return err
	}
	if !cfg.Data.IsPostgres() {
		return fmt.Errorf("migrate: the configuration's data.driver is %s: set data.driver: postgres and data.postgres.url", cfg.Data.Driver)
	}
	fromDir := filepath.Dir(*from)
	key := *fromKey
	if key == "" {
		data, err := os.ReadFile(filepath.Join(fromDir, config.MasterKeyFile))
		if err != nil {
			return fmt.Errorf("migrate: the bbolt side's master key: %w; give the key the bbolt appliance ran with (secrets.masterKey) as --from-master-key", err)
		}
		key = strings.TrimSpace(string(data))
	}
	fromBox, err := secretbox.New([]byte(key))
	if err != nil {
		return fmt.Errorf("migrate: the bbolt side's master key: %w", err)
	}
	toBox, err := secretbox.New([]byte(cfg.Secrets.MasterKey))
	if err != nil {
		return fmt.Errorf("migrate: secrets.masterKey: %w", err)
	}
	if _, err := os.Stat(*from); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	// Opened as the appliance opens it: an older file is brought to this
	// build's schema first (with its own snapshot beside it).
	src, err := storage.Open(*from, storage.Options{})
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer src.Close()
	p := cfg.Data.Postgres
	dst, err := postgres.Open(ctx, p.URL, postgres.Options{MaxConns: int32(p.MaxConns), Timeout: p.Timeout})
	if err != nil {
		return fmt.Errorf("migrate: data.postgres.url: %w", err)
	}
	defer dst.Close()
	bar := &progressBar{w: env.Stderr, last: -1}
	counts, err := migrate.Copy(ctx, src, dst, migrate.Options{FromDir: fromDir, FromBox: fromBox, ToBox: toBox, Progress: bar.show})
	bar.end()
	if len(counts) > 0 {
		fmt.Fprintf(env.Stdout, "%-18s %10s %10s\n", "records", "bbolt", "postgres")
		for _, c := range counts {
			fmt.Fprintf(env.Stdout, "%-18s %10d %10d\n", c.Bucket, c.From, c.To)
		}
	}
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	fmt.Fprintf(env.Stdout, "migrate: %s copied into the database; start the nodes with data.driver postgres\n", *from)
	return nil
}

// progressBar draws how far a copy is on one line of a terminal.
type progressBar struct {
	w    io.Writer
	last int // the percentage drawn last
}

func (b *progressBar) show(done, total int) {
	pct := 100
	if total > 0 {
		pct = done * 100 / total
	}
	if pct == b.last {
		return
	}
	b.last = pct
	const width = 40
	fill := pct * width / 100
	fmt.Fprintf(b.w, "\rmigrate [%s%s] %3d%% %d/%d records", strings.Repeat("#", fill), strings.Repeat(".", width-fill), pct, done, total)
}

func (b *progressBar) end() {
	if b.last >= 0 {
		fmt.Fprintln(b.w)
	}
}
