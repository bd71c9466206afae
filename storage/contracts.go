package storage

import (
	"bytes"
	"encoding/binary"
	"math"
	"slices"
	"strings"

	"contracts/signflow"
)

const sep = 0x1f

func (t *tx) Contract(id string) (*signflow.Contract, error) {
	v := new(signflow.Contract)
	return v, t.get(bucketContracts, []byte(id), v, "Contract")
}

func (t *tx) NextContractSeq() (uint64, error) {
	seq, err := t.bucket(bucketContracts).NextSequence()
	if err == nil {
		t.fresh = append(t.fresh, seq)
	}
	return seq, err
}

// isFresh reports whether c's sequence was taken in this transaction and
// no contract was written with it yet, and marks it written: a create's
// index entries are new, so they are not looked for.
func (t *tx) isFresh(c *signflow.Contract) bool {
	i := slices.Index(t.fresh, c.Seq)
	if i < 0 {
		return false
	}
	t.fresh = slices.Delete(t.fresh, i, i+1)
	return true
}

// PutContract writes the contract and its index entries. Parties, number,
// template and sequence never change after creation, so the index keys of
// a contract are stable and a rewrite only refreshes their summaries.
func (t *tx) PutContract(c *signflow.Contract) error {
	if err := t.bucket(bucketContractNumbers).Put(t.tmpKey(c.Number), []byte(c.ID)); err != nil {
		return err
	}
	fresh := t.isFresh(c)
	party, pair := t.reader(bucketContractParty), t.bucket(bucketContractPair)
	for _, in := range []string{c.BuyerIN, c.SellerIN} {
		other := c.Counterparty(in)
		sum := summary(c, other)
		var old []byte
		if !fresh {
			old = party.Get(t.tmpSeqKey(c.Seq, in))
		}
		if err := t.recount(in, old, c); err != nil {
			return err
		}
		if err := party.Put(t.tmpSeqKey(c.Seq, in), sum); err != nil {
			return err
		}
		if err := pair.Put(t.tmpSeqKey(c.Seq, in, other), sum); err != nil {
			return err
		}
	}
	if err := t.putEverywhere(c, fresh); err != nil {
		return err
	}
	if err := t.putWitnesses(c); err != nil {
		return err
	}
	data, err := t.encodeRecord(c)
	if err != nil {
		return err
	}
	return t.putData(bucketContracts, t.tmpKey(c.ID), data)
}

// tmpKey is s in the transaction's key buffer, which the next tmpKey or
// tmpSeqKey overwrites: for a key that bbolt's Put copies, or a seek. A
// create puts a dozen keys.
func (t *tx) tmpKey(s string) []byte {
	t.kb = append(t.kb[:0], s...)
	return t.kb
}

// tmpSeqKey is join(parts..., seq8(seq)) in the key buffer (tmpKey).
func (t *tx) tmpSeqKey(seq uint64, parts ...string) []byte {
	b := t.kb[:0]
	for _, p := range parts {
		b = append(append(b, p...), 0)
	}
	t.kb = binary.BigEndian.AppendUint64(b, seq)
	return t.kb
}

func summary(c *signflow.Contract, other ...string) []byte {
	n := len(c.Status) + len(c.TemplateID) + len(c.Number) + len(c.ID) + 4
	for _, o := range other {
		n += len(o) + 1
	}
	b := append(append(make([]byte, 0, n), c.Status...), sep)
	b = append(append(b, c.TemplateID...), sep)
	for i, o := range other { // the parties of an entry of contract_all, space-separated
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, o...)
	}
	b = append(append(append(b, sep), c.Number...), sep)
	return append(b, c.ID...)
}

// A summary's fields are cut only as far as a question needs them; the
// slices point into bbolt's memory and live as long as the transaction, so
// nothing is allocated per entry.

// cut returns the first field of a summary and the rest after it.
func cut(v []byte) (field, rest []byte) {
	if i := bytes.IndexByte(v, sep); i >= 0 {
		return v[:i], v[i+1:]
	}
	return v, nil
}

// summaryID is the contract id, the last field.
func summaryID(v []byte) []byte { return v[bytes.LastIndexByte(v, sep)+1:] }

// summaryOther is the counterparty's number, the third field.
func summaryOther(v []byte) []byte {
	_, rest := cut(v)
	_, rest = cut(rest)
	other, _ := cut(rest)
	return other
}

func beUint(b []byte) uint64 {
	var n uint64
	for _, x := range b {
		n = n<<8 | uint64(x)
	}
	return n
}

// filter is the part of a query that the summaries answer.
type filter struct{ q *signflow.ContractQuery }

// none reports whether the filter keeps every entry.
func (f filter) none() bool {
	return f.q.TemplateID == "" && f.q.AllTemplates && len(f.q.Statuses) == 0 && f.q.Counterparties == nil
}

// keep reports whether the contract with summary v passes the filter.
func (f filter) keep(v []byte) bool {
	q := f.q
	if f.none() {
		return true
	}
	if q.Counterparties != nil && !containsBytes(q.Counterparties, summaryOther(v)) {
		return false
	}
	status, rest := cut(v)
	if len(q.Statuses) > 0 && !containsBytes(q.Statuses, status) {
		return false
	}
	if q.TemplateID == "" && q.AllTemplates {
		return true
	}
	template, _ := cut(rest)
	if q.TemplateID != "" && string(template) != q.TemplateID {
		return false
	}
	return q.AllTemplates || containsBytes(q.TemplateIDs, template)
}

// pager counts the matches fed to it, newest first, and keeps the ids of
// those that fall on the requested page.
type pager struct {
	from, to, n int
	ids         []string
}

func newPager(page, size int) *pager {
	from := math.MaxInt
	if page <= (math.MaxInt-size)/size {
		from = page * size
	}
	return &pager{from: from, to: from + size}
}

// add counts the match with summary v.
func (p *pager) add(v []byte) {
	if p.n >= p.from && p.n < p.to {
		p.ids = append(p.ids, string(summaryID(v)))
	}
	p.n++
}

// ListContracts answers from the party and pair indexes and the counts.
// With no search the owner's entries are walked to the page; a search (or
// a list limited to some counterparties) is resolved to counterparties,
// whose counts give the total, and the page is merged from their pair
// entries. A search matches the exact contract number, counterparties
// whose number starts with the text, and counterparties whose name has a
// word starting with each word of the text. Only the page's records are
// decoded.
func (t *tx) ListContracts(q signflow.ContractQuery) (*signflow.ContractPage, error) {
	f, p := filter{&q}, newPager(q.Page, q.Size)
	s := strings.TrimSpace(q.Search)
	switch {
	case q.AllOwners:
		q.Counterparties = nil
		t.listEveryone(&q, f, p)
	case s == "" && q.Counterparties == nil:
		// The counts give the total, so the walk stops at the page's end
		// or at the last match, and a page in the older half of the
		// matches is found from the oldest entry up.
		total, _ := t.countMatches(&q)
		fillPage(p, total, func(newest bool, fn func([]byte) bool) {
			t.walkEntries(bucketContractParty, join([]byte(q.OwnerIN), nil), newest, fn)
		}, f.keep)
	default:
		t.searchPage(q.OwnerIN, t.matchSearch(&q, s, f), f, p)
	}
	page := &signflow.ContractPage{Total: p.n}
	for _, id := range p.ids {
		c, err := t.Contract(id)
		if err != nil {
			return nil, err
		}
		page.Contracts = append(page.Contracts, c)
	}
	return page, nil
}

// pairScanLimit bounds the matches an administrator's search gathers from
// the party index before it walks every contract instead. Tests lower it
// to check that both ways give the same answer.
var pairScanLimit = 1 << 15

// broadPrefix is the length below which a number prefix is searched by
// the administrator with a walk of every contract.
const broadPrefix = 5

type hit struct {
	seq     uint64
	summary []byte
}

// partyEntry returns the sequence and the owner's index summary of the
// contract, or a nil summary when the owner is not a party.
func (t *tx) partyEntry(owner string, id []byte) (uint64, []byte) {
	c, err := t.Contract(string(id))
	if err != nil || !c.HasParty(owner) {
		return 0, nil
	}
	return c.Seq, t.bucket(bucketContractParty).Get(join([]byte(owner), seq8(c.Seq)))
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

// containsBytes reports whether b is in list, without converting b
// (slices.Contains(list, string(b)) copies b when it is over 32 bytes).
func containsBytes(list []string, b []byte) bool {
	return slices.ContainsFunc(list, func(v string) bool { return v == string(b) })
}
