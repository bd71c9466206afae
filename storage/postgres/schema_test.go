package postgres_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"contracts/storage/postgres"
	"contracts/storage/postgres/pgtest"
)

// Processes that start together on an empty database migrate it once;
// each then opens it at the current schema.
func TestProcessesStartingTogetherMigrateOnce(t *testing.T) {
	url := pgtest.NewDatabase(t)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() {
			s, err := postgres.Open(context.Background(), url, pgtest.Options())
			if err == nil {
				s.Close()
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatalf("a process failed to open the database: %v", err)
		}
	}
	s := pgtest.OpenURL(t, url)
	if v, err := s.SchemaVersion(); err != nil || v != postgres.CurrentSchema() {
		t.Fatalf("schema %d (%v), want %d", v, err, postgres.CurrentSchema())
	}
}

// A database written by a newer build is refused, with what to do.
func TestNewerSchemaIsRefused(t *testing.T) {
	url := pgtest.NewDatabase(t)
	s := pgtest.OpenURL(t, url)
	if _, err := postgres.Pool(s).Exec(context.Background(), "UPDATE schema_version SET version = version + 1"); err != nil {
		t.Fatal(err)
	}
	_, err := postgres.Open(context.Background(), url, pgtest.Options())
	if err == nil || !strings.Contains(err.Error(), "newer than this build") || !strings.Contains(err.Error(), "upgrade contracts") {
		t.Fatalf("opening a newer schema: %v", err)
	}
}

// A URL that reaches no database fails at open, naming the problem.
func TestOpenFailsOnABadURL(t *testing.T) {
	pgtest.ClusterURL(t) // runs with the other PostgreSQL tests
	_, err := postgres.Open(context.Background(), "postgres://nobody@127.0.0.1:1/none?sslmode=disable&connect_timeout=2", pgtest.Options())
	if err == nil || !strings.Contains(err.Error(), "postgres") {
		t.Fatalf("open with a closed port: %v", err)
	}
	if _, err := postgres.Open(context.Background(), "::not a url::", pgtest.Options()); err == nil {
		t.Fatal("a malformed URL opened")
	}
	// The time-out is the configuration's (data.postgres.timeout); none is refused.
	if _, err := postgres.Open(context.Background(), pgtest.ClusterURL(t), postgres.Options{}); err == nil || !strings.Contains(err.Error(), "data.postgres.timeout") {
		t.Fatalf("open without a time-out: %v", err)
	}
}
