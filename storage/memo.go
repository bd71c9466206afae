package storage

import (
	"bytes"
	"sync/atomic"

	bolt "go.etcd.io/bbolt"
)

// A memo is a value derived from a contract and from the records of the
// stable buckets as one read-only transaction saw them (signflow.Memos):
// the encoded read answer of an interface, say. It is kept beside the
// contract's cached record, so it goes with the record when the
// contract's bytes change, and it is given to a later reader only while
// no write of a stable bucket committed between the two snapshots.

type memo struct {
	name string
	v    any
	size int
	// seen is the latest snapshot the memo is known to hold in: the one it
	// was derived in, or a later one a reader checked it in.
	seen *atomic.Uint64
}

// Memo returns the memo name of the contract id for this read-only
// transaction, or nil.
func (t *tx) Memo(id, name string) any {
	snap := t.readSnapshot()
	if snap == 0 {
		return nil
	}
	rc := t.db.cache
	rc.mu.RLock()
	r, ok := rc.items[string(bucketContracts)][id]
	rc.mu.RUnlock()
	if !ok {
		return nil
	}
	for _, m := range r.memos {
		if m.name != name {
			continue
		}
		seen := m.seen.Load()
		if seen == snap {
			return m.v // nothing committed since it was derived or checked
		}
		data := t.bucket(bucketContracts).Get([]byte(id))
		if data == nil || !bytes.Equal(r.raw, data) || !t.db.stable.unchanged(seen, snap) {
			return nil
		}
		if snap > seen {
			m.seen.CompareAndSwap(seen, snap) // readers of this snapshot need not check again
		}
		return m.v
	}
	return nil
}

// KeepMemo keeps v, of about size bytes, derived in this read-only
// transaction, as the memo name of the contract id, when the cache holds
// the contract as this transaction reads it.
func (t *tx) KeepMemo(id, name string, v any, size int) {
	snap := t.readSnapshot()
	if snap == 0 {
		return
	}
	data := t.bucket(bucketContracts).Get([]byte(id))
	rc := t.db.cache
	if data == nil || size > rc.max/64 {
		return
	}
	rc.mu.RLock()
	r, ok := rc.items[string(bucketContracts)][id]
	rc.mu.RUnlock()
	if !ok || !bytes.Equal(r.raw, data) {
		return
	}
	memos := make([]memo, 0, len(r.memos)+1)
	for _, m := range r.memos {
		if m.name != name {
			memos = append(memos, m)
		}
	}
	seen := new(atomic.Uint64)
	seen.Store(snap)
	r.memos = append(memos, memo{name: name, v: v, size: size, seen: seen})
	rc.put(string(bucketContracts), id, r)
}

// readSnapshot is the transaction id of a read-only transaction with the
// cache, 0 for any other.
func (t *tx) readSnapshot() uint64 {
	if t.db == nil || t.db.cache == nil || t.b.Writable() {
		return 0
	}
	return uint64(t.b.ID())
}

// FreshMemo returns the memo name of the contract id without a
// transaction, when no write transaction has committed since a snapshot
// the memo is known to hold in: the file is then as that snapshot saw it.
// Otherwise nil, and the caller reads in a transaction (Memo).
func (db *DB) FreshMemo(id, name string) any {
	rc := db.cache
	if rc == nil {
		return nil
	}
	last := db.lastWrite.Load()
	rc.mu.RLock()
	r, ok := rc.items[string(bucketContracts)][id]
	rc.mu.RUnlock()
	if !ok {
		return nil
	}
	for _, m := range r.memos {
		if m.name == name && m.seen.Load() >= last {
			return m.v
		}
	}
	return nil
}

// noteCommit has lastWrite raised to the write transaction's id once it
// commits. bbolt runs commit handlers after letting go of its writer lock,
// so two may run out of order: keep the larger. It runs before Update or
// Batch returns, so whatever follows a write sees it.
func (db *DB) noteCommit(btx *bolt.Tx) {
	id := uint64(btx.ID())
	btx.OnCommit(func() {
		for {
			cur := db.lastWrite.Load()
			if cur >= id || db.lastWrite.CompareAndSwap(cur, id) {
				return
			}
		}
	})
}
