package storagetest

import (
	"testing"
	"time"

	"contracts/signflow"
)

// testTimers: timers set, read, moved and deleted, given out when due in
// order of their time (seen by another process too), and a rolled-back
// one not kept.
func testTimers(t *testing.T, e Engine) {
	s := e.Open(t)
	peer := e.peer(t, s)
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	put := func(tm *signflow.Timer) {
		t.Helper()
		must(t, s.Update(func(tx signflow.Tx) error { return tx.PutTimer(tm) }))
	}
	due := func(before time.Time) []string {
		t.Helper()
		var out []string
		must(t, peer.View(func(tx signflow.Tx) error {
			list, err := tx.DueTimers(before, 10)
			for _, tm := range list {
				out = append(out, tm.Kind+" "+tm.Subject)
			}
			return err
		}))
		return out
	}
	if got := due(at.Add(time.Hour)); len(got) != 0 {
		t.Fatalf("a new store has timers: %v", got)
	}
	put(&signflow.Timer{Kind: signflow.TimerDeadline, Subject: "c1", ContractID: "c1", At: at.Add(2 * time.Minute)})
	put(&signflow.Timer{Kind: signflow.TimerReminder, Subject: "c1/301", ContractID: "c1", SignerIN: "301", Sent: 1, At: at})
	put(&signflow.Timer{Kind: signflow.TimerDeadline, Subject: "c2", ContractID: "c2", At: at.Add(time.Hour)})
	if got := due(at.Add(3 * time.Minute)); len(got) != 2 || got[0] != "reminder c1/301" || got[1] != "deadline c1" {
		t.Fatalf("due at +3m: %v", got)
	}
	if got := due(at); len(got) != 0 {
		t.Fatalf("a timer is due before its time (strictly): %v", got)
	}
	// Moving a timer leaves no trace at its old time.
	put(&signflow.Timer{Kind: signflow.TimerReminder, Subject: "c1/301", ContractID: "c1", SignerIN: "301", Sent: 2, At: at.Add(2 * time.Hour)})
	if got := due(at.Add(90 * time.Minute)); len(got) != 2 || got[0] != "deadline c1" || got[1] != "deadline c2" {
		t.Fatalf("due at +90m after a move: %v", got)
	}
	must(t, peer.View(func(tx signflow.Tx) error {
		tm, err := tx.Timer(signflow.TimerReminder, "c1/301")
		if err != nil || tm.Sent != 2 || tm.SignerIN != "301" || !tm.At.Equal(at.Add(2*time.Hour)) {
			t.Fatalf("the moved timer reads %+v, %v", tm, err)
		}
		if _, err := tx.Timer(signflow.TimerDeadline, "c9"); signflow.ErrorCode(err) != signflow.ENOTFOUND {
			t.Fatalf("an absent timer: %v", err)
		}
		return nil
	}))
	must(t, s.Update(func(tx signflow.Tx) error {
		if err := tx.DeleteTimer(signflow.TimerDeadline, "c1"); err != nil {
			return err
		}
		return tx.DeleteTimer(signflow.TimerDeadline, "never set")
	}))
	err := s.Update(func(tx signflow.Tx) error {
		tx.PutTimer(&signflow.Timer{Kind: signflow.TimerDeadline, Subject: "c3", At: at})
		return signflow.Errorf(signflow.EINVALID, "roll back")
	})
	if err == nil {
		t.Fatal("the rolled-back update succeeded")
	}
	if got := due(at.Add(3 * time.Hour)); len(got) != 2 || got[0] != "deadline c2" || got[1] != "reminder c1/301" {
		t.Fatalf("due at +3h after a delete and a rollback: %v", got)
	}
	e.check(t, s)
}
