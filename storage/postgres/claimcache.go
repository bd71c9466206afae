package postgres

import (
	"encoding/json"
	"errors"
	"slices"
	"sync"

	"contracts/signflow"

	"github.com/jackc/pgx/v5"
)

// claimCache keeps tenants' claims decoded, each with the row version and
// xmin it was read at: the customer's record that every create of a
// tenant reads. An entry is never answered as it stands: a create's
// read-only transaction takes it on trust (trust.go), and the write
// confirms its version and xmin in its first statement, so a claim
// changed (or deleted and made again) on any node is read afresh.
type claimCache struct {
	mu sync.Mutex
	m  map[string]keptClaim // claims.seenKey -> the claim
}

// keptClaim is a claim as read: c nil when it was absent (ver 0).
type keptClaim struct {
	ver  int64
	xmin string
	c    *signflow.Client
}

// claimCacheMax bounds the claims kept.
const claimCacheMax = 10000

func (c *claimCache) get(key string) (keptClaim, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k, ok := c.m[key]
	return k, ok
}

func (c *claimCache) put(key string, k keptClaim) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= claimCacheMax {
		c.m = map[string]keptClaim{}
	}
	c.m[key] = k
}

func (c *claimCache) drop(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, key)
}

// claimRef is a claim a create took on trust; key is its seenKey.
type claimRef struct {
	in, tenant, key string
	kept            keptClaim
}

// keptClaim answers a claim without a read or a decode: in a write
// transaction, one its trusts confirmed; in a create's read-only one, the
// cache's, taken on trust (read and kept first when the cache has none).
// key is the claim's seenKey.
func (t *tx) keptClaim(tenant, in string) (k keptClaim, key string, ok bool, err error) {
	if !validText(tenant) || !validText(in) {
		return keptClaim{}, "", false, nil
	}
	if t.writable {
		if t.confirmedClaims == nil {
			return keptClaim{}, "", false, nil
		}
		key = claims.key2(in, tenant)
		k, ok := t.confirmedClaims[key]
		return k, key, ok, nil
	}
	if t.trusted == nil || t.claimsKept == nil {
		return keptClaim{}, "", false, nil
	}
	key = claims.key2(in, tenant)
	k, ok = t.claimsKept.get(key)
	t.fedByCache(ok)
	if !ok {
		var data []byte
		err := t.queryRow([]any{&k.ver, &k.xmin, &data}, "SELECT ver, xmin::text, data FROM claims WHERE client_in = $1 AND tenant = $2", in, tenant)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			k = keptClaim{}
		case err != nil:
			return k, "", false, err
		default:
			k.c = new(signflow.Client)
			if err := json.Unmarshal(data, k.c); err != nil {
				return k, "", false, err
			}
		}
		t.claimsKept.put(key, k)
	}
	tr := t.trust()
	tr.claims = append(tr.claims, claimRef{in, tenant, key, k})
	return k, key, true, nil
}

// confirmClaims reports whether the claims of trust tr are as kept: ins
// and tenants are the claims asked, idx the places among them (from 1) of
// those found, with vers and xmins. Those that are not are dropped from
// the cache, to be read afresh.
func (t *tx) confirmClaims(tr *trust, ins, tenants []string, idx, vers []int64, xmins []string) bool {
	ok := true
	for _, r := range tr.claims {
		j := slices.Index(idx, int64(pairIndex(ins, tenants, r.in, r.tenant)+1))
		held := j < 0 && r.kept.ver == 0 || j >= 0 && r.kept.ver == vers[j] && r.kept.xmin == xmins[j]
		if !held {
			ok = false
			if t.claimsKept != nil {
				t.claimsKept.drop(r.key)
			}
		}
	}
	return ok
}

// pairIndex is the place of the claim (in, tenant) among ins and tenants,
// -1 when absent.
func pairIndex(ins, tenants []string, in, tenant string) int {
	for i := range ins {
		if ins[i] == in && tenants[i] == tenant {
			return i
		}
	}
	return -1
}

// useClaims lets the write transaction answer the claims of a confirmed
// trust, until it writes a claim (forgetAhead).
func (t *tx) useClaims(tr *trust) {
	for _, r := range tr.claims {
		if t.confirmedClaims == nil {
			t.confirmedClaims = map[string]keptClaim{}
		}
		t.confirmedClaims[r.key] = r.kept
	}
}
