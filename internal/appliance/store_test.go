package appliance

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"contracts/signflow/secretbox"
	"contracts/storage/postgres"
	"contracts/storage/postgres/pgtest"

	"golang.org/x/crypto/acme/autocert"
)

// The ACME cache on postgres is autocert's: a missing entry is
// autocert.ErrCacheMiss itself, an entry reads back as written and is
// kept encrypted, another node with the same master key reads it, one
// with another key is told which key to check, and a deleted entry is
// missing again.
func TestACMECacheInTheDatabase(t *testing.T) {
	ctx := context.Background()
	db := pgtest.Open(t)
	box, _ := secretbox.New(bytes.Repeat([]byte("k"), 32))
	var cache autocert.Cache = acmeCache{postgres.Folder{Store: db, Box: box, Prefix: postgres.ACMEFolder}}
	if _, err := cache.Get(ctx, "sign.example.com"); err != autocert.ErrCacheMiss {
		t.Fatalf("missing entry: %v, want autocert.ErrCacheMiss", err)
	}
	pem := []byte("-----BEGIN EC PRIVATE KEY-----\nsecret\n-----END EC PRIVATE KEY-----\n")
	if err := cache.Put(ctx, "sign.example.com", pem); err != nil {
		t.Fatal(err)
	}
	if raw, err := db.ReadFile(ctx, postgres.ACMEFolder+"sign.example.com"); err != nil || bytes.Contains(raw, []byte("secret")) {
		t.Fatalf("stored %q, %v: want it encrypted", raw, err)
	}
	other := acmeCache{postgres.Folder{Store: pgtest.Peer(t, db), Box: box, Prefix: postgres.ACMEFolder}}
	if got, err := other.Get(ctx, "sign.example.com"); err != nil || !bytes.Equal(got, pem) {
		t.Fatalf("another node reads %q, %v", got, err)
	}
	wrongBox, _ := secretbox.New(bytes.Repeat([]byte("w"), 32))
	wrong := acmeCache{postgres.Folder{Store: db, Box: wrongBox, Prefix: postgres.ACMEFolder}}
	if _, err := wrong.Get(ctx, "sign.example.com"); err == nil || !strings.Contains(err.Error(), "secrets.masterKey") {
		t.Fatalf("another master key: %v", err)
	}
	if err := cache.Delete(ctx, "sign.example.com"); err != nil {
		t.Fatal(err)
	}
	if _, err := cache.Get(ctx, "sign.example.com"); !errors.Is(err, autocert.ErrCacheMiss) {
		t.Fatalf("deleted entry: %v", err)
	}
}
