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
	"contracts/signflow/secretbox"
	"contracts/storage"
	"contracts/storage/postgres"

	"github.com/prometheus/client_golang/prometheus"
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
	// collectors are the engine's own metrics (bbolt's writer).
	collectors []prometheus.Collector
}

// openData opens the configured database.
func openData(cfg *config.Config, box *secretbox.Box) (*data, error) {
	if !cfg.Data.IsPostgres() {
		db, err := storage.Open(cfg.DBPath(), storage.Options{BatchDelay: cfg.Data.BatchDelay})
		if err != nil {
			return nil, err
		}
		return &data{store: db, backup: db, blobs: pades.Dir(cfg.Data.Dir),
			ready:      func() error { _, err := db.SchemaVersion(); return err },
			once:       func(_ string, fn func() error) error { return fn() },
			acmeCache:  func() (autocert.Cache, error) { return tlscert.DirCache(cfg.DataPath(config.ACMEDir)) },
			collectors: writerCollectors(db),
		}, nil
	}
	p := cfg.Data.Postgres
	pg, err := postgres.Open(context.Background(), p.URL, postgres.Options{MaxConns: int32(p.MaxConns), Timeout: p.Timeout})
	if err != nil {
		return nil, fmt.Errorf("data.postgres.url: %w", err)
	}
	return &data{store: pg,
		ready: func() error { _, err := pg.SchemaVersion(); return err },
		blobs: postgres.Folder{Store: pg, Box: box, Prefix: postgres.SealFolder},
		once:  func(name string, fn func() error) error { return pg.Locked(context.Background(), name, fn) },
		acmeCache: func() (autocert.Cache, error) {
			return acmeCache{postgres.Folder{Store: pg, Box: box, Prefix: postgres.ACMEFolder}}, nil
		},
	}, nil
}

// acmeCache is autocert.Cache over a folder of the database.
type acmeCache struct{ postgres.Folder }

// Get returns a file, or autocert.ErrCacheMiss itself (autocert compares
// errors with it).
func (c acmeCache) Get(ctx context.Context, name string) ([]byte, error) {
	data, err := c.Folder.Get(ctx, name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, autocert.ErrCacheMiss
	}
	return data, err
}
