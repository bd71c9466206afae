package signflow_test

import (
	"strings"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// panics runs fn and returns what it panicked with, "" when it did not.
func panics(fn func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg, _ = r.(string)
			if msg == "" {
				msg = "panic"
			}
		}
	}()
	fn()
	return ""
}

// The service and the cabinet take their lifetimes from the configuration
// and have none of their own: a zero one is refused, naming the key.
func TestZeroLifetimesRefused(t *testing.T) {
	for _, c := range []struct {
		name, key string
		opt       signflow.Options
	}{
		{"no session lifetime", "signing.sessionTTL", signflow.Options{OTPTTL: 5 * time.Minute}},
		{"no code lifetime", "signing.otpTTL", signflow.Options{SessionTTL: 30 * time.Minute}},
	} {
		if msg := panics(func() { signflow.NewService(nil, c.opt) }); !strings.Contains(msg, c.key) {
			t.Errorf("%s: %q, want a refusal naming %s", c.name, msg, c.key)
		}
	}
	w := fixture.New(t, signflow.Options{})
	if msg := panics(func() { w.Service.Cabinet(signflow.CabinetOptions{}) }); !strings.Contains(msg, "cabinet.idleTimeout") {
		t.Errorf("cabinet without an idle time-out: %q", msg)
	}
	if msg := panics(func() { signflow.NewSweeper(w.Service, signflow.SweeperOptions{}) }); msg == "" {
		t.Error("a sweeper without an interval or ticks was built")
	}
}
