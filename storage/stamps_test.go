package storage_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"path/filepath"
	"testing"

	"contracts/server/pdf/pades"
	"contracts/storage"
)

// The database keeps the seals' time-stamp tokens (pades.Stamps): none in
// a new file, the token saved under its key after a reopen, a newer token
// in its place, and a bad key refused.
func TestStamps(t *testing.T) {
	var _ pades.Stamps = (*storage.DB)(nil)
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "contracts.db")
	db := openDB(t, path)
	key := sha256.Sum256([]byte("a signature value"))
	if got, err := db.Stamp(ctx, key[:]); err != nil || got != nil {
		t.Fatalf("a new file holds a token: %x, %v", got, err)
	}
	if err := db.SaveStamp(ctx, key[:], []byte("token one")); err != nil {
		t.Fatal(err)
	}
	db.Close()
	db = openDB(t, path)
	if got, err := db.Stamp(ctx, key[:]); err != nil || string(got) != "token one" {
		t.Fatalf("after a reopen: %q, %v", got, err)
	}
	other := sha256.Sum256([]byte("another signature"))
	if got, _ := db.Stamp(ctx, other[:]); got != nil {
		t.Fatalf("another key reads %q", got)
	}
	if err := db.SaveStamp(ctx, key[:], []byte("token two")); err != nil {
		t.Fatal(err)
	}
	got, _ := db.Stamp(ctx, key[:])
	if string(got) != "token two" {
		t.Fatalf("the replaced token reads %q", got)
	}
	got[0] = 'X' // the answer is the caller's own copy
	if again, _ := db.Stamp(ctx, key[:]); !bytes.Equal(again, []byte("token two")) {
		t.Fatalf("changing an answer changed the kept token: %q", again)
	}
	for _, bad := range [][]byte{nil, make([]byte, 65)} {
		if err := db.SaveStamp(ctx, bad, []byte("t")); err == nil {
			t.Fatalf("a key of %d bytes was kept", len(bad))
		}
	}
	if err := db.SaveStamp(ctx, key[:], nil); err == nil {
		t.Fatal("an empty token was kept")
	}
	db.Close()
}
