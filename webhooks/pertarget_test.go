package webhooks_test

import (
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"contracts/webhooks"
)

// The review's fourth finding: 40 contracts of an app whose receiver hangs
// held every worker, and another app's webhook came 10 s late. Now one
// target holds at most PerTarget (4) workers: with 8 workers and the
// hanging receiver holding its 4, the other app's webhook arrives within
// a second.
func TestHangingReceiverDelaysOnlyItsOwnDeliveries(t *testing.T) {
	eachEngine(t, func(t *testing.T, e engine) {
		h := newHarnessOn(t, e)
		release := make(chan struct{})
		var hung atomic.Int32
		hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			hung.Add(1)
			defer hung.Add(-1)
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}))
		t.Cleanup(hang.Close)
		slow := h.app(hang.URL)
		rcv := newReceiver(t, answer(204))
		other := h.app(rcv.URL)
		for range 40 {
			h.contract(slow)
		}
		h.start(webhooks.Options{Workers: 8, AttemptTimeout: time.Minute})
		t.Cleanup(func() { close(release) }) // before the pool's shutdown
		waitFor(t, "the hanging receiver holding its workers", func() bool { return hung.Load() >= 4 })

		start := time.Now()
		h.contract(other)
		waitFor(t, "the other app's webhook", func() bool { return len(rcv.got()) == 1 })
		if took := time.Since(start); took > time.Second {
			t.Fatalf("the other app's webhook took %s", took)
		}
		if n := hung.Load(); n != 4 {
			t.Fatalf("%d attempts hang on one target, want 4", n)
		}
	})
}
