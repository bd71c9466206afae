package postgres

import (
	"encoding/json"
	"errors"
	"slices"
	"sync"

	"contracts/signflow"

	"github.com/jackc/pgx/v5"
)

// tplCache keeps decoded templates, each with the version and the row
// version (xmin) it was read at. A read still asks the database, in the
// statement it would send anyway, but gets the data only when the row is
// not the one kept: every create reads its template, whose 2-3 KB would
// otherwise be sent and decoded each time. The row is compared by xmin
// as well as ver because a transaction that rolled back leaves in the
// cache a version the next writer takes again with other data; its xmin
// is never any committed row's.
//
// As in the bbolt store's cache, a reader gets a shallow copy: slices in
// it are shared with other readers and must not be modified in place
// (a new value may be assigned); they are clipped, so appending allocates.
type tplCache struct {
	mu sync.Mutex
	m  map[string]cachedTemplate
}

type cachedTemplate struct {
	ver  int64
	xmin string
	t    signflow.Template
}

// tplCacheMax bounds the templates kept; past it the cache starts over.
const tplCacheMax = 1000

func (c *tplCache) get(id string) (cachedTemplate, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[id]
	return e, ok
}

func (c *tplCache) put(id string, e cachedTemplate) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= tplCacheMax {
		c.m = map[string]cachedTemplate{}
	}
	c.m[id] = e
}

// templateIfChanged reads a template's versions, and its data unless the
// versions are $2 and $3.
const templateIfChanged = `SELECT ver, xmin::text, CASE WHEN ver = $2 AND xmin::text = $3 THEN NULL ELSE data END
	FROM templates WHERE id = $1`

func (t *tx) Template(id string) (*signflow.Template, error) {
	v := new(signflow.Template)
	key := []any{id}
	// A transaction that read ahead (prefetch.go) has its template.
	if t.ahead != nil || t.tpls == nil || !validText(id) {
		return v, t.read(templates, key, v)
	}
	kept, hit := t.tpls.get(id)
	if !hit {
		kept.ver = -1
	}
	var (
		ver  int64
		xmin string
		data []byte
	)
	err := t.queryRow([]any{&ver, &xmin, &data}, templateIfChanged, id, kept.ver, kept.xmin)
	if errors.Is(err, pgx.ErrNoRows) {
		t.saw(templates, key, 0)
		return v, signflow.Errorf(signflow.ENOTFOUND, "Template not found.")
	} else if err != nil {
		return v, err
	}
	t.saw(templates, key, ver)
	if data == nil {
		*v = kept.t
		return v, nil
	}
	if err := json.Unmarshal(data, v); err != nil {
		return v, err
	}
	v.EnabledCurrencies, v.Fields = slices.Clip(v.EnabledCurrencies), slices.Clip(v.Fields)
	t.tpls.put(id, cachedTemplate{ver: ver, xmin: xmin, t: *v})
	return v, nil
}
