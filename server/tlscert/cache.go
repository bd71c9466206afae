package tlscert

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/rs/zerolog"
	"golang.org/x/crypto/acme/autocert"
)

// DirCache keeps the ACME account key and certificates as files in dir
// (<data.dir>/acme), which it creates, or narrows, to mode 0700: the files
// hold private keys. Another autocert.Cache (the database) may take its
// place.
func DirCache(dir string) (autocert.Cache, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("acme cache: %w", err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return nil, fmt.Errorf("acme cache: %w", err)
	}
	return autocert.DirCache(dir), nil
}

// loggedCache logs each certificate stored: a new or renewed certificate,
// or a cache that cannot keep one (autocert itself ignores that error, and
// a certificate that is not kept is asked for again at every start).
type loggedCache struct {
	autocert.Cache
	log zerolog.Logger
}

func (c loggedCache) Put(ctx context.Context, key string, data []byte) error {
	err := c.Cache.Put(ctx, key, data)
	if strings.Contains(key, "+token") || strings.HasSuffix(key, "+http-01") || strings.HasPrefix(key, "acme_account") {
		return err
	}
	if err != nil {
		c.log.Error().Err(err).Str("certificate", key).Msg("cannot store certificate")
	} else {
		c.log.Info().Str("certificate", key).Msg("certificate stored")
	}
	return err
}
