package pdf

import (
	"bytes"
	"container/list"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"sync"

	"contracts/server/document"
	"contracts/server/pdf/pades"
	"contracts/signflow"
)

// DefaultCacheBytes is the size of the PDF cache the appliance keeps: a
// two-page contract is about 55 KB, one of 1,000 long-named products about
// 0.5 MB.
const DefaultCacheBytes = 16 << 20

// Cache makes the contract PDFs every route serves (embedded, key,
// cabinet, console) and keeps their final, sealed bytes, least recently
// used first out, within a bound in bytes. An entry is one contract in one
// language and remembers the digest of everything its PDF is made of (the
// contract at its version with its parties as that version recorded them,
// its audit trail up to that version, the verify link and the seal): a
// PDF is served from the cache only while all of that is unchanged, and
// is made anew otherwise. Made anew, the same version is the same bytes
// (signflow.RecordedTrail, ContractView.AsRecorded; pades). Requests for a
// PDF being made wait for it instead of starting their own; one that
// cannot be sealed (StampError) is not kept.
type Cache struct {
	max    int64
	sealer *pades.Sealer // nil: unsealed, for tests of the layout only
	sealID string        // the seal certificate's fingerprint, in the digest

	mu      sync.Mutex
	size    int64
	order   *list.List               // of *entry, most recently used first
	entries map[string]*list.Element // by contract id and language
	flights map[string]*flight       // renders in progress, by key and digest
	stats   CacheStats
}

// CacheStats counts what a cache did.
type CacheStats struct {
	Hits, Renders int64
	Entries       int
	Bytes         int64
}

type entry struct {
	key    string
	digest [32]byte
	pdf    []byte
}

// flight is one render that concurrent requests for the same PDF share.
type flight struct {
	done chan struct{}
	pdf  []byte
	err  error
}

// errAbandoned marks a flight whose requester went away before its render
// could start: the requests waiting on it start one of their own.
var errAbandoned = errors.New("pdf render abandoned")

// NewSealedCache returns a cache of at most maxBytes of PDFs, each sealed
// by s: the appliance's.
func NewSealedCache(maxBytes int64, s *pades.Sealer) *Cache {
	c := NewCache(maxBytes)
	c.sealer, c.sealID = s, pades.Fingerprint(s.Certificate())
	return c
}

// NewCache returns a cache of at most maxBytes of PDFs that are not
// sealed: for tests of the layout and of the routes alone.
func NewCache(maxBytes int64) *Cache {
	return &Cache{max: maxBytes, order: list.New(), entries: map[string]*list.Element{}, flights: map[string]*flight{}}
}

// Contract returns the PDF of the contract in lang, with its audit trail
// (the whole trail as read; the PDF shows the part of it up to the
// contract's version), from the cache when nothing it is made of has
// changed. While ctx lasts it waits for a render slot or for the same
// PDF's render in progress. The bytes are shared: callers must not change
// them.
func (c *Cache) Contract(ctx context.Context, v *signflow.ContractView, audit []*signflow.AuditEvent, lang, verifyURL string) ([]byte, error) {
	lang = document.Lang(lang)
	v, audit = v.AsRecorded(), signflow.RecordedTrail(audit, v.Version)
	key := v.ID + "/" + lang
	digest, err := digestOf(v, audit, lang, verifyURL, c.sealID)
	if err != nil {
		return nil, err
	}
	for {
		c.mu.Lock()
		if pdf, ok := c.get(key, digest); ok {
			c.stats.Hits++
			c.mu.Unlock()
			return pdf, nil
		}
		fk := key + "/" + string(digest[:])
		f, shared := c.flights[fk]
		if !shared {
			f = &flight{done: make(chan struct{})}
			c.flights[fk] = f
		}
		c.mu.Unlock()
		if !shared {
			return c.fly(ctx, f, fk, &entry{key: key, digest: digest}, v, audit, lang, verifyURL)
		}
		select {
		case <-f.done:
			if errors.Is(f.err, errAbandoned) {
				continue
			}
			return f.pdf, f.err
		case <-ctx.Done():
			return nil, errGone(ctx)
		}
	}
}

// fly renders and seals the flight's PDF, keeps it and wakes the requests
// waiting.
func (c *Cache) fly(ctx context.Context, f *flight, fk string, e *entry, v *signflow.ContractView, audit []*signflow.AuditEvent, lang, verifyURL string) ([]byte, error) {
	pdf, err := c.build(ctx, v, audit, lang, verifyURL)
	if ctx.Err() != nil && err != nil {
		// The requester went away: those waiting make it themselves.
		f.err = errAbandoned
		err = errGone(ctx)
	} else if f.err = err; err == nil {
		f.pdf = pdf
	}
	c.mu.Lock()
	delete(c.flights, fk)
	if err == nil {
		c.stats.Renders++
		e.pdf = f.pdf
		c.put(e)
	}
	c.mu.Unlock()
	close(f.done)
	return f.pdf, err
}

// build renders the PDF (in a slot of its lane) and seals it (outside the
// slot: a time-stamp waits on the network, not on a CPU).
func (c *Cache) build(ctx context.Context, v *signflow.ContractView, audit []*signflow.AuditEvent, lang, verifyURL string) ([]byte, error) {
	var buf bytes.Buffer
	if err := renderIn(ctx, &buf, document.New(v, audit, lang, document.Options{VerifyURL: verifyURL})); err != nil {
		return nil, err
	}
	if c.sealer == nil {
		return buf.Bytes(), nil
	}
	return seal(ctx, c.sealer, buf.Bytes(), v, audit)
}

// errGone is the answer to a request that went away while waiting.
func errGone(ctx context.Context) error {
	return signflow.Errorf(signflow.EUNAVAILABLE, "The PDF was not rendered: %v.", ctx.Err())
}

// Stats returns what the cache has done so far and holds now.
func (c *Cache) Stats() CacheStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.stats
	s.Entries, s.Bytes = c.order.Len(), c.size
	return s
}

func (c *Cache) get(key string, digest [32]byte) ([]byte, bool) {
	el := c.entries[key]
	if el == nil || el.Value.(*entry).digest != digest {
		return nil, false
	}
	c.order.MoveToFront(el)
	return el.Value.(*entry).pdf, true
}

// put keeps e in place of the key's older PDF and drops the least recently
// used entries beyond the bound; a PDF over a quarter of it is not kept.
func (c *Cache) put(e *entry) {
	if old := c.entries[e.key]; old != nil {
		c.remove(old)
	}
	if int64(len(e.pdf)) > c.max/4 {
		return
	}
	c.entries[e.key] = c.order.PushFront(e)
	c.size += int64(len(e.pdf))
	for c.size > c.max {
		c.remove(c.order.Back())
	}
}

func (c *Cache) remove(el *list.Element) {
	e := c.order.Remove(el).(*entry)
	delete(c.entries, e.key)
	c.size -= int64(len(e.pdf))
}

// digestOf sums everything the PDF is made of: the contract view (the
// contract at its version, its template, its parties' records), its audit
// trail, the language, the verify link and the seal. The PDF is a
// function of these alone (document.New, Render, then the seal), so a hit
// needs no document built.
func digestOf(v *signflow.ContractView, audit []*signflow.AuditEvent, lang, verifyURL, seal string) ([32]byte, error) {
	data, err := json.Marshal(struct {
		V                     *signflow.ContractView
		Audit                 []*signflow.AuditEvent
		Lang, VerifyURL, Seal string
	}{v, audit, lang, verifyURL, seal})
	if err != nil {
		return [32]byte{}, err
	}
	return sha256.Sum256(data), nil
}
