package storage

import (
	"bytes"
	"sort"
	"strings"

	"contracts/signflow"
)

const sep = 0x1f

func (t *tx) Contract(id string) (*signflow.Contract, error) {
	v := new(signflow.Contract)
	return v, t.get(bucketContracts, []byte(id), v, "Contract")
}

func (t *tx) NextContractSeq() (uint64, error) { return t.bucket(bucketContracts).NextSequence() }

// PutContract writes the contract and its index entries. Parties, number,
// template and sequence never change after creation, so the index keys of
// a contract are stable and a rewrite only refreshes their summaries.
func (t *tx) PutContract(c *signflow.Contract) error {
	if err := t.bucket(bucketContractNumbers).Put([]byte(c.Number), []byte(c.ID)); err != nil {
		return err
	}
	party, pair := t.bucket(bucketContractParty), t.bucket(bucketContractPair)
	for _, in := range []string{c.BuyerIN, c.SellerIN} {
		other := c.Counterparty(in)
		sum := summary(c, other)
		if err := party.Put(join([]byte(in), seq8(c.Seq)), sum); err != nil {
			return err
		}
		if err := pair.Put(join([]byte(in), []byte(other), seq8(c.Seq)), sum); err != nil {
			return err
		}
	}
	return t.put(bucketContracts, []byte(c.ID), c)
}

func summary(c *signflow.Contract, other string) []byte {
	return []byte(c.Status + string(rune(sep)) + c.TemplateID + string(rune(sep)) + other + string(rune(sep)) + c.Number + string(rune(sep)) + c.ID)
}

type entry struct {
	seq                                 uint64
	status, template, other, number, id string
}

func parseEntry(seq []byte, v []byte) entry {
	f := strings.Split(string(v), string(rune(sep)))
	e := entry{seq: beUint(seq)}
	if len(f) == 5 {
		e.status, e.template, e.other, e.number, e.id = f[0], f[1], f[2], f[3], f[4]
	}
	return e
}

func beUint(b []byte) uint64 {
	var n uint64
	for _, x := range b {
		n = n<<8 | uint64(x)
	}
	return n
}

// ListContracts answers from the party and pair indexes: with no search it
// walks the owner's entries newest first; a search unions the exact contract
// number, counterparties whose number starts with the text, and
// counterparties whose name has words starting with each word of the text.
func (t *tx) ListContracts(q signflow.ContractQuery) (*signflow.ContractPage, error) {
	keep := func(e entry) bool {
		if q.TemplateID != "" && e.template != q.TemplateID {
			return false
		}
		if !q.AllTemplates && !containsStr(q.TemplateIDs, e.template) {
			return false
		}
		return len(q.Statuses) == 0 || containsStr(q.Statuses, e.status)
	}
	var matched []entry
	if s := strings.TrimSpace(q.Search); s == "" {
		prefix := join([]byte(q.OwnerIN), nil)
		c := t.bucket(bucketContractParty).Cursor()
		for k, v := seekLast(c, prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Prev() {
			if e := parseEntry(k[len(prefix):], v); keep(e) {
				matched = append(matched, e)
			}
		}
	} else {
		matched = t.search(q.OwnerIN, s, keep)
	}
	page := &signflow.ContractPage{Total: len(matched)}
	if q.Page > len(matched)/q.Size {
		return page, nil
	}
	from := q.Page * q.Size
	for i := from; i < len(matched) && i < from+q.Size; i++ {
		c, err := t.Contract(matched[i].id)
		if err != nil {
			return nil, err
		}
		page.Contracts = append(page.Contracts, c)
	}
	return page, nil
}

func (t *tx) search(owner, s string, keep func(entry) bool) []entry {
	found := map[uint64]entry{}
	add := func(e entry) {
		if keep(e) {
			found[e.seq] = e
		}
	}
	ownerPrefix := join([]byte(owner), nil)
	pair := t.bucket(bucketContractPair).Cursor()
	scanPair := func(prefix []byte) {
		for k, v := pair.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = pair.Next() {
			add(parseEntry(k[len(k)-8:], v))
		}
	}
	// The contract number, exactly.
	if id := t.bucket(bucketContractNumbers).Get([]byte(s)); id != nil {
		if c, err := t.Contract(string(id)); err == nil && c.HasParty(owner) {
			add(parseEntry(seq8(c.Seq), summary(c, c.Counterparty(owner))))
		}
	}
	// A counterparty whose number starts with the text.
	if isDigits(s) {
		scanPair(append(ownerPrefix, s...))
	}
	// Counterparties whose names match every word.
	for _, in := range t.namesMatching(s) {
		scanPair(join([]byte(owner), []byte(in), nil))
	}
	out := make([]entry, 0, len(found))
	for _, e := range found {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].seq > out[j].seq })
	return out
}

// namesMatching returns the numbers of clients having, for each word of s,
// a name word that starts with it.
func (t *tx) namesMatching(s string) []string {
	var result map[string]bool
	for _, w := range strings.Fields(strings.ToLower(s)) {
		set := map[string]bool{}
		c := t.bucket(bucketClientNames).Cursor()
		for k, _ := c.Seek([]byte(w)); k != nil && bytes.HasPrefix(k, []byte(w)); k, _ = c.Next() {
			if i := bytes.IndexByte(k, 0); i >= 0 && (result == nil || result[string(k[i+1:])]) {
				set[string(k[i+1:])] = true
			}
		}
		result = set
		if len(result) == 0 {
			return nil
		}
	}
	out := make([]string, 0, len(result))
	for in := range result {
		out = append(out, in)
	}
	return out
}

// seekLast positions c on the last key with the prefix.
func seekLast(c interface {
	Seek([]byte) ([]byte, []byte)
	Last() ([]byte, []byte)
	Prev() ([]byte, []byte)
}, prefix []byte) ([]byte, []byte) {
	end := append(append([]byte{}, prefix[:len(prefix)-1]...), prefix[len(prefix)-1]+1)
	if k, _ := c.Seek(end); k == nil {
		return c.Last()
	}
	return c.Prev()
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func containsStr(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
