package storage

import (
	"bytes"
	"encoding/binary"
	"maps"
	"slices"

	"contracts/signflow"

	bolt "go.etcd.io/bbolt"
)

// Per-party counts of contracts, kept with each contract write, so that a
// list's totalElements costs a few reads instead of a walk of every entry:
//
//	contract_counts  <in> 0x00 "a"                          -> all contracts
//	                 <in> 0x00 "s" <status>                 -> by status
//	                 <in> 0x00 "t" <templateId>             -> by template
//	                 <in> 0x00 "x" <templateId> 0x00 <status> -> by both
//	                 <in> 0x00 "p" <other in> 0x00 <templateId> 0x00 <status>
//	                                                        -> with one counterparty (schema 9)
//
// The counts with a counterparty give a search's total: the sum over the
// counterparties it matches. Each lies beside its party's other counts, so
// a create dirties no more pages for them; a count that drops to 0 is
// deleted, so that a scan of a party's counterparties meets only theirs.
var bucketContractCounts = []byte("contract_counts")

func countKeys(in, status, template string) (all, byStatus, byTemplate, both []byte) {
	// One array holds the four keys.
	n := len(in) + 1
	buf := make([]byte, 0, 4*n+3+2*len(status)+2*len(template)+1)
	key := func(parts ...string) []byte {
		start := len(buf)
		buf = append(append(buf, in...), 0)
		for _, s := range parts {
			buf = append(buf, s...)
		}
		return buf[start:len(buf):len(buf)]
	}
	return key("a"), key("s", status), key("t", template), key("x", template, "\x00", status)
}

// countsOf is the keys of one party's contract entry whose counts change
// by its delta: the totals (all, by template) only when an entry comes or
// goes.
func countsOf(in, status, template string, withTotals bool) [][]byte {
	all, byStatus, byTemplate, both := countKeys(in, status, template)
	keys := [4][]byte{byStatus, both, all, byTemplate}
	if withTotals {
		return keys[:]
	}
	return keys[:2]
}

// addCount adds delta to the counts of one party's contract entry.
func (t *tx) addCount(in, status, template string, delta int64, withTotals bool) error {
	for _, k := range countsOf(in, status, template, withTotals) {
		if err := t.addTo(bucketContractCounts, k, delta, false); err != nil {
			return err
		}
	}
	return nil
}

func readCount(v []byte) uint64 {
	if len(v) != 8 {
		return 0
	}
	return binary.BigEndian.Uint64(v)
}

// pairCountKey is the key of a party's count with one counterparty.
func pairCountKey(in, other, template, status string) []byte {
	return []byte(in + "\x00p" + other + "\x00" + template + "\x00" + status)
}

// addPairCount adds delta to a party's count with one counterparty; the
// count goes when it drops to 0.
func (t *tx) addPairCount(in, other, status, template string, delta int64) error {
	return t.addTo(bucketContractCounts, pairCountKey(in, other, template, status), delta, true)
}

// recount moves a party's counts from the summary it had (nil when new)
// to the contract's present one.
func (t *tx) recount(in string, old []byte, c *signflow.Contract) error {
	other := c.Counterparty(in)
	if old == nil {
		return t.addNewEntry(in, other, c.Status, c.TemplateID)
	}
	status, _ := cut(old)
	if string(status) == c.Status {
		return nil
	}
	if err := t.addPairCount(in, other, string(status), c.TemplateID, -1); err != nil {
		return err
	}
	if err := t.addPairCount(in, other, c.Status, c.TemplateID, 1); err != nil {
		return err
	}
	if err := t.addCount(in, string(status), c.TemplateID, -1, false); err != nil {
		return err
	}
	return t.addCount(in, c.Status, c.TemplateID, 1, false)
}

// countMatches answers how many of the owner's contracts pass the filter,
// or false when the filter is one the counts cannot answer.
func (t *tx) countMatches(q *signflow.ContractQuery) (int, bool) {
	if q.Counterparties != nil {
		return 0, false
	}
	b := t.bucket(bucketContractCounts)
	templates := q.TemplateScope()
	if templates == nil {
		templates = []string{""} // "" stands for every template
	}
	total := 0
	for _, tpl := range templates {
		if len(q.Statuses) == 0 {
			all, _, byTemplate, _ := countKeys(q.OwnerIN, "", tpl)
			if tpl == "" {
				total += int(readCount(b.Get(all)))
			} else {
				total += int(readCount(b.Get(byTemplate)))
			}
			continue
		}
		for _, st := range uniq(q.Statuses) {
			_, byStatus, _, both := countKeys(q.OwnerIN, st, tpl)
			if tpl == "" {
				total += int(readCount(b.Get(byStatus)))
			} else {
				total += int(readCount(b.Get(both)))
			}
		}
	}
	return total, true
}

func uniq(list []string) []string {
	seen := map[string]bool{}
	out := list[:0:0]
	for _, s := range list {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// createContractCounts is schema 3: the counts bucket, filled from the
// party index of the contracts already stored.
func createContractCounts(btx *bolt.Tx) error {
	b, err := btx.CreateBucketIfNotExists(bucketContractCounts)
	if err != nil {
		return err
	}
	party := btx.Bucket(bucketContractParty)
	if party == nil {
		return nil
	}
	counts := &cursorBucket{Bucket: b}
	return party.ForEach(func(k, v []byte) error {
		i := bytes.IndexByte(k, 0)
		if i < 0 {
			return nil
		}
		status, rest := cut(v)
		template, _ := cut(rest)
		for _, key := range countsOf(string(k[:i]), string(status), string(template), true) {
			if err := putCount(counts, key, 1, false); err != nil {
				return err
			}
		}
		return nil
	})
}

// createPairCounts is schema 9: each party's counts with each
// counterparty, filled from the party index of the contracts stored.
func createPairCounts(btx *bolt.Tx) error {
	b, party := btx.Bucket(bucketContractCounts), btx.Bucket(bucketContractParty)
	if b == nil || party == nil {
		return nil
	}
	// A batch of counts in memory, written in key order.
	counts := map[string]uint64{}
	err := party.ForEach(func(k, v []byte) error {
		i := bytes.IndexByte(k, 0)
		if i < 0 {
			return nil
		}
		status, rest := cut(v)
		template, rest := cut(rest)
		other, _ := cut(rest)
		counts[string(pairCountKey(string(k[:i]), string(other), string(template), string(status)))]++
		return nil
	})
	if err != nil {
		return err
	}
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		if err := b.Put([]byte(k), seq8(counts[k])); err != nil {
			return err
		}
	}
	return nil
}
