package postgres

import (
	"encoding/json"
	"time"

	"contracts/signflow"
)

// timersTable keeps the service's timers (signflow.Timer). It is made at
// open, not by a numbered migration: an older build ignores it.
const timersTable = `
CREATE TABLE IF NOT EXISTS timers (
	kind text COLLATE "C",
	subject text COLLATE "C",
	due_ns bigint NOT NULL,
	ver bigint NOT NULL, data json NOT NULL,
	PRIMARY KEY (kind, subject));
CREATE INDEX IF NOT EXISTS timers_due ON timers (due_ns);
`

var timers = newTable("timers", "Timer", []string{"kind", "subject"}, []string{"due_ns"})

func (t *tx) Timer(kind, subject string) (*signflow.Timer, error) {
	v := new(signflow.Timer)
	return v, t.read(timers, []any{kind, subject}, v)
}

func (t *tx) PutTimer(tm *signflow.Timer) error {
	return t.write(timers, []any{tm.Kind, tm.Subject}, []any{nanos(tm.At)}, tm)
}

// DeleteTimer removes the timer, if any; one read by the transaction must
// not have changed since.
func (t *tx) DeleteTimer(kind, subject string) error {
	key := []any{kind, subject}
	sk := timers.seenKey(key)
	if ver := t.seen[sk]; ver > 0 {
		t.queue(oneRow, "DELETE FROM timers WHERE kind = $1 AND subject = $2 AND ver = $3", kind, subject, ver)
	} else {
		t.queue(nil, "DELETE FROM timers WHERE kind = $1 AND subject = $2", kind, subject)
	}
	t.seen[sk] = 0
	return nil
}

// DueTimers returns the timers due before the time, soonest first.
func (t *tx) DueTimers(before time.Time, limit int) ([]*signflow.Timer, error) {
	rows, err := t.query("SELECT kind, subject, ver, data FROM timers WHERE due_ns < $1 ORDER BY due_ns, kind, subject LIMIT $2",
		nanos(before), limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*signflow.Timer
	for rows.Next() {
		var (
			kind, subject string
			ver           int64
			data          []byte
		)
		if err := rows.Scan(&kind, &subject, &ver, &data); err != nil {
			return nil, err
		}
		tm := new(signflow.Timer)
		if err := json.Unmarshal(data, tm); err != nil {
			return nil, err
		}
		t.saw(timers, []any{kind, subject}, ver)
		out = append(out, tm)
	}
	return out, rows.Err()
}
