package postgres

import (
	"encoding/json"
	"reflect"
	"sync"

	"contracts/signflow"
)

// tplCache keeps decoded templates, each with the version and the row
// version (xmin) it was read at: every create reads its template, and
// every read of a contract shows it, whose 2-3 KB would otherwise be sent
// and decoded each time. A row's version moves with every committed write
// of it, on any node, so an entry of the version a reader sees is what it
// would decode. Only committed rows are kept: a transaction that wrote a
// template keeps nothing (a rollback leaves its version to the next
// writer, with other data).
//
// As in the bbolt store's cache, a reader gets a shallow copy: slices,
// maps and pointers in it are shared with other readers and must not be
// modified in place; top-level slices are clipped, so appending allocates.
type tplCache struct {
	mu sync.RWMutex
	m  map[string]cachedTemplate
}

type cachedTemplate struct {
	ver  int64
	xmin string // "" when read with a contract, which does not ask for it
	t    signflow.Template
}

// tplCacheMax bounds the templates kept; past it the cache starts over.
const tplCacheMax = 1000

func (c *tplCache) get(id string) (cachedTemplate, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	e, ok := c.m[id]
	return e, ok
}

// put keeps v as the template id at ver; an older version never replaces
// a newer one.
func (c *tplCache) put(id string, ver int64, xmin string, v *signflow.Template) {
	e := cachedTemplate{ver: ver, xmin: xmin, t: *v}
	clipSlices(reflect.ValueOf(&e.t).Elem())
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= tplCacheMax {
		c.m = map[string]cachedTemplate{}
	}
	if old, ok := c.m[id]; !ok || old.ver <= ver {
		c.m[id] = e
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

// templateIfChanged reads a template's versions, and its data unless the
// versions are $2 and $3; with them the credentials version, with which a
// create confirms its caller's cached app in the same round trip
// (signflow's AuthenticateTokenFor). No row's versions are NULL.
const templateIfChanged = `SELECT cv.n, t.ver, t.xmin::text, CASE WHEN t.ver = $2 AND t.xmin::text = $3 THEN NULL ELSE t.data END
	FROM credentials_version cv LEFT JOIN templates t ON t.id = $1`

func (t *tx) Template(id string) (*signflow.Template, error) {
	if v, ok := t.trustedTemplate(id); ok {
		return v, nil
	}
	v, key := new(signflow.Template), []any{id}
	// A transaction that read ahead (prefetch.go) has the template's row.
	if t.ahead != nil || t.tpls == nil || t.tplWritten || !validText(id) {
		if v, ok := t.keptTemplate(id); ok {
			return v, nil
		}
		if err := t.read(templates, key, v); err != nil {
			return v, err
		}
		if p, ok := t.aheadTemplate(id); ok {
			t.tpls.put(id, p.ver, "", v)
		}
		return v, nil
	}
	kept, hit := t.tpls.get(id)
	if !hit {
		kept.ver = -1
	}
	var (
		credVer int64
		found   *int64
		xmin    *string
		data    []byte
	)
	if err := t.queryRow([]any{&credVer, &found, &xmin, &data}, templateIfChanged, id, kept.ver, kept.xmin); err != nil {
		return v, err
	}
	if t.credVer < 0 {
		t.credVer = credVer
	}
	if found == nil {
		t.saw(templates, key, 0)
		return v, signflow.Errorf(signflow.ENOTFOUND, "Template not found.")
	}
	ver := *found
	t.saw(templates, key, ver)
	if data == nil {
		*v = kept.t
		return v, nil
	}
	if err := json.Unmarshal(data, v); err != nil {
		return v, err
	}
	t.tpls.put(id, ver, *xmin, v)
	return v, nil
}

// keptTemplate is the template id from the cache, when this read-only
// transaction read its row with a contract and the cache holds its version.
func (t *tx) keptTemplate(id string) (*signflow.Template, bool) {
	p, ok := t.aheadTemplate(id)
	if !ok {
		return nil, false
	}
	e, ok := t.tpls.get(id)
	if !ok || e.ver != p.ver {
		return nil, false
	}
	v := e.t
	return &v, true
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
