package cli

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"contracts/internal/config"

	"github.com/spf13/pflag"
)

// readyCommand asks the appliance of the configuration whether it is
// ready (GET /readyz on the admin listener): exit 0 when it answers 200.
// A container health check can run it where no curl is (distroless).
func readyCommand(ctx context.Context, args []string, env Env) error {
	fs := pflag.NewFlagSet("ready", pflag.ContinueOnError)
	config.AddFlags(fs)
	url := fs.String("url", "", "admin listener base URL; default: from admin.listen")
	if err := parseFlags(fs, args, env, commandUsage(fs, "ready [--url URL]",
		"Exit 0 when the appliance answers /readyz with 200 (a container health check).")); err != nil {
		return err
	}
	cfg, err := config.Load(fs, env.Environ)
	if err != nil {
		return err
	}
	base := *url
	if base == "" {
		base = adminURL(cfg)
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/readyz", nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("ready: %w", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("ready: %s: %s", resp.Status, body)
	}
	fmt.Fprintf(env.Stdout, "%s\n", body)
	return nil
}
