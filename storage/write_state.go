package storage

import (
	"contracts/signflow"

	bolt "go.etcd.io/bbolt"
)

// writeState is what the functions of one batched write transaction share
// (db.batch runs them one after another in the writer goroutine): the
// bucket handles and their kept cursors, found once per transaction rather
// than once per function, and the changes to counters (list counts, admin
// stats), added up over the batch and written once per key at its end.
type writeState struct {
	btx     *bolt.Tx
	deltas  []counters
	pending bool // a counter waits to be written
	// flushing is set while the deltas are written, so that the buckets
	// they go to are opened without writing them first.
	flushing bool
	err      error  // of a write of the counters before a read
	last     *delta // the counter addTo added to last
	// entries are the counters a new index entry adds to, by party and
	// summary (addNewEntry), found once per batch.
	entries map[newEntry]*[5]*delta
	// keys are the owners' keys read in the transaction (KeysByOwner:
	// every create reads both parties' for webhook targets); PutKey
	// forgets them.
	keys map[string][]*signflow.APIKey
}

// newEntry is what the counts a new index entry changes depend on.
type newEntry struct{ in, other, status, template string }

// counters are the changes to the counters of one bucket, by key.
type counters struct {
	name []byte
	m    map[string]*delta
}

type delta struct {
	n      int64
	remove bool // the key goes when its counter drops to 0
}

// writeTx is the tx of an Update's function in btx: the one the batch's
// earlier functions had, with their open buckets, or a new one.
func (db *DB) writeTx(btx *bolt.Tx) *tx {
	if w := db.write; w != nil && w.w.btx == btx {
		w.stored = nil
		return w
	}
	db.noteCommit(btx)
	t := &tx{b: btx, db: db, w: &writeState{btx: btx}}
	db.write = t
	return t
}

// endWrite writes the added-up counters of btx when err is nil, and lets
// the transaction's state go. It runs in the writer before each commit.
func (db *DB) endWrite(btx *bolt.Tx, err error) error {
	t := db.write
	db.write = nil
	if err != nil || t == nil || t.w.btx != btx {
		return err
	}
	if t.w.err != nil {
		return t.w.err
	}
	return t.flushDeltas()
}

// addTo adds n to the counter at key of bucket (an 8-byte big-endian
// value, never below 0; with remove, deleted at 0): in a batched write at
// the end of the batch, or before the bucket is next read in it.
func (t *tx) addTo(bucket, key []byte, n int64, remove bool) error {
	if t.w == nil {
		return putCount(t.reader(bucket), key, n, remove)
	}
	i := 0
	for i < len(t.w.deltas) && &t.w.deltas[i].name[0] != &bucket[0] {
		i++
	}
	if i == len(t.w.deltas) {
		t.w.deltas = append(t.w.deltas, counters{bucket, make(map[string]*delta, 16)})
	}
	m := t.w.deltas[i].m
	d := m[string(key)]
	if d == nil {
		d = &delta{remove: remove}
		m[string(key)] = d
	}
	d.n += n
	t.w.pending = true
	t.w.last = d
	return nil
}

// addNewEntry adds 1 to each count that a new index entry of party in
// with counterparty other adds to (recount): a batch of creates by one
// owner adds to the same five, whose counters are found by their keys the
// first time only.
func (t *tx) addNewEntry(in, other, status, template string) error {
	k := newEntry{in, other, status, template}
	if t.w != nil {
		if ds := t.w.entries[k]; ds != nil {
			for _, d := range ds {
				d.n++
			}
			t.w.pending = true
			return nil
		}
	}
	var ds [5]*delta
	keys := append(countsOf(in, status, template, true), pairCountKey(in, other, template, status))
	for i, key := range keys {
		if err := t.addTo(bucketContractCounts, key, 1, i == 4); err != nil {
			return err
		}
		if t.w != nil {
			ds[i] = t.w.last
		}
	}
	if t.w != nil {
		if t.w.entries == nil {
			t.w.entries = make(map[newEntry]*[5]*delta)
		}
		t.w.entries[k] = &ds
	}
	return nil
}

func putCount(b *cursorBucket, key []byte, n int64, remove bool) error {
	n += int64(readCount(b.Get(key)))
	if remove && n <= 0 {
		return b.Delete(key)
	}
	return b.Put(key, seq8(uint64(max(n, 0))))
}

// flushDeltas writes the counters added up so far.
func (t *tx) flushDeltas() error {
	if t.w == nil || !t.w.pending {
		return nil
	}
	t.w.flushing = true
	defer func() { t.w.flushing = false }()
	for _, c := range t.w.deltas {
		b := t.reader(c.name)
		for k, d := range c.m {
			if d.n == 0 {
				continue
			}
			if err := putCount(b, []byte(k), d.n, d.remove); err != nil {
				return err
			}
		}
		clear(c.m)
	}
	clear(t.w.entries) // their counters are gone with the maps
	t.w.pending = false
	return nil
}

// countsPending reports whether a counter of the named bucket waits to be
// written before the bucket is read.
func (t *tx) countsPending(name []byte) bool {
	if t.w == nil || !t.w.pending || t.w.flushing {
		return false
	}
	return &name[0] == &bucketContractCounts[0] || &name[0] == &bucketContractStats[0]
}
