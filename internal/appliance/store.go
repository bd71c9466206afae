package appliance

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"contracts/internal/config"
	"contracts/server/admin"
	"contracts/server/pdf/pades"
	"contracts/server/tlscert"
	"contracts/signflow"
	"contracts/signflow/seal"
	"contracts/storage"
	"contracts/storage/postgres"

	"golang.org/x/crypto/acme/autocert"
)

// store is what the appliance needs of its database, on either engine.
type store interface {
	signflow.Store
	signflow.Outbox
	pades.Stamps
	OnDeliveryAdded(fn func())
	Meta(name string) (string, error)
	SetMeta(name, value string) error
	Close() error
}

// data is the opened database and what lives beside it: in the data
// directory on bbolt, in the database itself on postgres. Components take
// the engine itself (data.store), whose optional capabilities, such as
// signflow.Shared, they look for.
type data struct {
	store
	ready  func() error
	backup admin.Backuper // nil where the database is backed up by other means
	// blobs keeps the generated seal; once runs start-up work that several
	// nodes must do once between them (generating the seal, the demo seed).
	blobs pades.Blobs
	once  func(name string, fn func() error) error
	// acmeCache keeps the ACME account and certificates.
	acmeCache func() (autocert.Cache, error)
}

// openData opens the configured database.
func openData(cfg *config.Config, box *seal.Box) (*data, error) {
	if !cfg.Data.IsPostgres() {
		db, err := storage.Open(cfg.DBPath(), storage.Options{BatchDelay: cfg.Data.BatchDelay})
		if err != nil {
			return nil, err
		}
		return &data{store: db, backup: db, blobs: pades.Dir(cfg.Data.Dir),
			ready:     func() error { _, err := db.SchemaVersion(); return err },
			once:      func(_ string, fn func() error) error { return fn() },
			acmeCache: func() (autocert.Cache, error) { return tlscert.DirCache(cfg.DataPath(config.ACMEDir)) },
		}, nil
	}
	p := cfg.Data.Postgres
	pg, err := postgres.Open(context.Background(), p.URL, postgres.Options{MaxConns: int32(p.MaxConns), Timeout: p.Timeout})
	if err != nil {
		return nil, fmt.Errorf("data.postgres.url: %w", err)
	}
	return &data{store: pg,
		ready:     func() error { _, err := pg.SchemaVersion(); return err },
		blobs:     sharedFiles{pg, box, "seal/"},
		once:      func(name string, fn func() error) error { return pg.Locked(context.Background(), name, fn) },
		acmeCache: func() (autocert.Cache, error) { return sharedFiles{pg, box, "acme/"}, nil },
	}, nil
}

// sharedFiles keeps files in the database, encrypted with the master key:
// the seal's key and the ACME keys are secrets, and the others gain
// nothing from being readable. It is pades.Blobs and autocert.Cache.
type sharedFiles struct {
	db     *postgres.Store
	box    *seal.Box
	prefix string
}

// Read returns a file, or an error wrapping fs.ErrNotExist.
func (f sharedFiles) Read(name string) ([]byte, error) { return f.read(context.Background(), name) }

// Write stores a file.
func (f sharedFiles) Write(name string, data []byte) error {
	return f.Put(context.Background(), name, data)
}

// Get returns a file, or autocert.ErrCacheMiss itself (autocert compares
// errors with it).
func (f sharedFiles) Get(ctx context.Context, name string) ([]byte, error) {
	data, err := f.read(ctx, name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, autocert.ErrCacheMiss
	}
	return data, err
}

func (f sharedFiles) read(ctx context.Context, name string) ([]byte, error) {
	sealed, err := f.db.ReadFile(ctx, f.prefix+name)
	if err != nil {
		return nil, err
	}
	plain, err := f.box.Open(sealed)
	if err != nil {
		return nil, fmt.Errorf("%s%s in the database does not open with secrets.masterKey (is it the same on every node?): %w", f.prefix, name, err)
	}
	return plain, nil
}

// Put stores a file, encrypted.
func (f sharedFiles) Put(ctx context.Context, name string, data []byte) error {
	sealed, err := f.box.Seal(data)
	if err != nil {
		return err
	}
	return f.db.WriteFile(ctx, f.prefix+name, sealed)
}

// Delete removes a file.
func (f sharedFiles) Delete(ctx context.Context, name string) error {
	return f.db.DeleteFile(ctx, f.prefix+name)
}
