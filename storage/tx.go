package storage

import (
	"bytes"
	"encoding/json"
	"slices"

	"contracts/signflow"

	bolt "go.etcd.io/bbolt"
)

// tx implements signflow.Tx over one bbolt transaction.
type tx struct {
	b    *bolt.Tx
	db   *DB
	open []openBucket
	// stored holds, in a write, the index places of the deliveries it has
	// read or written (deliveries.go).
	stored map[string]storedDelivery
	// w is shared by the functions of one batched write (write_state.go).
	w *writeState
	// fresh are the contract numbers this transaction took and has not yet
	// written a contract with: no index entry can hold them (contracts.go).
	fresh []uint64
	// kb is the buffer of the keys tmpKey makes (contracts.go).
	kb []byte
}

// openBucket is a bucket handle already found in this transaction.
type openBucket struct {
	name *byte
	b    *bolt.Bucket
	r    *cursorBucket
}

// cursorBucket is a bucket whose reads go through one cursor kept for the
// transaction: bbolt's Get makes a cursor, and grows its stack, for every
// read, and a create reads a score of keys (counts, index entries).
type cursorBucket struct {
	*bolt.Bucket
	cur *bolt.Cursor
}

// cursor is the kept cursor, for a walk that ends before the bucket's
// next read or write: a Seek starts from the root, so it stays right
// across writes.
func (b *cursorBucket) cursor() *bolt.Cursor {
	if b.cur == nil {
		b.cur = b.Bucket.Cursor()
	}
	return b.cur
}

// Get is bolt.Bucket's Get: the value at key, nil when there is none or
// key names a nested bucket.
func (b *cursorBucket) Get(key []byte) []byte {
	k, v := b.cursor().Seek(key)
	if !bytes.Equal(k, key) {
		return nil
	}
	return v
}

// bucket returns the named top-level bucket. Handles are kept for the
// transaction: finding one seeks the root each time, and a request reads
// the same few buckets many times. Names are the package's variables, so
// their first byte's address identifies them.
func (t *tx) bucket(name []byte) *bolt.Bucket { return t.handle(name).b }

// reader returns the named top-level bucket, read through a kept cursor.
func (t *tx) reader(name []byte) *cursorBucket {
	o := t.handle(name)
	if o.r == nil {
		o.r = &cursorBucket{Bucket: o.b}
	}
	return o.r
}

// handle is the transaction's entry of the named bucket, valid until the
// next bucket is opened.
func (t *tx) handle(name []byte) *openBucket {
	if t.countsPending(name) {
		if err := t.flushDeltas(); err != nil && t.w.err == nil {
			t.w.err = err
		}
	}
	for i := range t.open {
		if t.open[i].name == &name[0] {
			return &t.open[i]
		}
	}
	b := t.b.Bucket(name)
	if b == nil {
		// Not kept: a later function of the batch may make the bucket.
		return &openBucket{name: &name[0]}
	}
	if t.b.Writable() && appendOrdered(name) {
		b.FillPercent = appendFill
	}
	if t.open == nil {
		t.open = make([]openBucket, 0, 16) // a create opens a dozen
	}
	t.open = append(t.open, openBucket{name: &name[0], b: b})
	return &t.open[len(t.open)-1]
}

// appendFill is how full a write leaves the pages it splits in the buckets
// whose keys grow with time (contract ids are time-ordered, numbers and
// sequences count up, audit keys start with the contract id): new keys go
// to their last page, so bbolt's default of half-full pages would leave
// every page half empty for good. The party and pair indexes are such runs
// side by side, one per party (or pair), each growing at its own end: a
// split leaves the run's full part behind and carries the next run's head
// along.
const appendFill = 0.95

func appendOrdered(name []byte) bool {
	switch &name[0] {
	case &bucketContracts[0], &bucketContractAll[0], &bucketContractNumbers[0], &bucketAudit[0],
		&bucketContractParty[0], &bucketContractPair[0],
		// Delivery ids are time-ordered too; a settle grows a row by an
		// attempt, which a page at 95% has room for.
		&bucketDeliveries[0], &bucketDeliveryBodies[0], &bucketDeliveryContract[0]:
		return true
	}
	return false
}

// get decodes the record at key into v, or returns ENOTFOUND.
func (t *tx) get(bucket, key []byte, v any, what string) error {
	snap := t.snapshot(bucket)
	if snap != 0 {
		if ok, found := t.db.cache.stable(bucket, key, snap, &t.db.stable, v); ok && found {
			return nil
		} else if ok {
			return notFound(what)
		}
	}
	data := t.reader(bucket).Get(key)
	if data == nil {
		if snap != 0 {
			t.db.cache.missing(bucket, key, snap)
		}
		return notFound(what)
	}
	if t.cached(bucket) {
		return t.db.cache.decode(bucket, key, data, v, snap)
	}
	return json.Unmarshal(data, v)
}

// notFound is Errorf(ENOTFOUND, "%s not found.", what) without fmt: every
// create looks for its buyer's owner record, and most find none.
func notFound(what string) error {
	return &signflow.Error{Code: signflow.ENOTFOUND, Message: what + " not found."}
}

func (t *tx) put(bucket, key []byte, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return t.putData(bucket, key, data)
}

// putData is put for a record already encoded.
func (t *tx) putData(bucket, key, data []byte) error {
	if t.db != nil && cacheMode[string(bucket)] == cacheStable {
		t.db.stable.add(uint64(t.b.ID()))
	}
	if t.db != nil && bytes.Equal(bucket, bucketContracts) {
		t.db.written.add(string(key), uint64(t.b.ID())) // memo.go
	}
	return t.bucket(bucket).Put(key, data)
}

func join(parts ...[]byte) []byte { return bytes.Join(parts, []byte{0}) }

func (t *tx) Template(id string) (*signflow.Template, error) {
	v := new(signflow.Template)
	return v, t.get(bucketTemplates, []byte(id), v, "Template")
}

func (t *tx) Templates() ([]*signflow.Template, error) {
	var out []*signflow.Template
	err := t.bucket(bucketTemplates).ForEach(func(_, data []byte) error {
		v := new(signflow.Template)
		out = append(out, v)
		return json.Unmarshal(data, v)
	})
	return out, err
}

func (t *tx) App(id string) (*signflow.App, error) {
	v := new(signflow.App)
	return v, t.get(bucketApps, []byte(id), v, "App")
}

func (t *tx) PutApp(v *signflow.App) error { return t.put(bucketApps, []byte(v.ID), v) }

func (t *tx) Key(id string) (*signflow.APIKey, error) {
	v := new(signflow.APIKey)
	return v, t.get(bucketKeys, []byte(id), v, "Key")
}

func (t *tx) KeyByHash(hash []byte) (*signflow.APIKey, error) {
	id := t.bucket(bucketKeyHashes).Get(hash)
	if id == nil {
		return nil, signflow.Errorf(signflow.ENOTFOUND, "Key not found.")
	}
	return t.Key(string(id))
}

// KeysByOwner reads the owner's keys; in a batched write once per
// transaction, its creates sharing the slice and the keys (which readers
// do not modify) until a PutKey.
func (t *tx) KeysByOwner(in string) ([]*signflow.APIKey, error) {
	if t.w != nil {
		if out, ok := t.w.keys[in]; ok {
			return out, nil
		}
	}
	var out []*signflow.APIKey
	var buf [64]byte
	prefix := append(append(buf[:0], in...), 0)
	c := t.reader(bucketKeyOwners).cursor() // every create reads its parties' keys (webhook targets)
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		key := new(signflow.APIKey) // Key's read, by the id's bytes (the cache copies keys)
		if err := t.get(bucketKeys, k[len(prefix):], key, "Key"); err != nil {
			return nil, err
		}
		out = append(out, key)
	}
	if t.w != nil {
		if t.w.keys == nil {
			t.w.keys = map[string][]*signflow.APIKey{}
		}
		out = slices.Clip(out)
		t.w.keys[in] = out
	}
	return out, nil
}

func (t *tx) PutKey(v *signflow.APIKey) error {
	if t.w != nil {
		t.w.keys = nil
	}
	if err := t.bucket(bucketKeyHashes).Put(v.Hash, []byte(v.ID)); err != nil {
		return err
	}
	if err := t.bucket(bucketKeyOwners).Put(join([]byte(v.OwnerIN), []byte(v.ID)), nil); err != nil {
		return err
	}
	return t.put(bucketKeys, []byte(v.ID), v)
}
