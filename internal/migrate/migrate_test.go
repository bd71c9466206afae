package migrate_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"contracts/internal/fixture"
	"contracts/internal/migrate"
	"contracts/signflow"
	"contracts/signflow/secretbox"
	"contracts/storage/postgres/pgtest"
)

// A copy with the wrong master key for the bbolt side stops at the first
// webhook secret and says how to give the right one.
func TestWrongFromKey(t *testing.T) {
	w := fixture.NewStandard(t)
	fixture.MustCredential(t, w.Service.CreateApp, &signflow.CredentialInput{Name: "Hooked", OwnerIN: fixture.OwnerIN,
		Scopes: signflow.AppScopes, AllTemplates: true, WebhookURL: "https://shop.example/hook"})
	wrong, _ := secretbox.New(bytes.Repeat([]byte("w"), 32))
	_, err := migrate.Copy(context.Background(), w.DB, pgtest.Open(t), migrate.Options{FromBox: wrong, ToBox: w.Box})
	if err == nil || !strings.Contains(err.Error(), "--from-master-key") {
		t.Fatalf("copy with the wrong key: %v", err)
	}
}

// A database that holds records is refused, and left as it was.
func TestNotEmpty(t *testing.T) {
	w := fixture.NewStandard(t)
	to := pgtest.Open(t)
	other := fixture.NewStandardOn(t, to)
	other.Contract(t)
	before, _ := to.RecordCounts(context.Background())
	_, err := migrate.Copy(context.Background(), w.DB, to, migrate.Options{FromBox: w.Box, ToBox: w.Box})
	if !errors.Is(err, migrate.ErrNotEmpty) || !strings.Contains(err.Error(), "1 contracts") {
		t.Fatalf("copy into a filled database: %v", err)
	}
	after, _ := to.RecordCounts(context.Background())
	for k, n := range before {
		if after[k] != n {
			t.Errorf("%s: %d before, %d after the refused copy", k, n, after[k])
		}
	}
}
