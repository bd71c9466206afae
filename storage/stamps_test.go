package storage_test

import (
	"context"
	"crypto/sha256"
	"path/filepath"
	"testing"

	"contracts/server/pdf/pades"
	"contracts/storage"
)

// A time-stamp token outlives the process (the conformance suite checks
// the rest of the store of tokens on every engine).
func TestStampsKeptAcrossReopen(t *testing.T) {
	var _ pades.Stamps = (*storage.DB)(nil)
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "contracts.db")
	db := openDB(t, path)
	key := sha256.Sum256([]byte("a signature value"))
	if err := db.SaveStamp(ctx, key[:], []byte("token one")); err != nil {
		t.Fatal(err)
	}
	db.Close()
	db = openDB(t, path)
	defer db.Close()
	if got, err := db.Stamp(ctx, key[:]); err != nil || string(got) != "token one" {
		t.Fatalf("after a reopen: %q, %v", got, err)
	}
}
