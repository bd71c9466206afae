// Command contracts is a self-hosted contract-signing appliance: one binary
// serving the embedded and key interfaces, the signing page and an admin API
// over one bbolt file.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

const usage = `usage: contracts <command> [flags]

commands:
  serve [--config FILE] [--demo]   run the appliance
  admin <owner|template|app|key|delivery> ...
                                   call the admin API (run "contracts admin" for help)
  backup --out FILE                write a consistent snapshot of the running appliance
  restore --from FILE              put a backup in place (appliance stopped)
  bench [--clients N] [--duration D]
                                   load-test this binary on loopback against its baselines
  version                          print the version
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := runCommand(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "contracts:", err)
		os.Exit(1)
	}
}

func runCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return fmt.Errorf("no command given")
	}
	switch args[0] {
	case "serve":
		return serveCommand(ctx, args[1:], stdout)
	case "admin":
		return adminCommand(ctx, args[1:], stdout)
	case "backup":
		return backupCommand(ctx, args[1:], stdout)
	case "restore":
		return restoreCommand(args[1:], stdout)
	case "bench":
		return benchCommand(ctx, args[1:], stdout)
	case "version", "--version", "-v":
		fmt.Fprintln(stdout, "contracts", version)
		return nil
	case "help", "--help", "-h":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", args[0])
}
