package storage

import (
	"crypto/sha256"
	"sync"
	"sync/atomic"

	bolt "go.etcd.io/bbolt"
)

// A memo is a value derived from a contract and from the records of the
// stable buckets as one read-only transaction saw them (signflow.Memos):
// the encoded read answer of an interface, say. It is kept with a copy of
// the contract's bytes it was derived from, in a cache of its own (so
// that readers of many contracts do not push each other's memos out of
// the record cache), and it is given to a later reader only while the
// contract has the same bytes and no write of a stable bucket committed
// between the two snapshots. The bytes are kept as their SHA-256: a copy
// of them weighed three quarters of the answer, a quarter of the live heap
// of a store whose contracts are all read, and under the memory limit the
// collector runs the more often the less room the live heap leaves.

type memo struct {
	name string
	v    any
	size int
	// seen is the latest snapshot the memo is known to hold in: the one it
	// was derived in, or a later one a reader checked it in.
	seen *atomic.Uint64
}

// memoBytes bounds what the memos of all contracts count (memoCache.size):
// about 8,000 typical contracts' answers (2.5 KB each, and memoOverhead).
const memoBytes = 24 << 20

// memoCache keeps the memos of contracts by contract id.
type memoCache struct {
	mu    sync.RWMutex
	items map[string]memoEntry
	size  int
	max   int
}

// memoEntry is the digest of a contract's bytes and the memos derived
// from them; an entry is replaced, never modified in place but for each
// memo's seen.
type memoEntry struct {
	sum   [sha256.Size]byte
	memos []memo
}

func newMemoCache(max int) *memoCache {
	return &memoCache{items: map[string]memoEntry{}, max: max}
}

func (e memoEntry) find(name string) *memo {
	for i := range e.memos {
		if e.memos[i].name == name {
			return &e.memos[i]
		}
	}
	return nil
}

func (e memoEntry) weight(id string) int {
	n := len(id) + len(e.sum)
	for _, m := range e.memos {
		n += m.size
	}
	return n
}

func (mc *memoCache) get(id string) (memoEntry, bool) {
	mc.mu.RLock()
	e, ok := mc.items[id]
	mc.mu.RUnlock()
	return e, ok
}

// keep adds the memo to the contract's entry when the entry is of the
// bytes whose digest is sum, or starts a new entry (the contract's memos
// of other bytes are of no use to anyone any more).
func (mc *memoCache) keep(id string, sum [sha256.Size]byte, m memo) {
	mc.mu.Lock()
	defer mc.mu.Unlock()
	old, ok := mc.items[id]
	e := memoEntry{sum: sum}
	if ok && old.sum == sum {
		for _, o := range old.memos {
			if o.name != m.name {
				e.memos = append(e.memos, o)
			}
		}
	}
	e.memos = append(e.memos, m)
	if ok {
		mc.size -= old.weight(id)
	}
	mc.items[id] = e
	mc.size += e.weight(id)
	if mc.size <= mc.max {
		return
	}
	// Over budget: drop entries in map order (random) down to three quarters.
	for k, old := range mc.items {
		delete(mc.items, k)
		mc.size -= old.weight(k)
		if mc.size <= mc.max*3/4 {
			return
		}
	}
}

// Memo returns the memo name of the contract id for this read-only
// transaction, or nil.
func (t *tx) Memo(id, name string) any {
	snap := t.readSnapshot()
	if snap == 0 {
		return nil
	}
	e, ok := t.db.memos.get(id)
	if !ok {
		return nil
	}
	m := e.find(name)
	if m == nil {
		return nil
	}
	seen := m.seen.Load()
	if seen == snap {
		return m.v // nothing committed since it was derived or checked
	}
	data := t.bucket(bucketContracts).Get([]byte(id))
	if data == nil || sha256.Sum256(data) != e.sum || !t.db.stable.unchanged(seen, snap) {
		return nil
	}
	if snap > seen {
		m.seen.CompareAndSwap(seen, snap) // readers of this snapshot need not check again
	}
	return m.v
}

// KeepMemo keeps v, of about size bytes, derived in this read-only
// transaction, as the memo name of the contract id.
func (t *tx) KeepMemo(id, name string, v any, size int) {
	snap := t.readSnapshot()
	if snap == 0 {
		return
	}
	data := t.bucket(bucketContracts).Get([]byte(id))
	if data == nil || len(data)+size > t.db.memos.max/64 {
		return
	}
	seen := new(atomic.Uint64)
	seen.Store(snap)
	t.db.memos.keep(id, sha256.Sum256(data), memo{name: name, v: v, size: size, seen: seen})
	// The memo's readers need no decoded contract: the one this reader
	// left in the record cache would only weigh on the live heap and push
	// the stable records out when the cache overflows.
	if t.db.cache != nil {
		t.db.cache.forget(string(bucketContracts), id)
	}
}

// readSnapshot is the transaction id of a read-only transaction of a DB
// that keeps memos, 0 for any other.
func (t *tx) readSnapshot() uint64 {
	if t.db == nil || t.db.memos == nil || t.b.Writable() {
		return 0
	}
	return uint64(t.b.ID())
}

// FreshMemo returns the memo name of the contract id without a
// transaction, when the file is known to hold, now, what the memo was
// derived from: no write has committed since a snapshot the memo is
// known to hold in, or none of those since wrote the contract or a
// stable bucket (then the memo is known to hold in the latest snapshot).
// Otherwise nil, and the caller reads in a transaction (Memo).
func (db *DB) FreshMemo(id, name string) any {
	if db.memos == nil {
		return nil
	}
	last := db.lastWrite.Load()
	e, ok := db.memos.get(id)
	if !ok {
		return nil
	}
	m := e.find(name)
	if m == nil {
		return nil
	}
	seen := m.seen.Load()
	if seen >= last {
		return m.v
	}
	if !db.written.unchanged(id, seen, last) || !db.stable.unchanged(seen, last) {
		return nil
	}
	m.seen.CompareAndSwap(seen, last)
	return m.v
}

// contractWrites notes, by contract id, the latest write transaction that
// wrote the contract, noted before it commits: while the notes reach back
// far enough, a reader learns without a transaction that a contract kept
// its bytes from one snapshot to another. A transaction that rolls back
// leaves its note, which costs a check in a transaction, never a stale
// answer. The notes are kept in two generations: when the newer is full
// the older is forgotten, and floor rises to the last transaction noted
// in it, so a memo checked since then stays fresh without a transaction
// (with one generation cleared at once, every memo of a store that keeps
// creating contracts fell back to a transaction every few seconds).
type contractWrites struct {
	mu     sync.RWMutex
	ids    map[string]uint64 // the newer generation
	old    map[string]uint64 // the older generation
	top    uint64            // the latest transaction noted in ids
	oldTop uint64            // the latest transaction noted in old
	floor  uint64            // the notes of transactions up to floor may be forgotten
}

// contractWritesKept bounds the notes of both generations.
const contractWritesKept = 8192

// add notes that the write transaction tx writes the contract id.
func (w *contractWrites) add(id string, tx uint64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.ids) >= contractWritesKept/2 {
		w.floor = max(w.floor, w.oldTop)
		w.old, w.oldTop = w.ids, w.top
		w.ids = nil
	}
	if w.ids == nil {
		w.ids = make(map[string]uint64, contractWritesKept/2)
	}
	w.ids[id] = max(w.ids[id], tx)
	w.top = max(w.top, tx)
}

// unchanged reports whether no write transaction after snapshot lo and at
// or before snapshot hi is known to have written the contract id, and the
// notes reach back to lo.
func (w *contractWrites) unchanged(id string, lo, hi uint64) bool {
	w.mu.RLock()
	defer w.mu.RUnlock()
	if lo < w.floor {
		return false
	}
	// Only the latest write is noted: one after hi may hide another
	// between lo and hi.
	tx := max(w.ids[id], w.old[id])
	return tx <= lo
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
