// Package cli is the contracts command line: serve, admin, backup,
// restore, migrate (a bbolt file into PostgreSQL), bench, ready, version.
// main calls Run; the end-to-end tests call it too, in their own process.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"
)

// Env is what a command runs with besides its arguments.
type Env struct {
	Stdout, Stderr io.Writer
	Environ        []string // "NAME=value" pairs, as os.Environ gives them
	Version        string   // the build's version, printed by "contracts version"
}

// getenv is the value of name in the command's environment.
func (e Env) getenv(name string) string {
	for _, kv := range e.Environ {
		if k, v, ok := strings.Cut(kv, "="); ok && k == name {
			return v
		}
	}
	return ""
}

// Usage is the command summary printed by "contracts help".
const Usage = `usage: contracts <command> [flags]

commands:
  serve [--config FILE] [--demo]   run the appliance
  admin <owner|template|app|key|delivery> ...
                                   call the admin API ("contracts admin --help" lists them)
  backup --out FILE                write a consistent snapshot of the running appliance
                                   (and, on its host, the data directory's keys beside it)
  restore --from FILE              put a backup in place (appliance stopped)
  migrate --from data/contracts.db --to postgres --config FILE
                                   copy a bbolt file into the empty PostgreSQL database of
                                   the configuration (appliance stopped)
  bench [--clients N] [--duration D]
                                   load-test this binary on loopback against its baselines
  ready [--url URL]                exit 0 when the appliance answers /readyz with 200
                                   (a container health check)
  version                          print the version

"contracts <command> --help" explains a command's flags. Build this binary
from the source tree with "go build -o contracts .".
`

// errHelped ends a command whose --help was printed: not a failure.
var errHelped = errors.New("help printed")

// parseFlags parses a command's flags; on --help it prints usage() to
// stdout and returns errHelped, and a bad flag names the command.
func parseFlags(fs *pflag.FlagSet, args []string, env Env, usage func() string) error {
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	err := fs.Parse(args)
	if errors.Is(err, pflag.ErrHelp) {
		fmt.Fprint(env.Stdout, usage())
		return errHelped
	}
	if err != nil {
		return fmt.Errorf("%s: %w (run \"contracts %s --help\")", fs.Name(), err, fs.Name())
	}
	return nil
}

// commandUsage is the --help of a command without subcommands.
func commandUsage(fs *pflag.FlagSet, synopsis, about string) func() string {
	return func() string {
		return fmt.Sprintf("usage: contracts %s\n\n%s\n\nflags:\n%s", synopsis, about, fs.FlagUsages())
	}
}

// Run runs the command named by args[0] until it is done or ctx ends.
func Run(ctx context.Context, args []string, env Env) error {
	err := run(ctx, args, env)
	if errors.Is(err, errHelped) {
		return nil
	}
	return err
}

func run(ctx context.Context, args []string, env Env) error {
	if env.Stdout == nil {
		env.Stdout = io.Discard
	}
	if env.Stderr == nil {
		env.Stderr = io.Discard
	}
	if len(args) == 0 {
		fmt.Fprint(env.Stderr, Usage)
		return fmt.Errorf("no command given")
	}
	switch args[0] {
	case "serve":
		return serveCommand(ctx, args[1:], env)
	case "admin":
		return adminCommand(ctx, args[1:], env)
	case "backup":
		return backupCommand(ctx, args[1:], env)
	case "restore":
		return restoreCommand(args[1:], env)
	case "migrate":
		return migrateCommand(ctx, args[1:], env)
	case "ready":
		return readyCommand(ctx, args[1:], env)
	case "bench":
		return benchCommand(ctx, args[1:], env)
	case "version", "--version", "-v":
		fmt.Fprintln(env.Stdout, "contracts", env.Version)
		return nil
	case "help", "--help", "-h":
		fmt.Fprint(env.Stdout, Usage)
		return nil
	}
	fmt.Fprint(env.Stderr, Usage)
	return fmt.Errorf("unknown command %q", args[0])
}
