package postgres_test

import (
	"context"
	"testing"
	"time"

	"contracts/signflow"
	"contracts/storage/postgres"
	"contracts/storage/postgres/pgtest"

	"github.com/jackc/pgx/v5"
)

// A database that does not answer fails a transaction after the store's
// timeout instead of holding its caller: here another session holds an
// exclusive lock on the contracts table.
func TestStuckDatabaseTimesOut(t *testing.T) {
	url := pgtest.NewDatabase(t)
	s, err := postgres.Open(context.Background(), url, postgres.Options{Timeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	lock, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lock.Exec(ctx, "LOCK TABLE contracts IN ACCESS EXCLUSIVE MODE"); err != nil {
		t.Fatal(err)
	}
	read := func(tx signflow.Tx) error { _, err := tx.Contract("7b0bd0b3-5f6a-4c1e-9b55-0f4c8e0f1a2b"); return err }
	for name, run := range map[string]func(func(signflow.Tx) error) error{"view": s.View, "update": s.Update} {
		start := time.Now()
		err := run(read)
		if took := time.Since(start); err == nil || signflow.ErrorCode(err) == signflow.ENOTFOUND || took > 5*time.Second {
			t.Fatalf("%s against a locked table: %v after %v", name, err, took)
		}
	}
	lock.Rollback(ctx)
	if err := s.View(func(tx signflow.Tx) error { _, err := tx.Templates(); return err }); err != nil {
		t.Fatalf("after the lock is gone: %v", err)
	}
}
