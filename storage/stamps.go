package storage

import (
	"bytes"
	"context"
	"errors"

	bolt "go.etcd.io/bbolt"
)

// bucketStamps keeps the seals' time-stamp tokens. It is made by the first
// token kept, not by a migration: a file without it simply has none, and
// an older build that does not know it still opens the file.
var bucketStamps = []byte("stamps")

// maxStampKey bounds a key: a SHA-256 is 32 bytes.
const maxStampKey = 64

// Stamp returns the time-stamp token kept under key (the SHA-256 of the
// seal's signature value), or nil when there is none. With SaveStamp it is
// the seal's store of tokens (pades.Stamps), so that a contract version
// downloaded again is sealed with the same token and is the same bytes.
func (db *DB) Stamp(_ context.Context, key []byte) ([]byte, error) {
	var token []byte
	err := db.bolt.View(func(btx *bolt.Tx) error {
		if b := btx.Bucket(bucketStamps); b != nil {
			token = bytes.Clone(b.Get(key))
		}
		return nil
	})
	return token, err
}

// SaveStamp keeps token under key, replacing the one kept before.
func (db *DB) SaveStamp(_ context.Context, key, token []byte) error {
	if len(key) == 0 || len(key) > maxStampKey || len(token) == 0 {
		return errors.New("storage: a time-stamp needs a key of 1 to 64 bytes and a token")
	}
	return db.bolt.Update(func(btx *bolt.Tx) error {
		db.noteCommit(btx)
		b, err := btx.CreateBucketIfNotExists(bucketStamps)
		if err != nil {
			return err
		}
		return b.Put(key, token)
	})
}
