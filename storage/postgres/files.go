package postgres

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"contracts/signflow"

	"github.com/jackc/pgx/v5"
)

// Files are what a single node keeps as files in its data directory and
// nodes sharing a database keep here instead: the generated seal and the
// ACME account and certificates. The store keeps bytes as given; callers
// encrypt what is secret.

// ReadFile returns the file named name, or an error wrapping
// fs.ErrNotExist.
func (s *Store) ReadFile(ctx context.Context, name string) ([]byte, error) {
	ctx, cancel := s.timeout(ctx)
	defer cancel()
	var data []byte
	err := s.pool.QueryRow(ctx, "SELECT data FROM files WHERE name = $1", name).Scan(&data)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("%s: %w", name, fs.ErrNotExist)
	}
	return data, err
}

// WriteFile stores data under name, replacing what was there.
func (s *Store) WriteFile(ctx context.Context, name string, data []byte) error {
	ctx, cancel := s.timeout(ctx)
	defer cancel()
	_, err := s.pool.Exec(ctx, `INSERT INTO files (name, data) VALUES ($1, $2)
		ON CONFLICT (name) DO UPDATE SET data = EXCLUDED.data`, name, data)
	return err
}

// DeleteFile removes the file named name, if there is one.
func (s *Store) DeleteFile(ctx context.Context, name string) error {
	ctx, cancel := s.timeout(ctx)
	defer cancel()
	_, err := s.pool.Exec(ctx, "DELETE FROM files WHERE name = $1", name)
	return err
}

// Locked runs fn while holding the advisory lock named by name, waiting
// for another process that holds it (Exclusive skips instead): work that
// every node does once at start, such as generating the seal, is done by
// the first and found done by the others.
func (s *Store) Locked(ctx context.Context, name string, fn func() error) error {
	actx, cancel := s.timeout(ctx)
	defer cancel()
	conn, err := s.pool.Acquire(actx)
	if err != nil {
		return err
	}
	defer conn.Release()
	key := "contracts: " + name
	if _, err := conn.Exec(actx, "SELECT pg_advisory_lock(hashtextextended($1, 0))", key); err != nil {
		return fmt.Errorf("postgres: lock %s: %w", name, err)
	}
	ferr := fn()
	uctx, cancel := s.timeout(ctx)
	defer cancel()
	if _, err := conn.Exec(uctx, "SELECT pg_advisory_unlock(hashtextextended($1, 0))", key); err != nil {
		conn.Hijack().Close(ctx)
		return errors.Join(ferr, err)
	}
	return ferr
}

// Folders of the files nodes share.
const (
	SealFolder = "seal/" // the generated seal: pades.CertName and pades.KeyName
	ACMEFolder = "acme/" // the ACME account key and certificates
)

// Folder is the files under a prefix, encrypted by the box (the master
// key): the seal's key and the ACME keys are secrets, and the rest gains
// nothing from being readable. It is pades.Blobs.
type Folder struct {
	Store  *Store
	Box    signflow.SecretBox
	Prefix string
}

// Read returns a file, or an error wrapping fs.ErrNotExist.
func (f Folder) Read(name string) ([]byte, error) { return f.Get(context.Background(), name) }

// Write stores a file.
func (f Folder) Write(name string, data []byte) error { return f.Put(context.Background(), name, data) }

// Get returns a file, or an error wrapping fs.ErrNotExist.
func (f Folder) Get(ctx context.Context, name string) ([]byte, error) {
	enc, err := f.Store.ReadFile(ctx, f.Prefix+name)
	if err != nil {
		return nil, err
	}
	plain, err := f.Box.Decrypt(enc)
	if err != nil {
		return nil, fmt.Errorf("%s%s in the database does not open with secrets.masterKey (is it the same on every node?): %w", f.Prefix, name, err)
	}
	return plain, nil
}

// Put stores a file, encrypted.
func (f Folder) Put(ctx context.Context, name string, data []byte) error {
	enc, err := f.Box.Encrypt(data)
	if err != nil {
		return err
	}
	return f.Store.WriteFile(ctx, f.Prefix+name, enc)
}

// Delete removes a file.
func (f Folder) Delete(ctx context.Context, name string) error {
	return f.Store.DeleteFile(ctx, f.Prefix+name)
}
