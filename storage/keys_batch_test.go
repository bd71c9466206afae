package storage

import (
	"fmt"
	"testing"

	"contracts/signflow"
)

// The owners' keys a batched write reads once (KeysByOwner, for each
// create's webhook targets) follow every PutKey of the same transaction:
// a key added or changed by an earlier function of the batch, or earlier
// in the same function, is read by the next.
func TestBatchReadsTheKeysItWrote(t *testing.T) {
	db := openBatchDB(t, 0)
	key := func(id, url string) *signflow.APIKey {
		return &signflow.APIKey{ID: id, OwnerIN: "111111111", Hash: []byte("h-" + id), WebhookURL: url}
	}
	urls := func(st signflow.Tx) string {
		keys, err := st.KeysByOwner("111111111")
		if err != nil {
			t.Fatal(err)
		}
		out := ""
		for _, k := range keys {
			out += fmt.Sprintf("%s=%s ", k.ID, k.WebhookURL)
		}
		return out
	}
	if err := db.Update(func(st signflow.Tx) error { return st.PutKey(key("k1", "a")) }); err != nil {
		t.Fatal(err)
	}
	// In one function: read, add a key, change one, read again.
	if err := db.Update(func(st signflow.Tx) error {
		if got := urls(st); got != "k1=a " {
			t.Errorf("before: %q", got)
		}
		if err := st.PutKey(key("k2", "b")); err != nil {
			return err
		}
		if got := urls(st); got != "k1=a k2=b " {
			t.Errorf("after a new key: %q", got)
		}
		if err := st.PutKey(key("k1", "c")); err != nil {
			return err
		}
		if got := urls(st); got != "k1=c k2=b " {
			t.Errorf("after a changed key: %q", got)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	// Across the functions of one batch: a read, a PutKey, a read.
	var first uint64
	release, done := holdWriter(db, putMeta("hold", &first))
	got := make([]string, 2)
	errs := make(chan error, 3)
	go func() { errs <- db.Update(func(st signflow.Tx) error { got[0] = urls(st); return nil }) }()
	waitQueued(t, db, 1)
	go func() { errs <- db.Update(func(st signflow.Tx) error { return st.PutKey(key("k3", "d")) }) }()
	waitQueued(t, db, 2)
	go func() { errs <- db.Update(func(st signflow.Tx) error { got[1] = urls(st); return nil }) }()
	waitQueued(t, db, 3)
	release()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if got[0] != "k1=c k2=b " || got[1] != "k1=c k2=b k3=d " {
		t.Errorf("in one batch: before the PutKey %q, after it %q", got[0], got[1])
	}
}
