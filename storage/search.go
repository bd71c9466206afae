package storage

import (
	"bytes"
	"container/heap"
	"slices"

	"contracts/signflow"

	bolt "go.etcd.io/bbolt"
)

// mergeLimit bounds the counterparties whose pair index entries a search
// merges to reach its page; a search matching more of them walks the
// owner's entries instead, to its page only, since its total comes from
// the counts. Tests lower it to check that both ways give the same answer.
var mergeLimit = 1024

// match is what a search, or a list limited to some counterparties,
// selects among the owner's contracts: the counterparties it matches, with
// the number of their contracts that pass the filter, and the one contract
// found by its number outside them.
type match struct {
	parties  map[string]int
	extra    []byte // the summary of the contract found by number
	extraSeq uint64
	total    int
}

func (m *match) keeps(v []byte) bool {
	if _, ok := m.parties[string(summaryOther(v))]; ok {
		return true
	}
	return m.extra != nil && bytes.Equal(summaryID(v), summaryID(m.extra))
}

// matchSearch resolves the search s (or, when s is empty, the query's
// counterparties) to counterparties and counts their contracts that pass
// the filter. The counterparties are those whose number starts with s,
// those whose name has a word starting with each word of s, and, when
// q.Counterparties is not nil, only those among them.
func (t *tx) matchSearch(q *signflow.ContractQuery, s string, f filter) *match {
	m := &match{parties: map[string]int{}}
	c := t.bucket(bucketContractCounts).Cursor()
	add := func(other string, n int) {
		if n > 0 && (q.Counterparties == nil || slices.Contains(q.Counterparties, other)) {
			m.parties[other] += n
			m.total += n
		}
	}
	if s == "" {
		for _, other := range uniq(q.Counterparties) {
			add(other, t.pairCount(c, q, other))
		}
		return m
	}
	if isDigits(s) {
		prefix := []byte(q.OwnerIN + "\x00p" + s)
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			other, rest := cut0(k[len(prefix)-len(s):])
			template, status := cut0(rest)
			if countPasses(q, template, status) {
				add(string(other), int(readCount(v)))
			}
		}
	}
	for in := range t.namesMatching(q.OwnerIN, s) {
		if _, seen := m.parties[in]; !seen {
			add(in, t.pairCount(c, q, in))
		}
	}
	if id := t.bucket(bucketContractNumbers).Get([]byte(s)); id != nil {
		if seq, v := t.partyEntry(q.OwnerIN, id); v != nil && f.keep(v) {
			if _, counted := m.parties[string(summaryOther(v))]; !counted {
				m.extra, m.extraSeq = v, seq
				m.total++
			}
		}
	}
	return m
}

// pairCount is the number of the owner's contracts with other that pass
// the query's status and template filters.
func (t *tx) pairCount(c *bolt.Cursor, q *signflow.ContractQuery, other string) int {
	prefix := []byte(q.OwnerIN + "\x00p" + other + "\x00")
	n := 0
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		if template, status := cut0(k[len(prefix):]); countPasses(q, template, status) {
			n += int(readCount(v))
		}
	}
	return n
}

// countPasses reports whether contracts of the template and status pass
// the query's filters.
func countPasses(q *signflow.ContractQuery, template, status []byte) bool {
	if len(q.Statuses) > 0 && !containsBytes(q.Statuses, status) {
		return false
	}
	if q.TemplateID != "" && string(template) != q.TemplateID {
		return false
	}
	return q.AllTemplates || containsBytes(q.TemplateIDs, template)
}

func cut0(b []byte) (field, rest []byte) {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		return b[:i], b[i+1:]
	}
	return b, nil
}

// searchPage feeds p the page of the match's contracts that pass f, newest
// first: merged from the pair index of each counterparty when they are
// few, or else from a walk of the owner's entries.
func (t *tx) searchPage(owner string, m *match, f filter, p *pager) {
	keep := func(v []byte) bool { return m.keeps(v) && f.keep(v) }
	if len(m.parties) > mergeLimit {
		fillPage(p, m.total, func(newest bool, fn func([]byte) bool) {
			t.walkEntries(bucketContractParty, join([]byte(owner), nil), newest, fn)
		}, keep)
		return
	}
	if len(m.parties) == 1 && m.extra == nil {
		// One counterparty: its pair entries in order, without a merge.
		for other := range m.parties {
			fillPage(p, m.total, func(newest bool, fn func([]byte) bool) {
				t.walkEntries(bucketContractPair, join([]byte(owner), []byte(other), nil), newest, fn)
			}, f.keep)
		}
		return
	}
	fillPage(p, m.total, func(newest bool, fn func([]byte) bool) {
		t.mergePairs(owner, m, newest, fn)
	}, f.keep)
}

// fillPage keeps the ids of p's page among total matches, walking the
// entries that walk gives (newest or oldest first) and keeping those that
// pass keep: from the newer end, or from the older one when the page lies
// in the older half. The walk stops at the page's end.
func fillPage(p *pager, total int, walk func(newest bool, fn func([]byte) bool), keep func([]byte) bool) {
	defer func() { p.n = total }()
	switch {
	case p.from >= total:
	case p.from > total/2:
		lo, hi := total-p.to, total-p.from
		var ids []string
		j := 0
		walk(false, func(v []byte) bool {
			if keep(v) {
				if j >= lo {
					ids = append(ids, string(summaryID(v)))
				}
				j++
			}
			return j < hi
		})
		slices.Reverse(ids)
		p.ids = ids
	default:
		walk(true, func(v []byte) bool {
			if keep(v) {
				p.add(v)
			}
			return p.n < min(p.to, total)
		})
	}
}

// walkEntries calls fn with the values of the bucket's keys with prefix,
// newest (last) or oldest first, while fn returns true.
func (t *tx) walkEntries(bucket, prefix []byte, newest bool, fn func([]byte) bool) {
	c := t.bucket(bucket).Cursor()
	if newest {
		for k, v := seekLast(c, prefix); k != nil && bytes.HasPrefix(k, prefix) && fn(v); k, v = c.Prev() {
		}
		return
	}
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix) && fn(v); k, v = c.Next() {
	}
}

// mergePairs calls fn with the summaries of the owner's contracts with the
// match's counterparties and of its extra contract, newest or oldest
// first, while fn returns true.
func (t *tx) mergePairs(owner string, m *match, newest bool, fn func([]byte) bool) {
	h := &heads{newest: newest}
	b := t.bucket(bucketContractPair)
	for other := range m.parties {
		prefix := join([]byte(owner), []byte(other), nil)
		hd := &head{c: b.Cursor(), prefix: prefix}
		if newest {
			hd.k, hd.v = seekLast(hd.c, prefix)
		} else {
			hd.k, hd.v = hd.c.Seek(prefix)
		}
		if hd.k != nil && bytes.HasPrefix(hd.k, prefix) {
			h.list = append(h.list, hd)
		}
	}
	if m.extra != nil {
		h.list = append(h.list, &head{k: seq8(m.extraSeq), v: m.extra})
	}
	heap.Init(h)
	for h.Len() > 0 {
		hd := h.list[0]
		if !fn(hd.v) {
			return
		}
		if hd.c == nil {
			heap.Pop(h)
			continue
		}
		if newest {
			hd.k, hd.v = hd.c.Prev()
		} else {
			hd.k, hd.v = hd.c.Next()
		}
		if hd.k == nil || !bytes.HasPrefix(hd.k, hd.prefix) {
			heap.Pop(h)
		} else {
			heap.Fix(h, 0)
		}
	}
}

// head is one counterparty's place in a merge; a nil cursor stands for a
// single entry.
type head struct {
	c      *bolt.Cursor
	prefix []byte
	k, v   []byte
}

// heads orders the merge's places by the sequence at the end of their
// keys: the newest or the oldest on top.
type heads struct {
	list   []*head
	newest bool
}

func (h *heads) Len() int { return len(h.list) }
func (h *heads) Less(i, j int) bool {
	a, b := beUint(h.list[i].k[len(h.list[i].k)-8:]), beUint(h.list[j].k[len(h.list[j].k)-8:])
	return a > b == h.newest && a != b
}
func (h *heads) Swap(i, j int) { h.list[i], h.list[j] = h.list[j], h.list[i] }
func (h *heads) Push(x any)    { h.list = append(h.list, x.(*head)) }
func (h *heads) Pop() any {
	x := h.list[len(h.list)-1]
	h.list = h.list[:len(h.list)-1]
	return x
}
