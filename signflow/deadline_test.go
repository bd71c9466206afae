package signflow

import (
	"testing"
	"time"
)

// The deadline as the interfaces keep it (a contract CREATED at its signBy
// is cancelled once, its sessions end by then) is checked by
// server/deadline_env_test.go (TestSignByDeadline, TestSignByDeadlineOnce);
// here, the bounds of deadline.go: signBy in the future and at most a year
// ahead, and a session's end never past it.
func TestSignByBounds(t *testing.T) {
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	at := func(d time.Time) *time.Time { return &d }
	for _, tc := range []struct {
		signBy *time.Time
		want   string
	}{
		{nil, ""},
		{at(now.Add(time.Nanosecond)), ""},
		{at(now.AddDate(1, 0, 0)), ""},
		{at(now), "signBy: must be in the future"},
		{at(now.Add(-time.Hour)), "signBy: must be in the future"},
		{at(now.AddDate(1, 0, 0).Add(time.Nanosecond)), "signBy: must be at most a year ahead"},
	} {
		err := checkSignBy(tc.signBy, now)
		if tc.want == "" && err != nil || tc.want != "" && (ErrorCode(err) != EINVALID || ErrorMessage(err) != tc.want) {
			t.Errorf("signBy %v: %v, want %q", tc.signBy, err, tc.want)
		}
	}

	s := &Service{opt: Options{SessionTTL: 30 * time.Minute}}
	if end := s.sessionEnd(&Contract{}, now); !end.Equal(now.Add(30 * time.Minute)) {
		t.Errorf("no signBy: session ends %v", end)
	}
	if end := s.sessionEnd(&Contract{SignBy: at(now.Add(10 * time.Minute))}, now); !end.Equal(now.Add(10 * time.Minute)) {
		t.Errorf("signBy in 10 minutes: session ends %v", end)
	}
	if end := s.sessionEnd(&Contract{SignBy: at(now.Add(time.Hour))}, now); !end.Equal(now.Add(30 * time.Minute)) {
		t.Errorf("signBy in an hour: session ends %v", end)
	}
}
