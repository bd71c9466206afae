package postgres

import (
	"encoding/json"
	"math"
	"time"

	"contracts/signflow"
	"contracts/storage/record"
)

var (
	sessions        = newTable("sessions", "Session", []string{"id"}, []string{"token_hash", "contract_id", "status", "expires_ns"})
	cabinetLogins   = newTable("cabinet_logins", "Login", []string{"client_in"}, []string{"purge_ns"})
	cabinetSessions = newTable("cabinet_sessions", "Cabinet session", []string{"token_hash"}, []string{"expires_ns"})
)

// nanos is t in nanoseconds since 1970, within what int64 holds; earlier
// times count as 1970.
func nanos(t time.Time) int64 {
	switch {
	case !t.After(time.Unix(0, 0)):
		return 0
	case t.After(time.Unix(0, math.MaxInt64)):
		return math.MaxInt64
	}
	return t.UnixNano()
}

func (t *tx) Session(id string) (*signflow.SignSession, error) {
	v := new(signflow.SignSession)
	return v, t.read(sessions, []any{id}, v)
}

func (t *tx) SessionByToken(hash []byte) (*signflow.SignSession, error) {
	list, err := t.sessions("SELECT id, ver, data FROM sessions WHERE token_hash = $1", hash)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, signflow.Errorf(signflow.ENOTFOUND, "Session not found.")
	}
	return list[0], nil
}

func (t *tx) PutSession(s *signflow.SignSession) error {
	return t.write(sessions, []any{s.ID}, []any{s.TokenHash, s.ContractID, s.Status, nanos(s.ExpiresAt)}, s)
}

// ExpiredSessions returns PENDING sessions whose expiry is before the time.
func (t *tx) ExpiredSessions(before time.Time, limit int) ([]*signflow.SignSession, error) {
	return t.sessions(`SELECT id, ver, data FROM sessions WHERE status = 'PENDING' AND expires_ns < $1
		ORDER BY expires_ns, id LIMIT $2`, nanos(before), limit)
}

// sessions decodes the sessions a query returns, noting their versions.
func (t *tx) sessions(sql string, args ...any) ([]*signflow.SignSession, error) {
	rows, err := t.query(sql, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*signflow.SignSession
	for rows.Next() {
		var (
			id   string
			ver  int64
			data []byte
		)
		if err := rows.Scan(&id, &ver, &data); err != nil {
			return nil, err
		}
		s := new(signflow.SignSession)
		if err := json.Unmarshal(data, s); err != nil {
			return nil, err
		}
		t.saw(sessions, []any{id}, ver)
		out = append(out, s)
	}
	return out, rows.Err()
}

func (t *tx) AddAudit(e *signflow.AuditEvent) error {
	if err := t.mayWrite(); err != nil {
		return err
	}
	data, err := record.Audit(e)
	if err != nil {
		return err
	}
	r := pendingRows[auditRows](t)
	r.contracts, r.data = append(r.contracts, e.ContractID), append(r.data, data)
	return nil
}

func (t *tx) AuditEvents(contractID string) ([]*signflow.AuditEvent, error) {
	if !validText(contractID) {
		return nil, nil
	}
	return list[signflow.AuditEvent](t, "SELECT data FROM audit WHERE contract_id = $1 ORDER BY seq", contractID)
}

func (t *tx) CabinetLogin(in string) (*signflow.CabinetLogin, error) {
	v := new(signflow.CabinetLogin)
	return v, t.read(cabinetLogins, []any{in}, v)
}

func (t *tx) PutCabinetLogin(l *signflow.CabinetLogin) error {
	return t.write(cabinetLogins, []any{l.IN}, []any{nanos(l.PurgeAt)}, l)
}

func (t *tx) CabinetSession(tokenHash []byte) (*signflow.CabinetSession, error) {
	v := new(signflow.CabinetSession)
	return v, t.read(cabinetSessions, []any{tokenHash}, v)
}

func (t *tx) PutCabinetSession(s *signflow.CabinetSession) error {
	return t.write(cabinetSessions, []any{s.TokenHash}, []any{nanos(s.ExpiresAt)}, s)
}

// DeleteCabinetSession removes the session, if any; a session read by the
// transaction must not have changed since.
func (t *tx) DeleteCabinetSession(tokenHash []byte) error {
	key := []any{tokenHash}
	sk := cabinetSessions.seenKey(key)
	if ver := t.seen[sk]; ver > 0 {
		t.queue(oneRow, "DELETE FROM cabinet_sessions WHERE token_hash = $1 AND ver = $2", tokenHash, ver)
	} else {
		t.queue(nil, "DELETE FROM cabinet_sessions WHERE token_hash = $1", tokenHash)
	}
	t.seen[sk] = 0
	return nil
}

// PurgeCabinet deletes the oldest login records and cabinet sessions whose
// purge time is before the time, up to limit. A record another
// transaction moved on meanwhile is kept.
func (t *tx) PurgeCabinet(before time.Time, limit int) (int, error) {
	rows, err := t.query(`WITH victims AS (
			(SELECT client_in AS login, NULL::bytea AS token, purge_ns AS at FROM cabinet_logins
				WHERE purge_ns < $1 ORDER BY purge_ns LIMIT $2)
			UNION ALL
			(SELECT NULL, token_hash, expires_ns FROM cabinet_sessions
				WHERE expires_ns < $1 ORDER BY expires_ns LIMIT $2)
			ORDER BY at LIMIT $2),
		logins AS (DELETE FROM cabinet_logins WHERE purge_ns < $1
			AND client_in IN (SELECT login FROM victims WHERE login IS NOT NULL) RETURNING client_in),
		sessions AS (DELETE FROM cabinet_sessions WHERE expires_ns < $1
			AND token_hash IN (SELECT token FROM victims WHERE token IS NOT NULL) RETURNING token_hash)
		SELECT client_in, NULL::bytea FROM logins UNION ALL SELECT NULL, token_hash FROM sessions`, nanos(before), limit)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var (
			in    *string
			token []byte
		)
		if err := rows.Scan(&in, &token); err != nil {
			return 0, err
		}
		if in != nil {
			t.saw(cabinetLogins, []any{*in}, 0)
		} else {
			t.saw(cabinetSessions, []any{token}, 0)
		}
		n++
	}
	return n, rows.Err()
}
