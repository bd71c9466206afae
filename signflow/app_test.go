package signflow_test

import (
	"testing"
	"time"

	"contracts/signflow"
)

// An app is usable until it is cancelled or its expiry instant comes.
func TestAppUsable(t *testing.T) {
	at := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	for _, sc := range []struct {
		name string
		app  signflow.App
		now  time.Time
		want string
	}{
		{"no expiry", signflow.App{}, at, ""},
		{"before its expiry", signflow.App{ExpiresAt: &at}, at.Add(-time.Nanosecond), ""},
		{"at its expiry", signflow.App{ExpiresAt: &at}, at, "The app has expired."},
		{"cancelled", signflow.App{Cancelled: true}, at, "The app is cancelled."},
	} {
		t.Run(sc.name, func(t *testing.T) {
			if err := sc.app.Usable(sc.now); sc.want == "" && err != nil {
				t.Fatalf("Usable: %v", err)
			} else if sc.want != "" {
				wantCode(t, err, signflow.EFORBIDDEN, sc.want)
			}
		})
	}
}
