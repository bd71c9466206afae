package signflow

import (
	"sync"
	"sync/atomic"
)

// tokenCache keeps the claims of bearer tokens whose HMAC was checked, so
// a token's later requests skip the HMAC. Only the MAC's verdict is kept:
// expiry, the app's secret generation and whether the app is usable are
// checked on every request, against the app cache, so a rotated secret or
// a cancelled app stops a token at once. A token that fails its MAC is
// never kept, so the cache holds only tokens this service issued.
type tokenCache struct {
	m sync.Map // token -> tokenClaims
	n atomic.Int64
}

// tokenClaims are what a token's MAC vouches for.
type tokenClaims struct {
	app, gen string
	exp      int64 // Unix seconds
}

// tokensKept bounds the cache; past it the cache starts over.
const tokensKept = 10000

func (c *tokenCache) get(token string) (tokenClaims, bool) {
	v, ok := c.m.Load(token)
	if !ok {
		return tokenClaims{}, false
	}
	return v.(tokenClaims), true
}

func (c *tokenCache) put(token string, t tokenClaims) {
	if c.n.Add(1) > tokensKept {
		c.m.Clear()
		c.n.Store(1)
	}
	c.m.Store(token, t)
}
