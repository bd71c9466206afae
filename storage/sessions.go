package storage

import (
	"bytes"
	"encoding/json"
	"time"

	"contracts/signflow"
	"contracts/storage/record"
)

func (t *tx) Session(id string) (*signflow.SignSession, error) {
	v := new(signflow.SignSession)
	return v, t.get(bucketSessions, []byte(id), v, "Session")
}

func (t *tx) SessionByToken(hash []byte) (*signflow.SignSession, error) {
	id := t.bucket(bucketSessionTokens).Get(hash)
	if id == nil {
		return nil, signflow.Errorf(signflow.ENOTFOUND, "Session not found.")
	}
	return t.Session(string(id))
}

// PutSession writes the session, its token index and, while it is PENDING,
// its place in the expiry index.
func (t *tx) PutSession(s *signflow.SignSession) error {
	if err := t.bucket(bucketSessionTokens).Put(s.TokenHash, []byte(s.ID)); err != nil {
		return err
	}
	exp := expiryKey(s.ExpiresAt, s.ID)
	if s.Status == signflow.SessionPending {
		if err := t.bucket(bucketSessionExpiry).Put(exp, nil); err != nil {
			return err
		}
	} else if err := t.bucket(bucketSessionExpiry).Delete(exp); err != nil {
		return err
	}
	return t.put(bucketSessions, []byte(s.ID), s)
}

func expiryKey(at time.Time, id string) []byte {
	return append(seq8(uint64(at.UnixNano())), id...)
}

// ExpiredSessions returns PENDING sessions whose expiry is before the time.
func (t *tx) ExpiredSessions(before time.Time, limit int) ([]*signflow.SignSession, error) {
	var out []*signflow.SignSession
	end := seq8(uint64(before.UnixNano()))
	c := t.bucket(bucketSessionExpiry).Cursor()
	for k, _ := c.First(); k != nil && bytes.Compare(k[:8], end) < 0 && len(out) < limit; k, _ = c.Next() {
		s, err := t.Session(string(k[8:]))
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func (t *tx) AddAudit(e *signflow.AuditEvent) error {
	b := t.bucket(bucketAudit)
	seq, err := b.NextSequence()
	if err != nil {
		return err
	}
	data, err := record.Audit(e)
	if err != nil {
		return err
	}
	return t.putData(bucketAudit, t.tmpSeqKey(seq, e.ContractID), data)
}

func (t *tx) AuditEvents(contractID string) ([]*signflow.AuditEvent, error) {
	var out []*signflow.AuditEvent
	prefix := join([]byte(contractID), nil)
	c := t.bucket(bucketAudit).Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		e := new(signflow.AuditEvent)
		if err := json.Unmarshal(v, e); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}
