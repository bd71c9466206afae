package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
)

// CredentialsVersion reads the counter that every change of an app or a
// key moves on in its own transaction (signflow.Shared).
func (s *Store) CredentialsVersion() (uint64, error) {
	ctx, cancel := s.timeout(context.Background())
	defer cancel()
	var n int64
	conn, pending, err := s.spares.acquire(ctx, s.pool)
	if err != nil {
		return 0, err
	}
	// A parked connection commits its read in the same round trip.
	var b pgx.Batch
	if pending {
		b.Queue(commitParked)
	}
	b.Queue(readCredVer).QueryRow(func(r pgx.Row) error { return r.Scan(&n) })
	err = conn.SendBatch(ctx, &b).Close()
	s.spares.giveBack(conn)
	return uint64(n), err
}

// Exclusive runs fn under a session-level advisory lock named by name,
// unless another process holds it (signflow.Shared). The lock lives on one
// connection: a process that dies loses it with its connection.
func (s *Store) Exclusive(name string, fn func() error) (bool, error) {
	ctx := context.Background()
	actx, cancel := s.timeout(ctx)
	defer cancel()
	conn, err := s.pool.Acquire(actx)
	if err != nil {
		return false, err
	}
	defer conn.Release()
	key := "contracts: " + name
	var got bool
	if err := conn.QueryRow(actx, "SELECT pg_try_advisory_lock(hashtextextended($1, 0))", key).Scan(&got); err != nil || !got {
		return false, err
	}
	ferr := fn()
	uctx, cancel := s.timeout(ctx)
	defer cancel()
	if _, err := conn.Exec(uctx, "SELECT pg_advisory_unlock(hashtextextended($1, 0))", key); err != nil {
		// Never give the pool back a connection that may hold the lock.
		conn.Hijack().Close(ctx)
		return true, errors.Join(ferr, err)
	}
	return true, ferr
}

// Meta reads a value the appliance keeps about itself; "" when absent.
func (s *Store) Meta(name string) (string, error) {
	ctx, cancel := s.timeout(context.Background())
	defer cancel()
	var v string
	err := s.pool.QueryRow(ctx, "SELECT value FROM meta WHERE name = $1", name).Scan(&v)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	return v, err
}

// SetMeta stores a value the appliance keeps about itself.
func (s *Store) SetMeta(name, value string) error {
	ctx, cancel := s.timeout(context.Background())
	defer cancel()
	_, err := s.pool.Exec(ctx,
		"INSERT INTO meta (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value", name, value)
	return err
}
