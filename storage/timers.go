package storage

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"time"

	"contracts/signflow"
)

// The timers' buckets are made by the first timer set, not by a migration
// (as stamps): a file without them has no timers, and an older build still
// opens it.
//
//	timers      <kind> 0x00 <subject> -> Timer
//	timer_due   <at unix nanos> <kind> 0x00 <subject> -> nil
var (
	bucketTimers   = []byte("timers")
	bucketTimerDue = []byte("timer_due")
)

func timerKey(kind, subject string) []byte { return append(append([]byte(kind), 0), subject...) }

func timerDueKey(at time.Time, id []byte) []byte {
	return append(binary.BigEndian.AppendUint64(nil, uint64(max(at.UnixNano(), 0))), id...)
}

func (t *tx) Timer(kind, subject string) (*signflow.Timer, error) {
	b := t.b.Bucket(bucketTimers)
	var v []byte
	if b != nil {
		v = b.Get(timerKey(kind, subject))
	}
	if v == nil {
		return nil, signflow.Errorf(signflow.ENOTFOUND, "Timer not found.")
	}
	out := new(signflow.Timer)
	return out, json.Unmarshal(v, out)
}

func (t *tx) PutTimer(tm *signflow.Timer) error {
	if err := t.DeleteTimer(tm.Kind, tm.Subject); err != nil {
		return err
	}
	recs, err := t.b.CreateBucketIfNotExists(bucketTimers)
	if err != nil {
		return err
	}
	due, err := t.b.CreateBucketIfNotExists(bucketTimerDue)
	if err != nil {
		return err
	}
	v, err := json.Marshal(tm)
	if err != nil {
		return err
	}
	id := timerKey(tm.Kind, tm.Subject)
	if err := recs.Put(id, v); err != nil {
		return err
	}
	return due.Put(timerDueKey(tm.At, id), nil)
}

func (t *tx) DeleteTimer(kind, subject string) error {
	old, err := t.Timer(kind, subject)
	if signflow.ErrorCode(err) == signflow.ENOTFOUND {
		return nil
	} else if err != nil {
		return err
	}
	id := timerKey(kind, subject)
	if err := t.b.Bucket(bucketTimerDue).Delete(timerDueKey(old.At, id)); err != nil {
		return err
	}
	return t.b.Bucket(bucketTimers).Delete(id)
}

func (t *tx) DueTimers(before time.Time, limit int) ([]*signflow.Timer, error) {
	due, recs := t.b.Bucket(bucketTimerDue), t.b.Bucket(bucketTimers)
	if due == nil || recs == nil {
		return nil, nil
	}
	end := timerDueKey(before, nil)
	var out []*signflow.Timer
	c := due.Cursor()
	for k, _ := c.First(); k != nil && bytes.Compare(k[:8], end) < 0 && len(out) < limit; k, _ = c.Next() {
		tm := new(signflow.Timer)
		if err := json.Unmarshal(recs.Get(k[8:]), tm); err != nil {
			return nil, err
		}
		out = append(out, tm)
	}
	return out, nil
}
