package webhooks_test

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"contracts/signflow"
	"contracts/webhooks"

	bolt "go.etcd.io/bbolt"
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

// The bound is on attempts in flight: once an attempt ends, the target's
// next row is sent while the log write of the one before still waits (here
// behind a write transaction held open), instead of after its commit.
func TestTargetsNextRowDoesNotWaitForTheLogWrite(t *testing.T) {
	h := newHarness(t)
	rcv := newReceiver(t, answer(204))
	app := h.app(rcv.URL)
	var rows []string
	for range 3 {
		rows = append(rows, h.only(h.contract(app).ID).ID) // three contracts: three lanes of one target
	}
	held, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	go h.DB.Bolt().Update(func(*bolt.Tx) error { close(held); <-release; return nil })
	<-held
	h.start(webhooks.Options{Workers: 4, PerTarget: 1})
	t.Cleanup(func() { once.Do(func() { close(release) }) }) // before the pool's shutdown
	waitFor(t, "the three rows sent one at a time while no log write commits", func() bool { return len(rcv.got()) == 3 })
	once.Do(func() { close(release) })
	for _, id := range rows {
		h.waitStatus(id, signflow.DeliveryDelivered)
	}
}
