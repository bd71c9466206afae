package cli

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"contracts/internal/config"
	"contracts/internal/loadgen"

	"github.com/spf13/pflag"
)

// benchCommand runs the load generator against this very binary, started
// on loopback ports in a temporary data directory (internal/loadgen).
func benchCommand(ctx context.Context, args []string, env Env) error {
	fs := pflag.NewFlagSet("bench", pflag.ContinueOnError)
	clients := fs.Int("clients", 50, "concurrent clients (keep-alive connections)")
	duration := fs.Duration("duration", 5*time.Second, "measured time per route")
	warmup := fs.Duration("warmup", time.Second, "unmeasured warm-up per route")
	maxRequests := fs.Int("max-requests", 500_000, "at most this many requests per route")
	routes := fs.String("routes", "", "comma-separated subset of: "+strings.Join(loadgen.Routes, ",")+",raw (default all)")
	logLevel := fs.String("log-level", "info", "the server's log.level (info writes one access line per request, as in production)")
	batchDelay := fs.Duration("batch-delay", config.Default().Data.BatchDelay, "data.batchDelay of the server and of the raw bbolt baseline")
	keep := fs.Bool("keep", false, "keep the temporary data directory")
	rounds := fs.Int("rounds", 3, "slices in which each budgeted route alternates with its baseline")
	check := fs.Bool("check", false, "exit non-zero when a budget is missed or a request failed")
	echoServer := fs.Bool("echo-server", false, "internal: serve the baselines (bare echo /ping, raw bbolt /put and /get/N, /hook; /pg/put and /pg/get/N with a URL in "+loadgen.EchoPostgresEnv+") until stdin closes")
	table := fs.Bool("table", false, "instead of the route run: the performance table, each row a ratio to its baseline of the same run (rows above)")
	rows := fs.String("rows", "", "with --table, a comma-separated subset of: "+tableKeys()+" (default all)")
	tableContracts := fs.Int("contracts", loadgen.TableContracts, "with --table, the contracts the random reads pick among")
	postgres := fs.String("postgres", "", "with --table, a PostgreSQL URL: measure the pg rows there (the appliance in a new database it drops after, the baseline's table in the URL's database)")
	noWrk := fs.Bool("no-wrk", false, "drive the budgeted routes with this process's client even where wrk is installed")
	fill := fs.Int("fill", 0, "instead of a load run: write this many contracts of one owner into the bbolt file --data (no appliance running on it)")
	fillData := fs.String("data", "data/contracts.db", "the bbolt file --fill writes and --latency reads")
	fillWorkers := fs.Int("fill-workers", 256, "concurrent writers of --fill (bbolt batches their creates)")
	serveBinary := fs.String("binary", "", "the contracts binary --latency serves the file with (default: this one), to compare builds on one file")
	latency := fs.Bool("latency", false, "instead of a load run: serve the file --data that --fill wrote and time each key-interface list and search shape from one client (--duration and --max-requests per shape)")
	if err := parseFlags(fs, args, env, commandUsage(fs, "bench [flags]",
		"Load-test this binary on loopback ports against its baselines.\n\n"+tableHelp())); err != nil {
		return err
	}
	if *echoServer {
		dir, err := os.MkdirTemp("", "contracts-baseline-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		return loadgen.ServeEcho(os.Stdin, env.Stdout, dir, *batchDelay, env.getenv(loadgen.EchoPostgresEnv))
	}
	if *fill > 0 {
		key, _ := os.ReadFile(filepath.Join(filepath.Dir(*fillData), config.MasterKeyFile))
		f, err := loadgen.Fill(ctx, *fillData, strings.TrimSpace(string(key)), *fill, *fillWorkers, env.Stdout)
		if err != nil {
			return fmt.Errorf("bench --fill: %w", err)
		}
		fmt.Fprintf(env.Stdout, "fill: %d contracts in %s (%.0f/s) into %s\ntemplate %s\napp %s secret %s\nkey %s\n",
			f.Contracts, f.Took.Round(time.Millisecond), float64(f.Contracts)/f.Took.Seconds(), *fillData, f.TemplateID, f.AppID, f.AppSecret, f.Key)
		return nil
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	if *latency {
		if *serveBinary != "" {
			exe = *serveBinary
		}
		if _, err := loadgen.Latency(ctx, exe, *fillData, *duration, *maxRequests, env.Stdout); err != nil {
			return fmt.Errorf("bench --latency: %w", err)
		}
		return nil
	}
	cfg := loadgen.Config{Binary: exe, Clients: *clients, Duration: *duration, Warmup: *warmup, MaxRequests: *maxRequests,
		LogLevel: *logLevel, BatchDelay: *batchDelay, Keep: *keep, Rounds: *rounds, Postgres: *postgres}
	if *routes != "" {
		cfg.Routes = strings.Split(*routes, ",")
	}
	if path, err := exec.LookPath("wrk"); err == nil && !*noWrk {
		cfg.Wrk = path // the shared kit's driver, as ratio.sh runs it
	}
	if *table {
		var keys []string
		if *rows != "" {
			keys = strings.Split(*rows, ",")
		}
		rep, err := loadgen.Table(ctx, cfg, keys, *tableContracts, env.Stdout)
		if err != nil {
			return fmt.Errorf("bench --table: %w", err)
		}
		rep.Print(env.Stdout)
		if p := rep.Problems(); *check && len(p) > 0 {
			return fmt.Errorf("bench --table: %d problems", len(p))
		}
		return nil
	}
	rep, err := loadgen.Run(ctx, cfg, env.Stdout)
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	rep.Print(env.Stdout)
	if p := rep.Problems(); *check && len(p) > 0 {
		return fmt.Errorf("bench: %d problems", len(p))
	}
	return nil
}

func tableKeys() string {
	keys := make([]string, len(loadgen.TableRows))
	for i, r := range loadgen.TableRows {
		keys[i] = r.Key
	}
	return strings.Join(keys, ",")
}

// tableHelp lists the rows of --table with the shared kit's command that
// reproduces each (docs/operations.md).
func tableHelp() string {
	var b strings.Builder
	b.WriteString("--table rows (--rows KEY,...), each with the shared kit's command that measures it:\n")
	for _, r := range loadgen.TableRows {
		fmt.Fprintf(&b, "  %-9s %s, vs %s (budget ≥ %.2f): %s\n", r.Key, r.Work, r.Baseline, r.Budget, r.Kit)
	}
	return b.String()
}
