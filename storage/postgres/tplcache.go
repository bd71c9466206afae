package postgres

import (
	"reflect"
	"sync"

	"contracts/signflow"
)

// tplCache keeps templates decoded, by id and row version, for read-only
// transactions: a template read with a contract (contractWithParties
// brings its row version) is taken as a copy instead of decoding its JSON
// again. A row's version moves with every write of it, on any node, so an
// entry is never stale. The copy is shallow: slices, maps and pointers
// inside are shared by every reader and must not be modified in place (the
// bbolt store's record cache has the same rule); top-level slices are
// clipped, so that appending to one allocates.
type tplCache struct {
	mu sync.RWMutex
	m  map[string]tplEntry
}

type tplEntry struct {
	ver int64
	v   signflow.Template
}

// tplCacheMax bounds the templates kept; past it the cache starts over.
const tplCacheMax = 512

func (c *tplCache) get(id string, ver int64) (*signflow.Template, bool) {
	c.mu.RLock()
	e, ok := c.m[id]
	c.mu.RUnlock()
	if !ok || e.ver != ver {
		return nil, false
	}
	v := e.v
	clipSlices(reflect.ValueOf(&v).Elem())
	return &v, true
}

func (c *tplCache) put(id string, ver int64, v *signflow.Template) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= tplCacheMax {
		c.m = map[string]tplEntry{}
	}
	if e, ok := c.m[id]; !ok || e.ver < ver {
		c.m[id] = tplEntry{ver: ver, v: *v}
	}
}

// clipSlices caps the top-level slices of the struct v at their lengths.
func clipSlices(v reflect.Value) {
	for i := range v.NumField() {
		if f := v.Field(i); f.Kind() == reflect.Slice && f.CanSet() && f.Cap() > f.Len() {
			f.Set(f.Slice3(0, f.Len(), f.Len()))
		}
	}
}

// keptTemplate is the template id from the cache, when this read-only
// transaction read its row with a contract.
func (t *tx) keptTemplate(id string) (*signflow.Template, bool) {
	p, ok := t.aheadTemplate(id)
	if !ok {
		return nil, false
	}
	return t.tpls.get(id, p.ver)
}

// keepTemplate keeps v, the template id as read from the row read with a
// contract.
func (t *tx) keepTemplate(id string, v *signflow.Template) {
	if p, ok := t.aheadTemplate(id); ok {
		t.tpls.put(id, p.ver, v)
	}
}

// aheadTemplate is the template's row read ahead with a contract by a
// read-only transaction that may use the cache.
func (t *tx) aheadTemplate(id string) (prefetched, bool) {
	if t.writable || t.tpls == nil {
		return prefetched{}, false
	}
	p, ok := t.ahead[templates.seenKey([]any{id})]
	return p, ok && p.data != nil
}
