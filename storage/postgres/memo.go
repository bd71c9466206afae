package postgres

import (
	"sync"

	"contracts/signflow"
)

// A memo is a value derived from a contract and from the records its read
// statement brings beside it (contractWithParties: the template, and the
// owners' records and claims of its parties) in one read-only transaction:
// the encoded read answer of an interface, say (signflow.Memos). It is
// kept with the versions of those rows as the statement read them (its
// stamp). A later reader sends the stamp in the statement of its own read,
// which compares it with the rows of its own snapshot and sends the data
// back only when they differ: the memo is given out only when the rows are
// those it was derived from, whichever node changed them.

// memoBytes bounds what the memos of all contracts count: about 5,000
// typical contracts' answers.
const memoBytes = 24 << 20

type memo struct {
	name string
	v    any
	size int
}

// memoEntry is a contract's stamp and the memos derived at it; an entry is
// replaced, never modified in place.
type memoEntry struct {
	stamp string
	memos []memo
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
	n := len(id) + len(e.stamp)
	for _, m := range e.memos {
		n += len(m.name) + m.size
	}
	return n
}

// memoCache keeps the memos of contracts by contract id.
type memoCache struct {
	mu    sync.RWMutex
	items map[string]memoEntry
	size  int
	max   int
}

func newMemoCache(max int) *memoCache {
	return &memoCache{items: map[string]memoEntry{}, max: max}
}

func (mc *memoCache) get(id string) (memoEntry, bool) {
	mc.mu.RLock()
	e, ok := mc.items[id]
	mc.mu.RUnlock()
	return e, ok
}

// keep adds m to the contract's entry when the entry has the stamp, or
// starts a new entry of it (memos of other rows are of no use to anyone:
// a reader's stamp is never older than what it compares with).
func (mc *memoCache) keep(id, stamp string, m memo) {
	mc.mu.Lock()
	defer mc.mu.Unlock()
	old, ok := mc.items[id]
	e := memoEntry{stamp: stamp}
	if ok && old.stamp == stamp {
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

// derivation is what a read-only transaction knows of the contract it read
// last: its stamp, and the statements sent until then (tx.reads), so that
// a memo is kept only when nothing but that statement fed it.
type derivation struct {
	id, stamp string
	reads     int
}

// Memo returns the memo name of the contract id for this read-only
// transaction, or nil. As the transaction's first statement, the memo's
// stamp is checked in a statement of its own, which is then the snapshot
// the memo holds in (and the credentials version's); the transaction
// begins only if it does not hold. Later, the contract's statement goes
// out here with the memo's stamp, and when the rows differ what it read is
// kept for Contract, so that a read is one statement either way.
func (t *tx) Memo(id, name string) any {
	if t.writable || t.memos == nil || !validText(id) {
		return nil
	}
	e, ok := t.memos.get(id)
	if !ok {
		return nil
	}
	m := e.find(name)
	if m == nil {
		return nil
	}
	if l, ok := t.pg.(*lazyTx); ok && !l.begun {
		// The transaction's first statement: the check alone, outside it,
		// and only on a miss the transaction's reads.
		var holds bool
		var n int64
		if l.alone(t.ctx, memoHolds, []any{id, e.stamp}, &holds, &n) == nil && holds {
			t.credVer = n
			t.reads++
			return m.v
		}
		return nil
	}
	row, err := t.contractRow(id, e.stamp)
	if err != nil {
		return nil // Contract reads again, and meets the error itself
	}
	if row.found && row.stamp == e.stamp {
		return m.v
	}
	t.early = &row
	return nil
}

// KeepMemo keeps v, of about size bytes, derived in this read-only
// transaction from the contract id and what its statement read beside it.
func (t *tx) KeepMemo(id, name string, v any, size int) {
	d := t.derived
	if t.writable || t.memos == nil || d.id != id || d.reads != t.reads || size > t.memos.max/64 {
		return
	}
	t.memos.keep(id, d.stamp, memo{name: name, v: v, size: size})
}

var _ signflow.Memos = (*tx)(nil)
