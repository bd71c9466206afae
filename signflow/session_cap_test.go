package signflow_test

import (
	"errors"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// At most SessionsPerPartyPerHour signing sessions are opened for one
// party of one contract in any hour (each may send SMS codes and take code
// guesses); past it OpenSession is ERATELIMIT with the wait until the
// oldest leaves the hour. The count comes from the stored audit trail, so
// a new service over the same file (a restart) keeps it.
func TestSessionsPerPartyPerHour(t *testing.T) {
	w := fixture.NewStandard(t)
	opt := w.Options
	opt.SessionsPerPartyPerHour = 3
	svc := signflow.NewService(w.DB, opt)
	appA := w.Access(t, w.AppA)
	c, other := w.Contract(t), w.Contract(t)
	open := func(s *signflow.Service, contractID, signer string) error {
		_, _, err := s.OpenSession(appA, contractID, signflow.SessionRequest{SignerIN: signer}, signflow.Actor{IP: "192.0.2.1"})
		return err
	}
	for i := range 3 {
		if err := open(svc, c.ID, fixture.CustomerIN); err != nil {
			t.Fatalf("session %d: %v", i+1, err)
		}
		w.Clock.Advance(10 * time.Minute)
	}
	// 30 minutes after the first: the fourth waits 30 more.
	err := open(svc, c.ID, fixture.CustomerIN)
	var capped *signflow.SessionCapError
	if !errors.As(err, &capped) || signflow.ErrorCode(err) != signflow.ERATELIMIT || capped.After != 30*time.Minute ||
		capped.RetryAfter() != 30*time.Minute {
		t.Fatalf("4th session in the hour: %v", err)
	}
	if msg := signflow.ErrorMessage(err); msg != "3 signing sessions were opened for this party of the contract in the last hour; another can be opened in 30 minute(s)." {
		t.Fatalf("message %q", msg)
	}
	if err := open(signflow.NewService(w.DB, opt), c.ID, fixture.CustomerIN); !errors.As(err, &capped) {
		t.Fatalf("after a restart: %v", err)
	}
	if err := open(svc, c.ID, fixture.OwnerIN); err != nil {
		t.Fatalf("the other party of the contract: %v", err)
	}
	if err := open(svc, other.ID, fixture.CustomerIN); err != nil {
		t.Fatalf("the same party on another contract: %v", err)
	}
	if err := open(w.Service, c.ID, fixture.CustomerIN); err != nil {
		t.Fatalf("without a cap: %v", err)
	}
	// The uncapped session above counts too: the window frees a place when
	// the second session (opened at +10m) turns an hour old.
	w.Clock.Advance(30 * time.Minute)
	if err := open(svc, c.ID, fixture.CustomerIN); err == nil {
		t.Fatal("a 5th session within the hour of the 2nd to 4th")
	}
	w.Clock.Advance(10 * time.Minute)
	if err := open(svc, c.ID, fixture.CustomerIN); err != nil {
		t.Fatalf("once the oldest left the hour: %v", err)
	}
}
