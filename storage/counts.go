package storage

import (
	"bytes"
	"encoding/binary"

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
var bucketContractCounts = []byte("contract_counts")

func countKeys(in, status, template string) (all, byStatus, byTemplate, both []byte) {
	p := join([]byte(in), nil)
	cat := func(parts ...string) []byte {
		b := append([]byte{}, p...)
		for _, s := range parts {
			b = append(b, s...)
		}
		return b
	}
	return cat("a"), cat("s", status), cat("t", template), cat("x", template, "\x00", status)
}

// addCount adds delta to the counts of one party's contract entry; the
// totals (all, by template) change only when an entry comes or goes.
func addCount(b *bolt.Bucket, in, status, template string, delta int64, withTotals bool) error {
	all, byStatus, byTemplate, both := countKeys(in, status, template)
	keys := [][]byte{byStatus, both}
	if withTotals {
		keys = append(keys, all, byTemplate)
	}
	for _, k := range keys {
		n := int64(readCount(b.Get(k))) + delta
		if err := b.Put(k, seq8(uint64(max(n, 0)))); err != nil {
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

// recount moves a party's counts from the summary it had (nil when new)
// to the contract's present one.
func (t *tx) recount(in string, old []byte, c *signflow.Contract) error {
	b := t.bucket(bucketContractCounts)
	if old == nil {
		return addCount(b, in, c.Status, c.TemplateID, 1, true)
	}
	status, _ := cut(old)
	if string(status) == c.Status {
		return nil
	}
	if err := addCount(b, in, string(status), c.TemplateID, -1, false); err != nil {
		return err
	}
	return addCount(b, in, c.Status, c.TemplateID, 1, false)
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
	return party.ForEach(func(k, v []byte) error {
		i := bytes.IndexByte(k, 0)
		if i < 0 {
			return nil
		}
		status, rest := cut(v)
		template, _ := cut(rest)
		return addCount(b, string(k[:i]), string(status), string(template), 1, true)
	})
}
