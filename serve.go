package main

import (
	"context"
	"io"
	"os"

	"contracts/internal/appliance"
	"contracts/internal/config"

	"github.com/spf13/pflag"
)

func serveCommand(ctx context.Context, args []string, stdout io.Writer) error {
	fs := pflag.NewFlagSet("serve", pflag.ContinueOnError)
	config.AddFlags(fs)
	demo := fs.Bool("demo", false, "seed demo data once, print its credentials and serve the /demo page")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cfg, err := config.Load(fs, os.Environ())
	if err != nil {
		return err
	}
	appliance.TuneRuntime()
	return appliance.Run(ctx, cfg, appliance.Options{Demo: *demo, Stdout: stdout, Log: os.Stderr})
}
