package storage

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// TestCursorBucketGetsWhatGetGets holds the kept cursor's reads to bbolt's
// Get in one write transaction, between puts (enough to split pages),
// deletes and a nested bucket, for keys present, absent, before the first
// and after the last.
func TestCursorBucketGetsWhatGetGets(t *testing.T) {
	db, err := bolt.Open(filepath.Join(t.TempDir(), "c.db"), 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r := rand.New(rand.NewPCG(11, 12))
	key := func() []byte { return fmt.Appendf(nil, "k%04d", r.IntN(3000)) }
	err = db.Update(func(btx *bolt.Tx) error {
		b, err := btx.CreateBucket([]byte("b"))
		if err != nil {
			return err
		}
		if _, err := b.CreateBucket([]byte("k1500")); err != nil {
			return err
		}
		cb := &cursorBucket{Bucket: b}
		for i := range 20000 {
			k := key()
			switch r.IntN(4) {
			case 0:
				if err := b.Put(k, bytes.Repeat([]byte{byte(i)}, r.IntN(200))); err != nil && err != bolt.ErrIncompatibleValue {
					return err
				}
			case 1:
				if err := b.Delete(k); err != nil && err != bolt.ErrIncompatibleValue {
					return err
				}
			}
			for _, k := range [][]byte{k, []byte("k1500"), []byte("a"), []byte("z"), {}} {
				if got, want := cb.Get(k), b.Get(k); !bytes.Equal(got, want) || (got == nil) != (want == nil) {
					t.Fatalf("step %d, key %q: %q, Get %q", i, k, got, want)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
