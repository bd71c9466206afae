package storage

import (
	"bytes"
	"encoding/json"
	"reflect"
	"sync"
)

// cacheMode says which transactions may use the cache for a bucket. Apps,
// keys, templates, owners and claims are read by nearly every request and change
// rarely; a writable transaction changes only their top-level fields, which
// the shallow copy keeps apart. Contracts are cached for readers only,
// because a writable transaction modifies their signature map in place.
var cacheMode = map[string]int{
	string(bucketApps): cacheStable, string(bucketKeys): cacheStable, string(bucketTemplates): cacheStable,
	string(bucketOwners): cacheStable, string(bucketClaims): cacheStable, string(bucketContracts): cacheReadOnly,
}

const (
	cacheNever = iota
	cacheReadOnly
	cacheAlways
	// cacheStable is cacheAlways, and a read-only transaction takes a
	// record (or its absence) from the cache without reading the file
	// while no write of the bucket's kind committed between the snapshot
	// it was seen in and the reader's (stableWrites).
	cacheStable
)

// stableWrites are the ids of the write transactions that wrote a
// cacheStable bucket, noted before they commit. Two read snapshots with
// no such id between them see the same records in those buckets. A
// transaction that rolls back leaves its id, which the next writer takes
// again: that costs a re-read, never a stale record.
type stableWrites struct {
	mu    sync.Mutex
	ids   []uint64 // ascending; the latest stableKept
	floor uint64   // the highest id forgotten
}

const stableKept = 64

// add notes that the write transaction id writes a stable bucket.
func (s *stableWrites) add(id uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n := len(s.ids); n > 0 && s.ids[n-1] >= id {
		return
	}
	s.ids = append(s.ids, id)
	if len(s.ids) > stableKept {
		s.floor = s.ids[0]
		s.ids = append(s.ids[:0], s.ids[1:]...)
	}
}

// unchanged reports whether no stable write committed after one of the
// snapshots a and b and at or before the other.
func (s *stableWrites) unchanged(a, b uint64) bool {
	lo, hi := min(a, b), max(a, b)
	s.mu.Lock()
	defer s.mu.Unlock()
	if lo < s.floor {
		return false
	}
	for i := len(s.ids) - 1; i >= 0 && s.ids[i] > lo; i-- {
		if s.ids[i] <= hi {
			return false
		}
	}
	return true
}

// cached reports whether a read of the bucket in t goes through the cache.
func (t *tx) cached(bucket []byte) bool {
	if t.db == nil || t.db.cache == nil {
		return false
	}
	switch cacheMode[string(bucket)] {
	case cacheAlways, cacheStable:
		return true
	case cacheReadOnly:
		return !t.b.Writable()
	}
	return false
}

// cacheBytes bounds the stored bytes the cache keeps beside their decoded
// values (about three times as much again).
const cacheBytes = 4 << 20

// recordCache keeps decoded records together with the exact bytes they were
// decoded from. A transaction that finds the same bytes under the key takes
// a copy of the decoded value instead of decoding again, so the cache can
// never answer stale data: a changed record has other bytes, and an entry
// left by a rolled-back write matches no bytes in the file.
//
// The copy is shallow: pointers, maps and slices inside a cached record are
// shared with other readers and must not be modified in place (assigning a
// new value to a field is fine). Top-level slices are clipped, so appending
// to one allocates.
type recordCache struct {
	mu    sync.RWMutex
	items map[string]map[string]cachedRecord // bucket, key
	n     int
	size  int
	max   int
}

type cachedRecord struct {
	raw []byte
	val reflect.Value // the decoded struct, not addressable by readers
	// seen is the read snapshot (transaction id) in which raw was the
	// record, or in which there was none (missing); 0 when no read-only
	// transaction of a stable bucket saw it.
	seen    uint64
	missing bool
}

// snapshot is the transaction id a stable lookup of t is valid for; 0
// when t may not take records from the cache without reading the file.
func (t *tx) snapshot(bucket []byte) uint64 {
	if t.db == nil || t.db.cache == nil || t.b.Writable() || cacheMode[string(bucket)] != cacheStable {
		return 0
	}
	return uint64(t.b.ID())
}

// stable fills v from the record at key as of snapshot, when the cache
// knows it without reading the file: ok reports whether it did, found
// whether there is a record.
func (rc *recordCache) stable(bucket, key []byte, snapshot uint64, writes *stableWrites, v any) (ok, found bool) {
	rc.mu.RLock()
	r, hit := rc.items[string(bucket)][string(key)]
	rc.mu.RUnlock()
	if !hit || r.seen == 0 || !writes.unchanged(r.seen, snapshot) {
		return false, false
	}
	if r.missing {
		return true, false
	}
	dst := reflect.ValueOf(v).Elem()
	if r.val.Type() != dst.Type() {
		return false, false
	}
	dst.Set(r.val)
	return true, true
}

// missing notes that the snapshot has no record at key.
func (rc *recordCache) missing(bucket, key []byte, snapshot uint64) {
	rc.put(string(bucket), string(key), cachedRecord{seen: snapshot, missing: true})
}

func newRecordCache(max int) *recordCache {
	return &recordCache{items: map[string]map[string]cachedRecord{}, max: max}
}

// decode fills v (a pointer to a struct) from data, the record at key,
// read in snapshot (0 when that is not a read-only stable lookup).
func (rc *recordCache) decode(bucket, key, data []byte, v any, snapshot uint64) error {
	dst := reflect.ValueOf(v).Elem()
	rc.mu.RLock()
	r, ok := rc.items[string(bucket)][string(key)]
	rc.mu.RUnlock()
	if ok && !r.missing && r.val.Type() == dst.Type() && bytes.Equal(r.raw, data) {
		dst.Set(r.val)
		if snapshot > r.seen {
			r.seen = snapshot
			rc.put(string(bucket), string(key), r)
		}
		return nil
	}
	if err := json.Unmarshal(data, v); err != nil {
		return err
	}
	clipSlices(dst)
	if len(data) > rc.max/64 {
		return nil // too big to be worth a place
	}
	val := reflect.New(dst.Type()).Elem()
	val.Set(dst)
	rc.put(string(bucket), string(key), cachedRecord{raw: bytes.Clone(data), val: val, seen: snapshot})
	return nil
}

func (rc *recordCache) put(bucket, key string, r cachedRecord) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	records := rc.items[bucket]
	if records == nil {
		records = map[string]cachedRecord{}
		rc.items[bucket] = records
	}
	if old, ok := records[key]; ok {
		rc.size -= old.size(key)
		rc.n--
	}
	records[key] = r
	rc.size += r.size(key)
	rc.n++
	if rc.size <= rc.max {
		return
	}
	// Over budget: drop entries in map order (random) down to three quarters.
	for _, records := range rc.items {
		for k, old := range records {
			delete(records, k)
			rc.size -= old.size(k)
			rc.n--
			if rc.size <= rc.max*3/4 {
				return
			}
		}
	}
}

// forget drops the record at key, if kept.
func (rc *recordCache) forget(bucket, key string) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if old, ok := rc.items[bucket][key]; ok {
		delete(rc.items[bucket], key)
		rc.size -= old.size(key)
		rc.n--
	}
}

// size is what the record counts against the budget: its bytes, or its
// key when it notes an absence.
func (r cachedRecord) size(key string) int {
	if r.missing {
		return len(key) + 16
	}
	return len(r.raw)
}

// clipSlices sets the capacity of each top-level slice field to its length.
func clipSlices(v reflect.Value) {
	if v.Kind() != reflect.Struct {
		return
	}
	for i := 0; i < v.NumField(); i++ {
		if f := v.Field(i); f.Kind() == reflect.Slice && f.CanSet() && f.Cap() > f.Len() {
			f.Set(f.Slice3(0, f.Len(), f.Len()))
		}
	}
}
