package signflow

import (
	"errors"
	"testing"
	"time"
)

// The daily cap as the cabinet's login page shows it (strangers' requests
// neither keep the person out on a browser they logged in with nor text
// without end) is checked by server/cabinet/login_day_test.go
// (TestStrangersNeitherKeepThePersonOutNorTextWithoutEnd); here, the rule of
// cabinet_day.go: browsers the number never logged in with share one cap a
// day, each known browser counts apart, an expired or unknown token counts
// with the strangers, and the day starts over after LoginDay.
func TestLoginDayCapsStrangersAndKnownBrowsersApart(t *testing.T) {
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	l := &CabinetLogin{IN: "31234567890123"}
	known := l.remember(now)
	refusedFor := func(err error) time.Duration {
		var wait *ResendWaitError
		if !errors.As(err, &wait) {
			return 0
		}
		return wait.After
	}
	for i := 0; i < 2; i++ {
		if err := l.countDay("", 2, now.Add(time.Duration(i)*time.Hour)); err != nil {
			t.Fatalf("stranger's request %d: %v", i+1, err)
		}
	}
	if got := refusedFor(l.countDay("", 2, now.Add(2*time.Hour))); got != LoginDay-2*time.Hour {
		t.Errorf("third stranger's request: wait %v, want %v", got, LoginDay-2*time.Hour)
	}
	if got := refusedFor(l.countDay("not-a-known-token", 2, now.Add(2*time.Hour))); got == 0 {
		t.Error("an unknown token escaped the strangers' cap")
	}
	for i := 0; i < 2; i++ {
		if err := l.countDay(known, 2, now.Add(3*time.Hour)); err != nil {
			t.Fatalf("known browser's request %d after the strangers spent the day: %v", i+1, err)
		}
	}
	// The known browser's day starts at its own first request.
	if got := refusedFor(l.countDay(known, 2, now.Add(4*time.Hour))); got != LoginDay-time.Hour {
		t.Errorf("known browser past its own cap: wait %v, want %v", got, LoginDay-time.Hour)
	}
	if err := l.countDay("", 2, now.Add(LoginDay)); err != nil {
		t.Errorf("stranger's request on the next day: %v", err)
	}
	if err := l.countDay("", 0, now.Add(LoginDay)); err != nil {
		t.Errorf("no cap refused: %v", err)
	}

	// A known browser's token expires, and only the newest are kept.
	later := now.Add(KnownBrowserFor)
	if got := refusedFor(l.countDay(known, 1, later.Add(LoginDay))); got != 0 {
		t.Fatalf("fresh day, strangers' count: %v", got)
	}
	if got := refusedFor(l.countDay("", 1, later.Add(LoginDay))); got == 0 {
		t.Error("an expired known token still counted apart from the strangers")
	}
	for i := 0; i < maxKnownBrowsers+2; i++ {
		l.remember(now)
	}
	if len(l.Known) != maxKnownBrowsers {
		t.Errorf("%d known browsers kept, want %d", len(l.Known), maxKnownBrowsers)
	}
}
