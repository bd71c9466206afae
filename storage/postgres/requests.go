package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"contracts/signflow"

	"github.com/jackc/pgx/v5"
)

// requestsTable keeps the idempotency keys. It is made at open, not by a
// numbered migration: keys last a day, an older build ignores the table,
// and exports and imports skip it.
const requestsTable = `
CREATE TABLE IF NOT EXISTS requests (
	caller text COLLATE "C",
	key text COLLATE "C",
	expires_ns bigint NOT NULL,
	data json NOT NULL,
	PRIMARY KEY (caller, key));
CREATE INDEX IF NOT EXISTS requests_expiry ON requests (expires_ns);
`

// ClaimRequest implements signflow.Requests: one statement inserts r, or
// takes the place of an expired record; a live one is read back instead.
func (s *Store) ClaimRequest(ctx context.Context, r *signflow.IdempotentRequest, now time.Time) (*signflow.IdempotentRequest, error) {
	ctx, cancel := s.timeout(ctx)
	defer cancel()
	data, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	for {
		var claimed bool
		err := s.pool.QueryRow(ctx, `INSERT INTO requests (caller, key, expires_ns, data) VALUES ($1, $2, $3, $4)
			ON CONFLICT (caller, key) DO UPDATE SET expires_ns = EXCLUDED.expires_ns, data = EXCLUDED.data
			WHERE requests.expires_ns <= $5
			RETURNING true`, r.Caller, r.Key, r.ExpiresAt.UnixNano(), data, now.UnixNano()).Scan(&claimed)
		if err == nil {
			return nil, nil
		} else if !errors.Is(err, pgx.ErrNoRows) {
			return nil, err
		}
		var held []byte
		err = s.pool.QueryRow(ctx, "SELECT data FROM requests WHERE caller = $1 AND key = $2", r.Caller, r.Key).Scan(&held)
		if errors.Is(err, pgx.ErrNoRows) {
			continue // released in between: claim again
		} else if err != nil {
			return nil, err
		}
		var old signflow.IdempotentRequest
		return &old, json.Unmarshal(held, &old)
	}
}

// FinishRequest implements signflow.Requests.
func (s *Store) FinishRequest(ctx context.Context, r *signflow.IdempotentRequest) error {
	ctx, cancel := s.timeout(ctx)
	defer cancel()
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	_, err = s.pool.Exec(ctx, `INSERT INTO requests (caller, key, expires_ns, data) VALUES ($1, $2, $3, $4)
		ON CONFLICT (caller, key) DO UPDATE SET expires_ns = EXCLUDED.expires_ns, data = EXCLUDED.data`,
		r.Caller, r.Key, r.ExpiresAt.UnixNano(), data)
	return err
}

// ReleaseRequest implements signflow.Requests.
func (s *Store) ReleaseRequest(ctx context.Context, caller, key string) error {
	ctx, cancel := s.timeout(ctx)
	defer cancel()
	_, err := s.pool.Exec(ctx, "DELETE FROM requests WHERE caller = $1 AND key = $2", caller, key)
	return err
}

// PurgeRequests implements signflow.Requests.
func (s *Store) PurgeRequests(ctx context.Context, before time.Time, limit int) (int, error) {
	ctx, cancel := s.timeout(ctx)
	defer cancel()
	tag, err := s.pool.Exec(ctx, `DELETE FROM requests WHERE (caller, key) IN
		(SELECT caller, key FROM requests WHERE expires_ns < $1 ORDER BY expires_ns LIMIT $2)`, before.UnixNano(), limit)
	return int(tag.RowsAffected()), err
}
