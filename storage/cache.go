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
	string(bucketApps): cacheAlways, string(bucketKeys): cacheAlways, string(bucketTemplates): cacheAlways,
	string(bucketOwners): cacheAlways, string(bucketClaims): cacheAlways, string(bucketContracts): cacheReadOnly,
}

const (
	cacheNever = iota
	cacheReadOnly
	cacheAlways
)

// cached reports whether a read of the bucket in t goes through the cache.
func (t *tx) cached(bucket []byte) bool {
	if t.db == nil || t.db.cache == nil {
		return false
	}
	switch cacheMode[string(bucket)] {
	case cacheAlways:
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
}

func newRecordCache(max int) *recordCache {
	return &recordCache{items: map[string]map[string]cachedRecord{}, max: max}
}

// decode fills v (a pointer to a struct) from data, the record at key.
func (rc *recordCache) decode(bucket, key, data []byte, v any) error {
	dst := reflect.ValueOf(v).Elem()
	rc.mu.RLock()
	r, ok := rc.items[string(bucket)][string(key)]
	rc.mu.RUnlock()
	if ok && r.val.Type() == dst.Type() && bytes.Equal(r.raw, data) {
		dst.Set(r.val)
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
	rc.put(string(bucket), string(key), cachedRecord{raw: bytes.Clone(data), val: val})
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
		rc.size -= len(old.raw)
		rc.n--
	}
	records[key] = r
	rc.size += len(r.raw)
	rc.n++
	if rc.size <= rc.max {
		return
	}
	// Over budget: drop entries in map order (random) down to three quarters.
	for _, records := range rc.items {
		for k, old := range records {
			delete(records, k)
			rc.size -= len(old.raw)
			rc.n--
			if rc.size <= rc.max*3/4 {
				return
			}
		}
	}
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
