package storagetest

import (
	"fmt"
	"testing"
	"time"

	"contracts/signflow"
)

// The purge index follows every write, so a purge deletes exactly the
// records whose time has come, and a record moved later survives until
// its own time.
func testCabinetPurgeFollowsWrites(t *testing.T, e Engine) {
	db := e.Open(t)
	t0 := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	sess := func(id string, exp time.Time) *signflow.CabinetSession {
		return &signflow.CabinetSession{TokenHash: signflow.HashSecret(id), IN: "301234567", ExpiresAt: exp}
	}
	must(t, db.Update(func(tx signflow.Tx) error {
		for _, s := range []*signflow.CabinetSession{sess("a", t0.Add(time.Minute)), sess("b", t0.Add(time.Minute)), sess("c", t0.Add(time.Hour))} {
			if err := tx.PutCabinetSession(s); err != nil {
				return err
			}
		}
		// b is touched: its expiry moves on.
		if err := tx.PutCabinetSession(sess("b", t0.Add(2*time.Hour))); err != nil {
			return err
		}
		if err := tx.DeleteCabinetSession(signflow.HashSecret("c")); err != nil {
			return err
		}
		for in, at := range map[string]time.Time{"30000000000001": t0.Add(time.Minute), "30000000000002": t0.Add(3 * time.Hour), "30000000000003": {}} {
			if err := tx.PutCabinetLogin(&signflow.CabinetLogin{IN: in, PurgeAt: at}); err != nil {
				return err
			}
		}
		return tx.PutCabinetLogin(&signflow.CabinetLogin{IN: "30000000000001", PurgeAt: t0.Add(30 * time.Second)})
	}))
	purge := func(at time.Time) (n, again int) {
		t.Helper()
		must(t, db.Update(func(tx signflow.Tx) (err error) {
			if n, err = tx.PurgeCabinet(at, 10); err != nil {
				return err
			}
			again, err = tx.PurgeCabinet(at, 10)
			return err
		}))
		return n, again
	}
	if n, again := purge(t0.Add(time.Hour)); n != 3 || again != 0 {
		t.Fatalf("purged %d then %d; want session a and logins 1 and 3, then nothing", n, again)
	}
	exists := func() (sessions, logins []string) {
		t.Helper()
		must(t, db.View(func(tx signflow.Tx) error {
			for _, id := range []string{"a", "b", "c"} {
				if _, err := tx.CabinetSession(signflow.HashSecret(id)); err == nil {
					sessions = append(sessions, id)
				} else if signflow.ErrorCode(err) != signflow.ENOTFOUND {
					return err
				}
			}
			for _, in := range []string{"30000000000001", "30000000000002", "30000000000003"} {
				if _, err := tx.CabinetLogin(in); err == nil {
					logins = append(logins, in)
				} else if signflow.ErrorCode(err) != signflow.ENOTFOUND {
					return err
				}
			}
			return nil
		}))
		return sessions, logins
	}
	if s, l := exists(); fmt.Sprint(s, l) != "[b] [30000000000002]" {
		t.Fatalf("left after the purge: sessions %v, logins %v; want session b and login 2", s, l)
	}
	// The moved session goes at its new time, and the last login at its own.
	if n, _ := purge(t0.Add(2*time.Hour + time.Second)); n != 1 {
		t.Fatalf("the purge at b's new expiry took %d records, want 1", n)
	}
	if n, _ := purge(t0.Add(4 * time.Hour)); n != 1 {
		t.Fatalf("the last purge took %d records, want 1", n)
	}
	if s, l := exists(); len(s)+len(l) != 0 {
		t.Fatalf("left at the end: %v %v", s, l)
	}
}
