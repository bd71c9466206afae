package config

import (
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// minConns is the fewest connections a node works with: the sweeper holds
// its lock on one while it writes on another, and the webhook pool claims
// and logs while requests are served.
const minConns = 4

// validateDriver checks data.driver and, for postgres, its database and
// the secrets every node must share: each node would otherwise generate
// its own admin token and master key into its own data directory, and
// could not open the webhook secrets another node encrypted.
func (c *Config) validateDriver() error {
	switch c.Data.Driver {
	case DriverBbolt:
		return nil
	case DriverPostgres:
	default:
		return fmt.Errorf("config: data.driver: %q is not bbolt or postgres", c.Data.Driver)
	}
	p := c.Data.Postgres
	if p.URL == "" {
		return fmt.Errorf("config: data.postgres.url: required with data.driver postgres (e.g. postgres://contracts@db:5432/contracts)")
	}
	if _, err := pgx.ParseConfig(p.URL); err != nil {
		return fmt.Errorf("config: data.postgres.url: %v", err)
	}
	if p.MaxConns < minConns || p.MaxConns > 1000 {
		return fmt.Errorf("config: data.postgres.maxConns: must be %d to 1000", minConns)
	}
	if p.Timeout < time.Second {
		return fmt.Errorf("config: data.postgres.timeout: at least 1s, with a unit (e.g. 15s)")
	}
	if c.Admin.Token == "" {
		return fmt.Errorf("config: admin.token: required with data.driver postgres, the same on every node (at least 32 characters; e.g. CONTRACTS_ADMIN__TOKEN)")
	}
	if c.Secrets.MasterKey == "" {
		return fmt.Errorf("config: secrets.masterKey: required with data.driver postgres, the same on every node (at least 32 characters; e.g. CONTRACTS_SECRETS__MASTERKEY)")
	}
	return nil
}
