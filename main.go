// Command contracts is a self-hosted contract-signing appliance: one binary
// serving the embedded and key interfaces, the signing page, the cabinet and
// an admin API over one bbolt file, or over one PostgreSQL database shared by
// several nodes. The commands live in internal/cli.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"contracts/internal/cli"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	env := cli.Env{Stdout: os.Stdout, Stderr: os.Stderr, Environ: os.Environ(), Version: version}
	if err := cli.Run(ctx, os.Args[1:], env); err != nil {
		fmt.Fprintln(os.Stderr, "contracts:", err)
		os.Exit(1)
	}
}
