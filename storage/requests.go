package storage

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"time"

	"contracts/signflow"

	bolt "go.etcd.io/bbolt"
)

// The idempotency keys' buckets are made by the first key claimed, not by
// a migration (as stamps): a file without them has no keys, and an older
// build still opens it. Keys last a day, so backups and exports skip them.
//
//	requests         <caller> 0x00 <key> -> IdempotentRequest
//	request_expiry   <expiresAt unix nanos> <caller> 0x00 <key> -> nil
var (
	bucketRequests      = []byte("requests")
	bucketRequestExpiry = []byte("request_expiry")
)

func requestKey(caller, key string) []byte {
	return append(append([]byte(caller), 0), key...)
}

func requestExpiryKey(at time.Time, id []byte) []byte {
	return append(binary.BigEndian.AppendUint64(nil, uint64(at.UnixNano())), id...)
}

// requestBuckets returns the two buckets, made if need be.
func requestBuckets(btx *bolt.Tx) (recs, expiry *bolt.Bucket, err error) {
	if recs, err = btx.CreateBucketIfNotExists(bucketRequests); err != nil {
		return nil, nil, err
	}
	expiry, err = btx.CreateBucketIfNotExists(bucketRequestExpiry)
	return recs, expiry, err
}

// ClaimRequest implements signflow.Requests; bbolt's single writer makes
// the look and the write one step.
func (db *DB) ClaimRequest(_ context.Context, r *signflow.IdempotentRequest, now time.Time) (*signflow.IdempotentRequest, error) {
	var held *signflow.IdempotentRequest
	err := db.bolt.Update(func(btx *bolt.Tx) error {
		held = nil
		recs, expiry, err := requestBuckets(btx)
		if err != nil {
			return err
		}
		id := requestKey(r.Caller, r.Key)
		if v := recs.Get(id); v != nil {
			var old signflow.IdempotentRequest
			if err := json.Unmarshal(v, &old); err != nil {
				return err
			}
			if now.Before(old.ExpiresAt) {
				held = &old
				return nil
			}
		}
		return putRequest(recs, expiry, id, r)
	})
	return held, err
}

// FinishRequest implements signflow.Requests.
func (db *DB) FinishRequest(_ context.Context, r *signflow.IdempotentRequest) error {
	return db.bolt.Update(func(btx *bolt.Tx) error {
		recs, expiry, err := requestBuckets(btx)
		if err != nil {
			return err
		}
		return putRequest(recs, expiry, requestKey(r.Caller, r.Key), r)
	})
}

// putRequest writes r in place of the record under id, with its expiry entry.
func putRequest(recs, expiry *bolt.Bucket, id []byte, r *signflow.IdempotentRequest) error {
	if err := deleteRequest(recs, expiry, id); err != nil {
		return err
	}
	v, err := json.Marshal(r)
	if err != nil {
		return err
	}
	if err := recs.Put(id, v); err != nil {
		return err
	}
	return expiry.Put(requestExpiryKey(r.ExpiresAt, id), nil)
}

func deleteRequest(recs, expiry *bolt.Bucket, id []byte) error {
	v := recs.Get(id)
	if v == nil {
		return nil
	}
	var old signflow.IdempotentRequest
	if err := json.Unmarshal(v, &old); err != nil {
		return err
	}
	if err := expiry.Delete(requestExpiryKey(old.ExpiresAt, id)); err != nil {
		return err
	}
	return recs.Delete(id)
}

// ReleaseRequest implements signflow.Requests.
func (db *DB) ReleaseRequest(_ context.Context, caller, key string) error {
	return db.bolt.Update(func(btx *bolt.Tx) error {
		recs, expiry, err := requestBuckets(btx)
		if err != nil {
			return err
		}
		return deleteRequest(recs, expiry, requestKey(caller, key))
	})
}

// PurgeRequests implements signflow.Requests.
func (db *DB) PurgeRequests(_ context.Context, before time.Time, limit int) (int, error) {
	n := 0
	err := db.bolt.Update(func(btx *bolt.Tx) error {
		n = 0
		recs, expiry := btx.Bucket(bucketRequests), btx.Bucket(bucketRequestExpiry)
		if recs == nil || expiry == nil {
			return nil
		}
		end := binary.BigEndian.AppendUint64(nil, uint64(before.UnixNano()))
		var ids [][]byte
		c := expiry.Cursor()
		for k, _ := c.First(); k != nil && bytes.Compare(k[:8], end) < 0 && len(ids) < limit; k, _ = c.Next() {
			ids = append(ids, bytes.Clone(k[8:]))
		}
		for _, id := range ids {
			if err := deleteRequest(recs, expiry, id); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	return n, err
}
