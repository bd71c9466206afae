package storage

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"contracts/signflow"

	bolt "go.etcd.io/bbolt"
)

// The administrator's view of every contract, added by schema 5 and kept
// with each contract write:
//
//	contract_all    <seq8> -> status 0x1f templateId 0x1f sellerIN buyerIN 0x1f number 0x1f id
//	contract_stats  "s" <status> -> count (seq8); "d" <YYYY-MM-DD> -> contracts created that UTC day
//
// The third field of an entry holds both parties, space-separated, where
// a party's index entry holds the other party.
var (
	bucketContractAll   = []byte("contract_all")
	bucketContractStats = []byte("contract_stats")
)

func allSummary(c *signflow.Contract) []byte { return summary(c, c.SellerIN, c.BuyerIN) }

// putEverywhere writes the contract's entry in contract_all and moves the
// global counts from the entry it had (none when fresh).
func (t *tx) putEverywhere(c *signflow.Contract, fresh bool) error {
	all := t.reader(bucketContractAll)
	var old []byte
	if !fresh {
		old = all.Get(t.tmpSeqKey(c.Seq))
	}
	if old == nil {
		var day [16]byte // "d" and signflow.Day, without its string
		if err := t.addTo(bucketContractStats, c.CreatedAt.UTC().AppendFormat(append(day[:0], 'd'), time.DateOnly), 1, false); err != nil {
			return err
		}
	} else if status, _ := cut(old); string(status) != c.Status {
		if err := t.addStat("s"+string(status), -1); err != nil {
			return err
		}
	} else {
		return all.Put(t.tmpSeqKey(c.Seq), allSummary(c))
	}
	if err := t.addStat("s"+c.Status, 1); err != nil {
		return err
	}
	return all.Put(t.tmpSeqKey(c.Seq), allSummary(c))
}

func (t *tx) addStat(key string, delta int64) error {
	return t.addTo(bucketContractStats, []byte(key), delta, false)
}

func (t *tx) ContractStats(since string) (*signflow.ContractStats, error) {
	out := &signflow.ContractStats{ByStatus: map[string]int{}, PerDay: map[string]int{}}
	c := t.bucket(bucketContractStats).Cursor()
	for k, v := c.Seek([]byte("d" + since)); k != nil && k[0] == 'd'; k, v = c.Next() {
		out.PerDay[string(k[1:])] = int(readCount(v))
	}
	for k, v := c.Seek([]byte("s")); k != nil && k[0] == 's'; k, v = c.Next() {
		if n := int(readCount(v)); n > 0 {
			out.ByStatus[string(k[1:])] = n
		}
	}
	return out, nil
}

// listEveryone answers a query of every contract (AllOwners) from
// contract_all, as ListContracts answers one owner's from its entries.
func (t *tx) listEveryone(q *signflow.ContractQuery, f filter, p *pager) {
	s := strings.TrimSpace(q.Search)
	if s == "" {
		total, counted := t.countEveryone(q)
		t.walkAll(func(v []byte) bool {
			if f.keep(v) {
				p.add(v)
			}
			return !counted || p.n < p.to
		})
		if counted {
			p.n = total
		}
		return
	}
	numberID := t.bucket(bucketContractNumbers).Get([]byte(s))
	digits := ""
	if isDigits(s) {
		digits = s
	}
	names := map[string]bool{}
	for _, tenant := range t.ownerNumbers() {
		for in := range t.namesMatching(tenant, s) {
			names[in] = true
		}
	}
	if len(digits) == 0 || len(digits) >= broadPrefix {
		if hits, ok := t.partyHits(digits, names, numberID, f); ok {
			for _, h := range hits {
				p.add(h.summary)
			}
			return
		}
	}
	t.walkAll(func(v []byte) bool {
		match := bytes.Equal(summaryID(v), numberID)
		for _, in := range bytes.Fields(summaryOther(v)) {
			match = match || digits != "" && bytes.HasPrefix(in, []byte(digits)) || names[string(in)]
		}
		if match && f.keep(v) {
			p.add(v)
		}
		return true
	})
}

// countEveryone is the number of contracts a query without search
// selects, from the counts by status, or false when they cannot tell.
func (t *tx) countEveryone(q *signflow.ContractQuery) (int, bool) {
	if q.TemplateID != "" || !q.AllTemplates {
		return 0, false
	}
	statuses := q.Statuses
	if len(statuses) == 0 {
		statuses = signflow.ContractStatuses
	}
	b, total := t.bucket(bucketContractStats), 0
	for _, st := range uniq(statuses) {
		total += int(readCount(b.Get([]byte("s" + st))))
	}
	return total, true
}

// walkAll calls fn with each contract's entry, newest first, while fn
// returns true.
func (t *tx) walkAll(fn func(summary []byte) bool) {
	c := t.bucket(bucketContractAll).Cursor()
	for k, v := c.Last(); k != nil && fn(v); k, v = c.Prev() {
	}
}

// partyHits gathers from the party index the contracts of the parties
// whose number starts with digits or is in names, and the one numbered
// numberID, newest first; false when there are more than pairScanLimit.
func (t *tx) partyHits(digits string, names map[string]bool, numberID []byte, f filter) ([]hit, bool) {
	if len(names) > pairScanLimit {
		return nil, false
	}
	var hits []hit
	c := t.bucket(bucketContractParty).Cursor()
	scan := func(prefix []byte) bool {
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			if f.keep(v) {
				if hits = append(hits, hit{beUint(k[len(k)-8:]), v}); len(hits) > pairScanLimit {
					return false
				}
			}
		}
		return true
	}
	if digits != "" && !scan([]byte(digits)) {
		return nil, false
	}
	for in := range names {
		if !scan(join([]byte(in), nil)) {
			return nil, false
		}
	}
	if numberID != nil {
		if ct, err := t.Contract(string(numberID)); err == nil {
			if v := t.bucket(bucketContractAll).Get(seq8(ct.Seq)); v != nil && f.keep(v) {
				hits = append(hits, hit{ct.Seq, v})
			}
		}
	}
	slices.SortFunc(hits, func(a, b hit) int {
		switch {
		case a.seq > b.seq:
			return -1
		case a.seq < b.seq:
			return 1
		}
		return 0
	})
	return slices.CompactFunc(hits, func(a, b hit) bool { return a.seq == b.seq }), true
}

// ownerNumbers are the numbers of every owner: the tenants.
func (t *tx) ownerNumbers() []string {
	var out []string
	t.bucket(bucketOwners).ForEach(func(k, _ []byte) error {
		out = append(out, string(k))
		return nil
	})
	return out
}

func (t *tx) Owners() ([]*signflow.Client, error) {
	var out []*signflow.Client
	err := t.bucket(bucketOwners).ForEach(func(_, v []byte) error {
		c := new(signflow.Client)
		out = append(out, c)
		return json.Unmarshal(v, c)
	})
	return out, err
}

func (t *tx) Apps() ([]*signflow.App, error) {
	var out []*signflow.App
	err := t.bucket(bucketApps).ForEach(func(_, v []byte) error {
		a := new(signflow.App)
		out = append(out, a)
		return json.Unmarshal(v, a)
	})
	return out, err
}

func (t *tx) Keys() ([]*signflow.APIKey, error) {
	var out []*signflow.APIKey
	err := t.bucket(bucketKeys).ForEach(func(_, v []byte) error {
		k := new(signflow.APIKey)
		out = append(out, k)
		return json.Unmarshal(v, k)
	})
	return out, err
}

// createContractAll is schema 5: contract_all and contract_stats, filled
// from the contracts already stored, and delivery_failed from the log.
func createContractAll(btx *bolt.Tx) error {
	for _, name := range [][]byte{bucketContractAll, bucketContractStats} {
		if _, err := btx.CreateBucketIfNotExists(name); err != nil {
			return err
		}
	}
	t := &tx{b: btx}
	err := btx.Bucket(bucketContracts).ForEach(func(_, v []byte) error {
		c := new(signflow.Contract)
		if err := json.Unmarshal(v, c); err != nil {
			return err
		}
		return t.putEverywhere(c, false)
	})
	if err != nil {
		return err
	}
	return fillDeliveryFailed(btx)
}
