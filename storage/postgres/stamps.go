package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
)

// maxStampKey bounds a key: a SHA-256 is 32 bytes.
const maxStampKey = 64

// Stamp returns the time-stamp token kept under key (the SHA-256 of the
// seal's signature value), or nil when there is none. With SaveStamp it is
// the seal's store of tokens (pades.Stamps), shared by every process, so
// that a contract version is sealed with the same token on every node.
func (s *Store) Stamp(ctx context.Context, key []byte) ([]byte, error) {
	ctx, cancel := s.timeout(ctx)
	defer cancel()
	var token []byte
	err := s.pool.QueryRow(ctx, "SELECT token FROM stamps WHERE key = $1", key).Scan(&token)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	return token, err
}

// SaveStamp keeps token under key, replacing the one kept before.
func (s *Store) SaveStamp(ctx context.Context, key, token []byte) error {
	if len(key) == 0 || len(key) > maxStampKey || len(token) == 0 {
		return errors.New("postgres: a time-stamp needs a key of 1 to 64 bytes and a token")
	}
	ctx, cancel := s.timeout(ctx)
	defer cancel()
	_, err := s.pool.Exec(ctx, `INSERT INTO stamps (key, token) VALUES ($1, $2)
		ON CONFLICT (key) DO UPDATE SET token = EXCLUDED.token`, key, token)
	return err
}
