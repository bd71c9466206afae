package signflow_test

import (
	"testing"
	"time"

	"contracts/signflow"
)

// A session's life as the interfaces show it is checked by
// signflow/expiry_test.go (the sweeper), server/signpage/api_test.go and
// server/refusal_test.go; here, the rule of session.go itself: a pending
// session is open strictly before its expiry and reads EXPIRED from it on,
// whether or not the sweeper has run.
func TestSessionOpenUntilItsExpiry(t *testing.T) {
	end := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		status string
		at     time.Time
		open   bool
		shown  string
	}{
		{signflow.SessionPending, end.Add(-time.Nanosecond), true, signflow.SessionPending},
		{signflow.SessionPending, end, false, signflow.SessionExpired},
		{signflow.SessionPending, end.Add(time.Hour), false, signflow.SessionExpired},
		{signflow.SessionSigned, end.Add(-time.Hour), false, signflow.SessionSigned},
		{signflow.SessionSigned, end.Add(time.Hour), false, signflow.SessionSigned},
		{signflow.SessionRejected, end.Add(time.Hour), false, signflow.SessionRejected},
		{signflow.SessionExpired, end.Add(-time.Hour), false, signflow.SessionExpired},
	} {
		s := &signflow.SignSession{Status: tc.status, ExpiresAt: end}
		if got := s.Open(tc.at); got != tc.open {
			t.Errorf("%s at %v: Open %v, want %v", tc.status, tc.at.Sub(end), got, tc.open)
		}
		if got := s.EffectiveStatus(tc.at); got != tc.shown {
			t.Errorf("%s at %v: shown %s, want %s", tc.status, tc.at.Sub(end), got, tc.shown)
		}
	}
}
