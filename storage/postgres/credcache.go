package postgres

import (
	"encoding/json"
	"reflect"
	"slices"
	"sync"

	"contracts/signflow"
)

// credCache keeps apps, owners' records and each owner's keys as read at
// one credentials version: the webhook targets of every change, and the
// record of the owner who creates a contract. Each entry is read in one
// statement with the version, and every change of an app, a key or an
// owner's record moves the version on in its own transaction, on
// whichever node made it: an entry of the version a transaction read at
// its start is what the transaction would read at that point, and a
// commit seen by then, from any node, is never hidden.
type credCache struct {
	mu      sync.Mutex
	version int64
	recs    map[string]prefetched // table.seenKey -> an app's or owner's version and data; nil data: absent
	keys    map[string][]byte     // owner -> its keys as a JSON array, by id
	// apps are the apps of recs decoded, by id: every create reads its
	// app for its webhook. A reader gets a shallow copy, as of tplCache.
	apps map[string]keptApp
	// owners are the owners' records of recs decoded, by number: every
	// create reads its owner's (a copy each, as of apps).
	owners map[string]keptOwner
	// keysOf are the keys of keys decoded, by owner: every create reads
	// both parties' keys for their webhooks.
	keysOf map[string][]signflow.APIKey
}

type keptOwner struct {
	ver int64
	c   signflow.Client
}

type keptApp struct {
	ver int64
	app signflow.App
}

// credCacheMax bounds the entries kept of one version.
const credCacheMax = 10000

func (c *credCache) rec(version int64, key string) (prefetched, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p, ok := c.recs[key]
	return p, ok && c.version == version
}

func (c *credCache) ownerKeys(version int64, in string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k, ok := c.keys[in]
	return k, ok && c.version == version
}

// at readies the cache for an entry read at version, under c.mu, and
// reports whether it may be kept: not when the cache holds a newer one.
func (c *credCache) at(version int64) bool {
	switch {
	case version < c.version:
		return false
	case version > c.version || c.recs == nil || len(c.recs)+len(c.keys) >= credCacheMax:
		c.version, c.recs, c.keys, c.apps = version, map[string]prefetched{}, map[string][]byte{}, map[string]keptApp{}
		c.owners, c.keysOf = map[string]keptOwner{}, map[string][]signflow.APIKey{}
	}
	return true
}

func (c *credCache) putRec(version int64, key string, p prefetched) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.at(version) {
		c.recs[key] = p
	}
}

// app is the app id decoded, as kept at version.
func (c *credCache) app(version int64, id string) (keptApp, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	a, ok := c.apps[id]
	return a, ok && c.version == version
}

// putApp keeps v, the app of the record kept at version, decoded.
func (c *credCache) putApp(version int64, ver int64, v *signflow.App) {
	a := keptApp{ver, *v}
	clipSlices(reflect.ValueOf(&a.app).Elem())
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.version == version && c.recs != nil {
		c.apps[v.ID] = a
	}
}

// owner is the owner's record of in decoded, as kept at version.
func (c *credCache) owner(version int64, in string) (keptOwner, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	o, ok := c.owners[in]
	return o, ok && c.version == version
}

// putOwner keeps rec, the owner's record of the entry kept at version, decoded.
func (c *credCache) putOwner(version, ver int64, rec *signflow.Client) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.version == version && c.recs != nil {
		c.owners[rec.IN] = keptOwner{ver, *rec}
	}
}

// decodedKeys are copies of the owner's keys decoded, as kept at version.
func (c *credCache) decodedKeys(version int64, in string) ([]*signflow.APIKey, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	keys, ok := c.keysOf[in]
	if !ok || c.version != version {
		return nil, false
	}
	return copyKeys(keys), true
}

// putDecodedKeys keeps keys, those of the entry kept at version, decoded.
func (c *credCache) putDecodedKeys(version int64, in string, keys []*signflow.APIKey) {
	kept := make([]signflow.APIKey, len(keys))
	for i, k := range keys {
		kept[i] = *k
		clipSlices(reflect.ValueOf(&kept[i]).Elem())
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.version == version && c.recs != nil {
		c.keysOf[in] = kept
	}
}

// copyKeys are shallow copies of keys, whose slices are clipped: a
// reader's append never reaches the cache.
func copyKeys(keys []signflow.APIKey) []*signflow.APIKey {
	if len(keys) == 0 {
		return nil
	}
	vals := slices.Clone(keys)
	out := make([]*signflow.APIKey, len(vals))
	for i := range vals {
		out[i] = &vals[i]
	}
	return out
}

func (c *credCache) putKeys(version int64, in string, keys []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.at(version) {
		c.keys[in] = keys
	}
}

// cacheable reports whether the transaction may use the cache: it knows
// the version it began at and changed none of the records itself (its
// version and records are its own until it commits).
func (t *tx) cacheable() bool { return t.creds != nil && t.credVer >= 0 && !t.credWritten }

// credsAt is the credentials version the transaction may read the cache
// at: its own, or in a create's read-only transaction (trust.go) the one
// taken on trust, which the write confirms.
func (t *tx) credsAt() (int64, bool) {
	if t.cacheable() {
		return t.credVer, true
	}
	if t.creds != nil && t.trusted != nil && !t.writable && t.credVer < 0 && t.trustCred >= 0 {
		return t.trustCred, true
	}
	return 0, false
}

// fedByCache counts a record answered from the cache among the reads of
// the transaction, which a memo must not have been fed by (memo.go).
func (t *tx) fedByCache(hit bool) {
	if hit {
		t.reads++
	}
}

// CredentialsVersion is the credentials version of the transaction's
// snapshot (signflow.SharedTx): read with its first statement in a write
// transaction, with a contract or a memo's check in a read-only one, else
// now.
func (t *tx) CredentialsVersion() (uint64, error) {
	if n, ok := t.trustedCredVer(); ok {
		return uint64(n), nil
	}
	if t.credVer < 0 {
		var n int64
		if err := t.queryRow([]any{&n}, readCredVer); err != nil {
			return 0, err
		}
		t.credVer = n
	}
	return uint64(t.credVer), nil
}

func (t *tx) App(id string) (*signflow.App, error) {
	v := new(signflow.App)
	key := []any{id}
	p, ok := prefetched{}, false
	version := t.credVer
	if t.cacheable() && validText(id) {
		if a, hit := t.creds.app(t.credVer, id); hit {
			t.fedByCache(true)
			t.saw(apps, key, a.ver)
			*v = a.app
			return v, nil
		}
		p, ok = t.creds.rec(t.credVer, apps.seenKey(key))
		t.fedByCache(ok)
	}
	if !ok {
		if t.creds == nil || !validText(id) || t.credWritten {
			return v, t.read(apps, key, v)
		}
		var ver *int64
		err := t.queryRow([]any{&version, &ver, &p.data},
			"SELECT cv.n, a.ver, a.data FROM credentials_version cv LEFT JOIN apps a ON a.id = $1", id)
		if err != nil {
			return nil, err
		}
		if ver != nil {
			p.ver = *ver
		}
		t.creds.putRec(version, apps.seenKey(key), p)
	}
	t.saw(apps, key, p.ver)
	if p.data == nil {
		return v, signflow.Errorf(signflow.ENOTFOUND, "App not found.")
	}
	if err := json.Unmarshal(p.data, v); err != nil {
		return v, err
	}
	if v.ID == id {
		t.creds.putApp(version, p.ver, v)
	}
	return v, nil
}

func (t *tx) KeysByOwner(in string) ([]*signflow.APIKey, error) {
	if !validText(in) {
		return nil, nil
	}
	if !t.cacheable() {
		return list[signflow.APIKey](t, "SELECT data FROM api_keys WHERE owner_in = $1 ORDER BY id", in)
	}
	if keys, ok := t.creds.decodedKeys(t.credVer, in); ok {
		t.fedByCache(true)
		return keys, nil
	}
	version := t.credVer
	data, ok := t.creds.ownerKeys(t.credVer, in)
	t.fedByCache(ok)
	if !ok {
		err := t.queryRow([]any{&version, &data},
			"SELECT n, (SELECT json_agg(data ORDER BY id) FROM api_keys WHERE owner_in = $1) FROM credentials_version", in)
		if err != nil {
			return nil, err
		}
		t.creds.putKeys(version, in, data)
	}
	var out []*signflow.APIKey
	if data != nil {
		if err := json.Unmarshal(data, &out); err != nil {
			return nil, err
		}
	}
	t.creds.putDecodedKeys(version, in, out)
	return out, nil
}
