package storage

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"contracts/signflow"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// The outbox's claim indexes hold PENDING rows only (the layout of schema 11):
//
//	delivery_lanes  <target> 0x00 <contract id> 0x00 <seq8> -> <nextAt8> <delivery id>
//	delivery_due    <target> 0x00 <nextAt8> <seq8> -> <contract id> 0x00 <delivery id>
//
// A lane is one target's rows about one contract; delivery_due holds only
// the first row of each lane (its lowest sequence), so that a claim never
// meets a row that must wait for an earlier one. Its keys start with the
// target, so that a claim steps over a target with no room with one seek,
// whatever its backlog. One process uses a bbolt file, so claims are kept
// in memory: a restart releases them all.
var (
	bucketDeliveryDue   = []byte("delivery_due")
	bucketDeliveryLanes = []byte("delivery_lanes")
)

// claims are the rows handed out by ClaimDeliveries and not yet settled.
type claims struct {
	mu   sync.Mutex
	rows map[uint64]heldRow // by the row's sequence number, cheaper to look up than its id
}

// heldRow is a claim on a row as it was due at (unix nanos): a write of
// the row that moves it (a retry, a redelivery) ends the claim.
type heldRow struct {
	by    string
	until time.Time
	at    uint64
}

// release ends the claim on the row seq as it was due at, once a write of
// the row commits. A claim made since, on the row as written, stays.
func (c *claims) release(seq, at uint64) {
	c.mu.Lock()
	if h, ok := c.rows[seq]; ok && h.at == at {
		delete(c.rows, seq)
	}
	c.mu.Unlock()
}

func dueKey(d *signflow.Delivery) []byte {
	k := make([]byte, 0, len(d.Target)+17)
	k = append(append(k, d.Target...), 0)
	k = binary.BigEndian.AppendUint64(k, unixNanos(d.NextAt))
	return binary.BigEndian.AppendUint64(k, d.Seq)
}

func lanePrefix(d *signflow.Delivery) []byte {
	k := make([]byte, 0, len(d.Target)+len(d.ContractID)+10)
	return append(append(append(append(k, d.Target...), 0), d.ContractID...), 0)
}

func laneKey(d *signflow.Delivery) []byte { return binary.BigEndian.AppendUint64(lanePrefix(d), d.Seq) }

// unixNanos is t in nanoseconds since 1970; earlier times count as 1970.
func unixNanos(t time.Time) uint64 {
	if !t.After(time.Unix(0, 0)) {
		return 0
	}
	return uint64(t.UnixNano())
}

// indexPending puts a PENDING row in the claim indexes, or takes it out,
// and keeps the first row of its lane, and only that one, in delivery_due.
func (t *tx) indexPending(d *signflow.Delivery, pending bool) error {
	due, lanes := t.bucket(bucketDeliveryDue), t.bucket(bucketDeliveryLanes)
	key := laneKey(d)
	prefix := key[: len(key)-8 : len(key)-8] // the lane's: key without the sequence
	c := t.keptCursor(bucketDeliveryLanes)
	if !pending {
		if first, _ := c.Seek(prefix); !bytes.Equal(first, key) {
			return lanes.Delete(key) // not the lane's first: not in delivery_due
		}
		if err := c.Delete(); err != nil { // the cursor is on key: no second seek
			return err
		}
		if err := due.Delete(dueKey(d)); err != nil {
			return err
		}
		// The lane's next row, if any, leads it now.
		k, v := c.Seek(prefix)
		if k == nil || !bytes.HasPrefix(k, prefix) {
			return nil
		}
		return due.Put(laneDueKey(d.Target, k, v), laneDueValue(d.ContractID, v))
	}
	v := binary.BigEndian.AppendUint64(make([]byte, 0, 8+len(d.ID)), unixNanos(d.NextAt))
	v = append(v, d.ID...)
	if err := lanes.Put(key, v); err != nil {
		return err
	}
	if first, _ := c.Seek(prefix); !bytes.Equal(first, key) {
		return nil // an earlier row leads the lane
	}
	if err := due.Put(dueKey(d), laneDueValue(d.ContractID, v)); err != nil {
		return err
	}
	// The row that led the lane until now (a row queued again may come
	// before it) waits behind this one.
	if k, v := c.Next(); k != nil && bytes.HasPrefix(k, prefix) {
		return due.Delete(laneDueKey(d.Target, k, v))
	}
	return nil
}

// keptCursor is the transaction's one cursor over the named bucket, the
// one its reader's Get seeks with: a settle of many rows walks the lanes
// without a cursor, and its stack, for each. Every use starts with a Seek.
func (t *tx) keptCursor(name []byte) *bolt.Cursor {
	r := t.reader(name)
	if r.cur == nil {
		r.cur = r.Bucket.Cursor()
	}
	return r.cur
}

// laneDueKey is the delivery_due key of the lane entry k, v of target.
func laneDueKey(target string, k, v []byte) []byte {
	out := make([]byte, 0, len(target)+17)
	out = append(append(out, target...), 0)
	return append(append(out, v[:8]...), k[len(k)-8:]...)
}

func laneDueValue(contractID string, laneValue []byte) []byte {
	out := make([]byte, 0, len(contractID)+1+len(laneValue)-8)
	return append(append(append(out, contractID...), 0), laneValue[8:]...)
}

// ClaimDeliveries hands out the due rows that lead their lanes, oldest due
// first. It visits each target once: a target with no room costs one
// seek, and of one with room it reads the rows it gives out and those
// claimed already (a bounded number), never the rest of its backlog.
func (db *DB) ClaimDeliveries(c signflow.DeliveryClaim) (*signflow.DeliveryBatch, error) {
	db.claims.mu.Lock()
	defer db.claims.mu.Unlock()
	out := &signflow.DeliveryBatch{}
	now := unixNanos(c.Now)
	var next uint64 // the soonest due time after now of a target with room
	err := db.bolt.View(func(btx *bolt.Tx) error {
		t := &tx{b: btx, db: db}
		var found []dueRow
		cur := t.bucket(bucketDeliveryDue).Cursor()
		for k, v := cur.First(); k != nil; {
			i := bytes.IndexByte(k, 0)
			target := append([]byte(nil), k[:i+1]...)
			room := c.TargetRoom(string(target[:i]))
			if room < 0 {
				room = c.Limit
			}
			took := 0
			for ; k != nil && bytes.HasPrefix(k, target) && took < min(room, c.Limit); k, v = cur.Next() {
				at := binary.BigEndian.Uint64(k[i+1:])
				if at > now {
					if next == 0 || at < next {
						next = at
					}
					break
				}
				seq := binary.BigEndian.Uint64(k[len(k)-8:])
				if h, held := db.claims.rows[seq]; held && h.at == at && h.until.After(c.Now) {
					continue
				}
				found = append(found, dueRow{seq: seq, key: k[i+1:], id: v[bytes.IndexByte(v, 0)+1:]})
				took++
			}
			target[i] = 1 // the next target's keys come after every key of this one
			k, v = cur.Seek(target)
		}
		slices.SortFunc(found, func(a, b dueRow) int { return bytes.Compare(a.key, b.key) })
		for _, r := range found[:min(len(found), c.Limit)] {
			d, err := t.Delivery(string(r.id))
			if err != nil {
				return err
			}
			db.claims.rows[r.seq] = heldRow{by: c.Claimer, until: c.Now.Add(c.Lease), at: binary.BigEndian.Uint64(r.key)}
			out.Rows = append(out.Rows, d)
		}
		return nil
	})
	if next != 0 {
		out.NextAt = time.Unix(0, int64(next))
	}
	out.Pending = int(min(db.queued.Load(), signflow.PendingCap))
	for _, h := range db.claims.rows {
		if h.until.After(c.Now) && (out.NextAt.IsZero() || h.until.Before(out.NextAt)) {
			out.NextAt = h.until
		}
	}
	return out, err
}

// dueRow is a row a claim may give out: its sequence, the due time and
// sequence of its delivery_due key (the order rows are given out in), its
// id; the slices are the transaction's.
type dueRow struct {
	seq     uint64
	key, id []byte
}

// countQueued sets queued from the file, once at open; from then on each
// committed write of a row moves it (PutDelivery), so that a claim reports
// the outbox's depth without walking the queue.
func (db *DB) countQueued() error {
	return db.bolt.View(func(btx *bolt.Tx) error {
		var n int64
		if b := btx.Bucket(bucketDeliveryLanes); b != nil {
			n = int64(b.Stats().KeyN)
		}
		db.queued.Store(n)
		return nil
	})
}

// ReleaseDeliveries forgets the claimer's claims.
func (db *DB) ReleaseDeliveries(claimer string) error {
	db.claims.mu.Lock()
	defer db.claims.mu.Unlock()
	for seq, h := range db.claims.rows {
		if h.by == claimer {
			delete(db.claims.rows, seq)
		}
	}
	return nil
}

// createDeliveryClaimIndexes is schema 6: the claim indexes, filled by
// schema 11.
func createDeliveryClaimIndexes(btx *bolt.Tx) error {
	for _, name := range [][]byte{bucketDeliveryDue, bucketDeliveryLanes} {
		if _, err := btx.CreateBucketIfNotExists(name); err != nil {
			return err
		}
	}
	return nil
}

// indexLaneHeads is schema 11: the claim indexes made again, keyed by
// target first and with only the first row of each lane due, from the
// PENDING rows; delivery_lanes holds them all, so that delivery_queue,
// which held them too, goes.
func indexLaneHeads(btx *bolt.Tx) error {
	for _, name := range [][]byte{bucketDeliveryDue, bucketDeliveryLanes, bucketDeliveryQueue} {
		if err := btx.DeleteBucket(name); err != nil && !errors.Is(err, bolterrors.ErrBucketNotFound) {
			return err
		}
	}
	for _, name := range [][]byte{bucketDeliveryDue, bucketDeliveryLanes} {
		if _, err := btx.CreateBucket(name); err != nil {
			return err
		}
	}
	t := &tx{b: btx}
	return btx.Bucket(bucketDeliveries).ForEach(func(k, v []byte) error {
		d := new(signflow.Delivery)
		if err := decodeDelivery(v, d); err != nil {
			return fmt.Errorf("delivery %s: %w", k, err)
		}
		if d.Status != signflow.DeliveryPending {
			return nil
		}
		return t.indexPending(d, true)
	})
}

var _ signflow.Outbox = (*DB)(nil)
