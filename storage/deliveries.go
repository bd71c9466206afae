package storage

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"
	"time"

	"contracts/signflow"

	bolt "go.etcd.io/bbolt"
)

// bucketDeliveryBodies holds each delivery's body, written once (schema 8):
//
//	delivery_bodies  <id> -> the body as sent (JSON)
var bucketDeliveryBodies = []byte("delivery_bodies")

// bucketDeliveryFailed is <seq8> -> delivery id of each FAILED
// delivery, in outbox order, as delivery_queue is of the PENDING ones.
var bucketDeliveryFailed = []byte("delivery_failed")

// AddDelivery puts a new outbox row in order at the end of the queue.
func (t *tx) AddDelivery(d *signflow.Delivery) error {
	seq, err := t.bucket(bucketDeliveries).NextSequence()
	if err != nil {
		return err
	}
	d.Seq = seq
	if err := t.bucket(bucketDeliveryContract).Put(join([]byte(d.ContractID), seq8(seq)), []byte(d.ID)); err != nil {
		return err
	}
	if err := t.putDelivery(d, nil); err != nil { // a new row: nothing stored to look up
		return err
	}
	// The wake-up is registered after putDelivery's count of the queue, so
	// that commit handlers, run in order, count the row before the pool
	// claims (and reports the queue's depth).
	if fn := t.db.deliveryAdded.Load(); fn != nil {
		t.b.OnCommit(*fn)
	}
	return nil
}

func (t *tx) Delivery(id string) (*signflow.Delivery, error) {
	v, err := t.DeliveryState(id)
	if err == nil {
		t.withBody(v)
	}
	return v, err
}

// DeliveryState is Delivery without the body: a settle rewrites the row's
// state, and the body, written once, is neither read nor written again.
func (t *tx) DeliveryState(id string) (*signflow.Delivery, error) {
	v := new(signflow.Delivery)
	data := t.reader(bucketDeliveries).Get([]byte(id)) // a claim and a settle read many rows
	if data == nil {
		return v, signflow.Errorf(signflow.ENOTFOUND, "Delivery not found.")
	}
	if err := decodeDelivery(data, v); err != nil {
		return v, err
	}
	if t.b.Writable() {
		// A write of the row follows, and needs the place the row had.
		if t.stored == nil {
			t.stored = map[string]storedDelivery{}
		}
		t.stored[id] = storedDelivery{v.Status, v.Seq, v.NextAt, v.Target, v.ContractID}
	}
	return v, nil
}

// storedDelivery is what of a row, as stored, places it in the indexes.
type storedDelivery struct {
	status             string
	seq                uint64
	nextAt             time.Time
	target, contractID string
}

// storedRow returns the row with the id as stored, as far as the indexes
// need it, or nil when there is none.
func (t *tx) storedRow(id string) (*signflow.Delivery, error) {
	if s, ok := t.stored[id]; ok {
		return &signflow.Delivery{ID: id, Status: s.status, Seq: s.seq, NextAt: s.nextAt, Target: s.target, ContractID: s.contractID}, nil
	}
	d, err := t.Delivery(id)
	if signflow.ErrorCode(err) == signflow.ENOTFOUND {
		return nil, nil
	}
	return d, err
}

// PutDelivery writes the row; it stays in the queue and the claim indexes
// while PENDING. Once committed, the write settles a claim on the row.
func (t *tx) PutDelivery(d *signflow.Delivery) error {
	old, err := t.storedRow(d.ID)
	if err != nil {
		return err
	}
	return t.putDelivery(d, old)
}

// putDelivery writes the row over old, the row as stored (nil: none).
func (t *tx) putDelivery(d *signflow.Delivery, old *signflow.Delivery) error {
	if old != nil && old.Status == signflow.DeliveryPending {
		if err := t.indexPending(old, false); err != nil {
			return err
		}
		if t.db != nil {
			seq, at := old.Seq, unixNanos(old.NextAt)
			t.b.OnCommit(func() { t.db.claims.release(seq, at) })
		}
	}
	pending := d.Status == signflow.DeliveryPending
	if was := old != nil && old.Status == signflow.DeliveryPending; was != pending && t.db != nil {
		delta := int64(1)
		if was {
			delta = -1
		}
		t.b.OnCommit(func() { t.db.queued.Add(delta) })
	}
	if old == nil {
		// The body is written once: a send or a redelivery rewrites the
		// row's state only.
		if err := t.bucket(bucketDeliveryBodies).Put([]byte(d.ID), d.Body); err != nil {
			return err
		}
	}
	// What DeliveryState noted of the row is stale now; a later write in
	// this transaction reads the row as written.
	delete(t.stored, d.ID)
	// The indexes hold PENDING rows only, and old's entries went above: a
	// row no longer PENDING has nothing left to take out.
	if pending {
		if err := t.indexPending(d, true); err != nil {
			return err
		}
	}
	// delivery_failed holds a row by its status; a write that keeps the
	// status leaves it be. The PENDING are in delivery_lanes.
	if err := t.indexStatus(bucketDeliveryFailed, d, old, signflow.DeliveryFailed); err != nil {
		return err
	}
	return t.putDeliveryState(d)
}

// indexStatus puts the row in the index of the rows in status, or takes it
// out, as the write moves it from old (nil: none).
func (t *tx) indexStatus(bucket []byte, d, old *signflow.Delivery, status string) error {
	was, is := old != nil && old.Status == status, d.Status == status
	if was && is && old.Seq == d.Seq {
		return nil
	}
	if was {
		if err := t.bucket(bucket).Delete(seq8(old.Seq)); err != nil {
			return err
		}
	}
	if is {
		return t.bucket(bucket).Put(seq8(d.Seq), []byte(d.ID))
	}
	return nil
}

// putDeliveryState writes the row without its body, which lives in
// delivery_bodies (see delivery_row.go).
func (t *tx) putDeliveryState(d *signflow.Delivery) error {
	return t.bucket(bucketDeliveries).Put([]byte(d.ID), encodeDelivery(d))
}

// withBody gives the row its body from delivery_bodies. A file before
// schema 8 (read by an earlier migration) has it in the row.
func (t *tx) withBody(d *signflow.Delivery) {
	if t.bucket(bucketDeliveryBodies) != nil {
		d.Body = bytes.Clone(t.reader(bucketDeliveryBodies).Get([]byte(d.ID)))
	}
}

// PendingDeliveries returns the oldest PENDING rows after the sequence
// number afterSeq, in outbox order.
func (t *tx) PendingDeliveries(afterSeq uint64, limit int) ([]*signflow.Delivery, error) {
	return t.pendingAfter(afterSeq, limit)
}

// pendingAfter reads the PENDING rows after afterSeq, at most limit, in
// outbox order. They are the rows of delivery_lanes, in lane order: the
// walk takes them all and sorts them, which a listing of the queue can
// afford and a claim never needs.
func (t *tx) pendingAfter(afterSeq uint64, limit int) ([]*signflow.Delivery, error) {
	type entry struct {
		seq uint64
		id  []byte
	}
	var found []entry
	err := t.bucket(bucketDeliveryLanes).ForEach(func(k, v []byte) error {
		if seq := binary.BigEndian.Uint64(k[len(k)-8:]); seq > afterSeq {
			found = append(found, entry{seq, v[8:]})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(found, func(a, b entry) int { return cmp.Compare(a.seq, b.seq) })
	var out []*signflow.Delivery
	for _, e := range found[:min(len(found), max(limit, 0))] {
		d, err := t.Delivery(string(e.id))
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

// Deliveries lists the log, oldest first, by contract or status.
func (t *tx) Deliveries(f signflow.DeliveryFilter) ([]*signflow.Delivery, error) {
	if f.Limit <= 0 {
		f.Limit = 1000
	}
	var out []*signflow.Delivery
	keep := func(d *signflow.Delivery) bool {
		return (f.Status == "" || d.Status == f.Status) && (f.ContractID == "" || d.ContractID == f.ContractID)
	}
	if f.ContractID == "" && f.Status == signflow.DeliveryPending {
		return t.pendingAfter(0, f.Limit)
	}
	if f.ContractID == "" && f.Status == signflow.DeliveryFailed {
		// The failed have an index of their own, in outbox order.
		c := t.bucket(bucketDeliveryFailed).Cursor()
		for k, id := c.First(); k != nil && len(out) < f.Limit; k, id = c.Next() {
			d, err := t.Delivery(string(id))
			if err != nil {
				return nil, err
			}
			out = append(out, d)
		}
		return out, nil
	}
	if f.ContractID != "" {
		prefix := join([]byte(f.ContractID), nil)
		c := t.bucket(bucketDeliveryContract).Cursor()
		for k, id := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix) && len(out) < f.Limit; k, id = c.Next() {
			d, err := t.Delivery(string(id))
			if err != nil {
				return nil, err
			}
			if keep(d) {
				out = append(out, d)
			}
		}
		return out, nil
	}
	err := t.bucket(bucketDeliveries).ForEach(func(_, v []byte) error {
		if len(out) >= f.Limit {
			return nil
		}
		d := new(signflow.Delivery)
		if err := decodeDelivery(v, d); err != nil {
			return err
		}
		if keep(d) {
			t.withBody(d)
			out = append(out, d)
		}
		return nil
	})
	return out, err
}

// splitDeliveryBodies is schema 8: each row's body moves to delivery_bodies,
// so that a send rewrites the row's small state and not its body.
func splitDeliveryBodies(btx *bolt.Tx) error {
	bodies, err := btx.CreateBucketIfNotExists(bucketDeliveryBodies)
	if err != nil {
		return err
	}
	rows := btx.Bucket(bucketDeliveries)
	var ids [][]byte
	if err := rows.ForEach(func(k, _ []byte) error { ids = append(ids, bytes.Clone(k)); return nil }); err != nil {
		return err
	}
	t := &tx{b: btx}
	for _, id := range ids {
		d := new(signflow.Delivery)
		if err := decodeDelivery(rows.Get(id), d); err != nil {
			return fmt.Errorf("delivery %s: %w", id, err)
		}
		if len(d.Body) == 0 || string(d.Body) == "null" {
			continue // moved already: a file rolled back after the upgrade
		}
		if err := bodies.Put(id, d.Body); err != nil {
			return err
		}
		if err := t.putDeliveryState(d); err != nil {
			return err
		}
	}
	return nil
}

// fillDeliveryFailed makes delivery_failed from the log (schema 5).
func fillDeliveryFailed(btx *bolt.Tx) error {
	failed, err := btx.CreateBucketIfNotExists(bucketDeliveryFailed)
	if err != nil {
		return err
	}
	return btx.Bucket(bucketDeliveries).ForEach(func(_, v []byte) error {
		d := new(signflow.Delivery)
		if err := decodeDelivery(v, d); err != nil || d.Status != signflow.DeliveryFailed {
			return err
		}
		return failed.Put(seq8(d.Seq), []byte(d.ID))
	})
}
