package storage

import (
	"slices"
	"sync"

	"contracts/signflow"
	"contracts/storage/record"
)

// A create's record is mostly its terms (values, products, payments),
// which its batched write, whose functions run one after another, does not
// change: PrepareContract encodes them on the caller's goroutine, with room
// before them for the head, and the write fills the head and appends the
// tail in place (spliceRecord). contract_prepare_test.go holds the result
// to record.Contract's.

// preparedRecord is a new contract's terms, encoded at buf[room:].
type preparedRecord struct {
	buf  []byte
	room int
}

// headRoom holds the head of a record with an id of up to 48 bytes and a
// number of up to 32 (a create's is the year and the sequence): a longer
// one takes the plain way.
const headRoom = len(`{"id":"","seq":18446744073709551615,"number":""`) + 48 + 32

// tailRoom is what is kept for the tail: the hash, the parties' details
// and the dates of a typical create (550 bytes, which with its terms fit
// the 2 KiB the plain encoder takes).
const tailRoom = 600

// PrepareContract encodes c's terms for its create's write, which is to
// call PutContract with c before ReleaseContract(c); until then c's fields
// but Seq, Number, Hash, Parties and Witnesses must not change (signflow's
// writeContract). A contract whose terms the hand encoder does not write
// is left to the plain way.
func (db *DB) PrepareContract(c *signflow.Contract) {
	var bad bool
	buf := record.AppendTerms(make([]byte, headRoom, 2048), c, &bad)
	if bad {
		return
	}
	buf = slices.Grow(buf, tailRoom) // here rather than in the write
	p := &db.prepared
	p.mu.Lock()
	if p.m == nil {
		p.m = make(map[*signflow.Contract]preparedRecord)
	}
	p.m[c] = preparedRecord{buf: buf, room: headRoom}
	p.mu.Unlock()
}

// ReleaseContract lets c's prepared terms go, if its write left them.
func (db *DB) ReleaseContract(c *signflow.Contract) { db.prepared.take(c) }

// preparedRecords are the creates' terms encoded before their write, by
// contract.
type preparedRecords struct {
	mu sync.Mutex
	m  map[*signflow.Contract]preparedRecord
}

// take removes c's prepared terms and returns them, if there were some.
func (p *preparedRecords) take(c *signflow.Contract) (preparedRecord, bool) {
	p.mu.Lock()
	r, ok := p.m[c]
	if ok {
		delete(p.m, c)
	}
	p.mu.Unlock()
	return r, ok
}

// encodeRecord is record.Contract(c), spliced into c's prepared terms when
// it has some; they serve one write (a batch that runs its function again
// takes the plain way).
func (t *tx) encodeRecord(c *signflow.Contract) ([]byte, error) {
	if t.db != nil {
		if p, ok := t.db.prepared.take(c); ok {
			if b, ok := p.splice(c); ok {
				return b, nil
			}
		}
	}
	return record.Contract(c)
}

// splice writes c's head before the terms and its tail after them; false
// when the head has no room or the tail is not the hand encoder's.
func (p preparedRecord) splice(c *signflow.Contract) ([]byte, bool) {
	// The head is written at the start of the room, then moved to its end.
	h := record.AppendHead(p.buf[:0:p.room], c)
	if len(h) > p.room || &h[0] != &p.buf[0] {
		return nil, false
	}
	var bad bool
	start := p.room - len(h)
	copy(p.buf[start:p.room], h)
	b := record.AppendTail(p.buf, c, &bad)
	return b[start:], !bad
}
