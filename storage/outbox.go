package storage

import (
	"bytes"
	"encoding/binary"
	"sync"
	"time"

	"contracts/signflow"

	bolt "go.etcd.io/bbolt"
)

// The outbox's claim indexes, added by schema 5. Both hold PENDING rows only:
//
//	delivery_due    <nextAt unix nanos, seq8> -> <target> 0x00 <contract id> 0x00 <delivery id>
//	delivery_lanes  <target> 0x00 <contract id> 0x00 <seq8> -> delivery id
//
// A claim walks delivery_due from its start up to now and takes each row
// that is the first of its lane (the lowest sequence of its target and
// contract in delivery_lanes) and not already claimed. One process uses a
// bbolt file, so claims are kept in memory: a restart releases them all.
var (
	bucketDeliveryDue   = []byte("delivery_due")
	bucketDeliveryLanes = []byte("delivery_lanes")
)

// claims are the rows handed out by ClaimDeliveries and not yet settled.
type claims struct {
	mu   sync.Mutex
	rows map[string]heldRow // by delivery id
}

// heldRow is a claim on a row as it was due under key in delivery_due: a
// write of the row that moves it (a retry, a redelivery) ends the claim.
type heldRow struct {
	by    string
	until time.Time
	key   string
}

// release ends the claim on the row as it was due under key, once a write
// of the row commits. A claim made since, on the row as written, stays.
func (c *claims) release(id string, key []byte) {
	c.mu.Lock()
	if h, ok := c.rows[id]; ok && h.key == string(key) {
		delete(c.rows, id)
	}
	c.mu.Unlock()
}

func dueKey(d *signflow.Delivery) []byte { return append(seq8(unixNanos(d.NextAt)), seq8(d.Seq)...) }

func laneKey(d *signflow.Delivery) []byte {
	return join([]byte(d.Target), []byte(d.ContractID), seq8(d.Seq))
}

// unixNanos is t in nanoseconds since 1970; earlier times count as 1970.
func unixNanos(t time.Time) uint64 {
	if !t.After(time.Unix(0, 0)) {
		return 0
	}
	return uint64(t.UnixNano())
}

// indexPending puts a PENDING row in the claim indexes, or takes it out.
func (t *tx) indexPending(d *signflow.Delivery, pending bool) error {
	due, lanes := t.bucket(bucketDeliveryDue), t.bucket(bucketDeliveryLanes)
	if !pending {
		if err := due.Delete(dueKey(d)); err != nil {
			return err
		}
		return lanes.Delete(laneKey(d))
	}
	if err := due.Put(dueKey(d), join([]byte(d.Target), []byte(d.ContractID), []byte(d.ID))); err != nil {
		return err
	}
	return lanes.Put(laneKey(d), []byte(d.ID))
}

// ClaimDeliveries hands out the due rows that lead their lanes, oldest due first.
func (db *DB) ClaimDeliveries(c signflow.DeliveryClaim) (*signflow.DeliveryBatch, error) {
	db.claims.mu.Lock()
	defer db.claims.mu.Unlock()
	out := &signflow.DeliveryBatch{}
	now := unixNanos(c.Now)
	given := map[string]int{} // rows of each target in this batch
	err := db.bolt.View(func(btx *bolt.Tx) error {
		t := &tx{b: btx, db: db}
		lanes := t.bucket(bucketDeliveryLanes).Cursor()
		cur := t.bucket(bucketDeliveryDue).Cursor()
		k, v := cur.First()
		// The cheap checks come first: a backlog of a target with no room
		// is walked on every claim.
		for ; k != nil && binary.BigEndian.Uint64(k[:8]) <= now && len(out.Rows) < c.Limit; k, v = cur.Next() {
			target := v[:bytes.IndexByte(v, 0)]
			if room := c.TargetRoom(string(target)); room >= 0 && given[string(target)] >= room {
				continue
			}
			i := bytes.LastIndexByte(v, 0)
			if h, held := db.claims.rows[string(v[i+1:])]; held && h.key == string(k) && h.until.After(c.Now) {
				continue
			}
			// The lane's first key must be this row's.
			if first, _ := lanes.Seek(v[:i+1]); !bytes.Equal(first, append(v[:i+1:i+1], k[8:]...)) {
				continue
			}
			id := string(v[i+1:])
			d, err := t.Delivery(id)
			if err != nil {
				return err
			}
			given[string(target)]++
			db.claims.rows[id] = heldRow{by: c.Claimer, until: c.Now.Add(c.Lease), key: string(k)}
			out.Rows = append(out.Rows, d)
		}
		if k, _ := cur.Seek(seq8(now + 1)); k != nil {
			out.NextAt = time.Unix(0, int64(binary.BigEndian.Uint64(k[:8])))
		}
		return nil
	})
	out.Pending = int(min(db.queued.Load(), signflow.PendingCap))
	for _, h := range db.claims.rows {
		if h.until.After(c.Now) && (out.NextAt.IsZero() || h.until.Before(out.NextAt)) {
			out.NextAt = h.until
		}
	}
	return out, err
}

// countQueued sets queued from the file, once at open; from then on each
// committed write of a row moves it (PutDelivery), so that a claim reports
// the outbox's depth without walking the queue.
func (db *DB) countQueued() error {
	return db.bolt.View(func(btx *bolt.Tx) error {
		var n int64
		if b := btx.Bucket(bucketDeliveryQueue); b != nil {
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
	for id, h := range db.claims.rows {
		if h.by == claimer {
			delete(db.claims.rows, id)
		}
	}
	return nil
}

// createDeliveryClaimIndexes is schema 6: the claim indexes, filled from
// the PENDING rows already queued.
func createDeliveryClaimIndexes(btx *bolt.Tx) error {
	for _, name := range [][]byte{bucketDeliveryDue, bucketDeliveryLanes} {
		if _, err := btx.CreateBucketIfNotExists(name); err != nil {
			return err
		}
	}
	t := &tx{b: btx}
	return btx.Bucket(bucketDeliveryQueue).ForEach(func(_, id []byte) error {
		d, err := t.Delivery(string(id))
		if err != nil {
			return err
		}
		return t.indexPending(d, true)
	})
}

var _ signflow.Outbox = (*DB)(nil)
