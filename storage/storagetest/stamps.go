package storagetest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"testing"
)

// stamps is the seal's store of time-stamp tokens (pades.Stamps), which
// every engine keeps.
type stamps interface {
	Stamp(ctx context.Context, key []byte) ([]byte, error)
	SaveStamp(ctx context.Context, key, token []byte) error
}

// testStamps: none in a new store, the token saved under its key (seen by
// another process too), a newer token in its place, answers that are the
// caller's own copies, and bad keys and empty tokens refused.
func testStamps(t *testing.T, e Engine) {
	ctx := context.Background()
	s := e.Open(t)
	db, ok := s.(stamps)
	if !ok {
		t.Fatalf("%T keeps no time-stamp tokens", s)
	}
	peer := e.peer(t, s).(stamps)
	key := sha256.Sum256([]byte("a signature value"))
	if got, err := db.Stamp(ctx, key[:]); err != nil || got != nil {
		t.Fatalf("a new store holds a token: %x, %v", got, err)
	}
	must(t, db.SaveStamp(ctx, key[:], []byte("token one")))
	if got, err := peer.Stamp(ctx, key[:]); err != nil || string(got) != "token one" {
		t.Fatalf("another process reads %q, %v", got, err)
	}
	other := sha256.Sum256([]byte("another signature"))
	if got, _ := db.Stamp(ctx, other[:]); got != nil {
		t.Fatalf("another key reads %q", got)
	}
	must(t, peer.SaveStamp(ctx, key[:], []byte("token two")))
	got, _ := db.Stamp(ctx, key[:])
	if string(got) != "token two" {
		t.Fatalf("the replaced token reads %q", got)
	}
	got[0] = 'X'
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
}
