package cli

import (
	"context"

	"contracts/internal/appliance"
	"contracts/internal/config"

	"github.com/spf13/pflag"
)

// serveCommand runs the appliance until ctx ends (SIGINT or SIGTERM).
func serveCommand(ctx context.Context, args []string, env Env) error {
	fs := pflag.NewFlagSet("serve", pflag.ContinueOnError)
	config.AddFlags(fs)
	demo := fs.Bool("demo", false, "seed demo data once, print its credentials and serve the /demo page")
	if err := parseFlags(fs, args, env, commandUsage(fs, "serve [--config FILE] [--demo]",
		"Run the appliance until SIGINT or SIGTERM.")); err != nil {
		return err
	}
	cfg, err := config.Load(fs, env.Environ)
	if err != nil {
		return err
	}
	appliance.TuneRuntime()
	return appliance.Run(ctx, cfg, appliance.Options{Demo: *demo, Stdout: env.Stdout, Log: env.Stderr})
}
