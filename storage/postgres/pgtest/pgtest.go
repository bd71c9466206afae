// Package pgtest gives tests fresh databases on the throwaway PostgreSQL
// cluster whose URL is in CONTRACTS_TEST_POSTGRES (.ci/postgres starts
// one). Without it a test skips, or fails when CONTRACTS_REQUIRE_TOOLS=1
// says that every tool must be there.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	"contracts/internal/config"
	"contracts/storage/postgres"

	"github.com/jackc/pgx/v5"
)

// EnvURL names the variable holding the cluster's URL, for a user who may
// create databases.
const EnvURL = "CONTRACTS_TEST_POSTGRES"

// ClusterURL returns the cluster's URL, skipping or failing the test when
// there is none.
func ClusterURL(tb testing.TB) string {
	tb.Helper()
	u := os.Getenv(EnvURL)
	if u == "" {
		const how = "start a cluster with: eval \"$(.ci/postgres start)\""
		if os.Getenv("CONTRACTS_REQUIRE_TOOLS") == "1" {
			tb.Fatalf("%s is not set and CONTRACTS_REQUIRE_TOOLS=1; %s", EnvURL, how)
		}
		tb.Skipf("%s is not set; %s", EnvURL, how)
	}
	return u
}

// NewDatabase creates an empty database on the cluster and returns its
// URL; the database is dropped when the test ends.
func NewDatabase(tb testing.TB) string {
	tb.Helper()
	cluster := ClusterURL(tb)
	u, err := url.Parse(cluster)
	if err != nil {
		tb.Fatalf("%s: %v", EnvURL, err)
	}
	b := make([]byte, 8)
	rand.Read(b)
	name := "contracts_test_" + hex.EncodeToString(b)
	admin := func(sql string) error {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		conn, err := pgx.Connect(ctx, cluster)
		if err != nil {
			return err
		}
		defer conn.Close(ctx)
		_, err = conn.Exec(ctx, sql)
		return err
	}
	if err := admin("CREATE DATABASE " + name); err != nil {
		tb.Fatalf("create a test database on %s: %v", EnvURL, err)
	}
	tb.Cleanup(func() {
		if err := admin("DROP DATABASE " + name + " WITH (FORCE)"); err != nil {
			tb.Errorf("drop the test database %s: %v", name, err)
		}
	})
	u.Path = "/" + name
	return u.String()
}

// Open opens a store on a fresh database.
func Open(tb testing.TB) *postgres.Store {
	tb.Helper()
	return OpenURL(tb, NewDatabase(tb))
}

// Options are a store's options of the built-in configuration
// (data.postgres.*), the pool's size left to pgx.
func Options() postgres.Options {
	return postgres.Options{Timeout: config.Default().Data.Postgres.Timeout}
}

// OpenURL opens a store on the database at url, as one more process
// would; it is closed when the test ends.
func OpenURL(tb testing.TB, url string) *postgres.Store {
	tb.Helper()
	s, err := postgres.Open(context.Background(), url, Options())
	if err != nil {
		tb.Fatal(err)
	}
	mu.Lock()
	urls[s] = url
	mu.Unlock()
	tb.Cleanup(func() {
		s.Close()
		mu.Lock()
		delete(urls, s)
		mu.Unlock()
	})
	return s
}

var (
	mu   sync.Mutex
	urls = map[*postgres.Store]string{}
)

// Peer opens another store on the database of s (opened by this package),
// as a second process sharing it would.
func Peer(tb testing.TB, s *postgres.Store) *postgres.Store {
	tb.Helper()
	mu.Lock()
	u, ok := urls[s]
	mu.Unlock()
	if !ok {
		tb.Fatal("pgtest: the store was not opened by pgtest")
	}
	return OpenURL(tb, u)
}
