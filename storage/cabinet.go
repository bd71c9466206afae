package storage

import (
	"bytes"
	"time"

	"contracts/signflow"

	bolt "go.etcd.io/bbolt"
)

// Buckets of the cabinet, added by schema 2.
var (
	bucketCabinetLogins   = []byte("cabinet_logins")
	bucketCabinetSessions = []byte("cabinet_sessions")
	bucketCabinetExpiry   = []byte("cabinet_expiry")
)

// createCabinetBuckets is the migration to schema 2.
func createCabinetBuckets(btx *bolt.Tx) error {
	for _, name := range [][]byte{bucketCabinetLogins, bucketCabinetSessions, bucketCabinetExpiry} {
		if _, err := btx.CreateBucketIfNotExists(name); err != nil {
			return err
		}
	}
	return nil
}

// Kinds of cabinet_expiry entries.
const (
	expiryLogin   = 'l'
	expirySession = 's'
)

// purgeKey is the cabinet_expiry key of a record: its purge time (times
// before 1970 count as 1970), its kind and its key.
func purgeKey(at time.Time, kind byte, key []byte) []byte {
	var n int64
	if at.After(time.Unix(0, 0)) {
		n = at.UnixNano()
	}
	return append(append(seq8(uint64(n)), kind), key...)
}

func (t *tx) CabinetLogin(in string) (*signflow.CabinetLogin, error) {
	v := new(signflow.CabinetLogin)
	return v, t.get(bucketCabinetLogins, []byte(in), v, "Login")
}

// PutCabinetLogin writes the record and moves its purge entry.
func (t *tx) PutCabinetLogin(l *signflow.CabinetLogin) error {
	exp := t.bucket(bucketCabinetExpiry)
	if old, err := t.CabinetLogin(l.IN); err == nil {
		if err := exp.Delete(purgeKey(old.PurgeAt, expiryLogin, []byte(old.IN))); err != nil {
			return err
		}
	}
	if err := exp.Put(purgeKey(l.PurgeAt, expiryLogin, []byte(l.IN)), nil); err != nil {
		return err
	}
	return t.put(bucketCabinetLogins, []byte(l.IN), l)
}

func (t *tx) CabinetSession(tokenHash []byte) (*signflow.CabinetSession, error) {
	v := new(signflow.CabinetSession)
	return v, t.get(bucketCabinetSessions, tokenHash, v, "Cabinet session")
}

// PutCabinetSession writes the session and moves its purge entry.
func (t *tx) PutCabinetSession(s *signflow.CabinetSession) error {
	if err := t.DeleteCabinetSession(s.TokenHash); err != nil {
		return err
	}
	if err := t.bucket(bucketCabinetExpiry).Put(purgeKey(s.ExpiresAt, expirySession, s.TokenHash), nil); err != nil {
		return err
	}
	return t.put(bucketCabinetSessions, s.TokenHash, s)
}

// DeleteCabinetSession removes the session and its purge entry, if any.
func (t *tx) DeleteCabinetSession(tokenHash []byte) error {
	old, err := t.CabinetSession(tokenHash)
	if signflow.ErrorCode(err) == signflow.ENOTFOUND {
		return nil
	} else if err != nil {
		return err
	}
	if err := t.bucket(bucketCabinetExpiry).Delete(purgeKey(old.ExpiresAt, expirySession, tokenHash)); err != nil {
		return err
	}
	return t.bucket(bucketCabinetSessions).Delete(tokenHash)
}

// PurgeCabinet deletes the oldest records whose purge time is before the
// time, up to limit, with their entries.
func (t *tx) PurgeCabinet(before time.Time, limit int) (int, error) {
	end := purgeKey(before, 0, nil)[:8]
	var keys [][]byte
	c := t.bucket(bucketCabinetExpiry).Cursor()
	for k, _ := c.First(); k != nil && bytes.Compare(k[:8], end) < 0 && len(keys) < limit; k, _ = c.Next() {
		keys = append(keys, bytes.Clone(k))
	}
	for _, k := range keys {
		records := bucketCabinetLogins
		if k[8] == expirySession {
			records = bucketCabinetSessions
		}
		if err := t.bucket(records).Delete(k[9:]); err != nil {
			return 0, err
		}
		if err := t.bucket(bucketCabinetExpiry).Delete(k); err != nil {
			return 0, err
		}
	}
	return len(keys), nil
}
