package webhooks_test

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"
	"contracts/webhooks"
)

// The spec's schedule: 3 retries, exponential back-off from 2 seconds.
var retryWaits = []time.Duration{2 * time.Second, 4 * time.Second, 8 * time.Second}

// runRound drives one round of n attempts after the first `before` ones:
// once an attempt is in the log, with its row due again after the retry
// wait, it moves the clock by that wait.
func (h *harness) runRound(id string, before, n int) *signflow.Delivery {
	h.t.Helper()
	for i := 1; i < n; i++ {
		d := h.waitAttempts(id, before+i)
		last := d.Attempts[len(d.Attempts)-1].At
		if want := last.Add(retryWaits[i-1]); d.Status != signflow.DeliveryPending || !d.NextAt.Equal(want) {
			h.t.Fatalf("after attempt %d: %s, next at %v, want PENDING until %v", before+i, d.Status, d.NextAt, want)
		}
		h.clock.Advance(retryWaits[i-1])
	}
	return h.waitAttempts(id, before+n)
}

// checkSpacing asserts the attempts' times on the injected clock.
func checkSpacing(t *testing.T, attempts []signflow.Attempt, gaps ...time.Duration) {
	t.Helper()
	if len(attempts) != len(gaps)+1 {
		t.Fatalf("%d attempts, want %d", len(attempts), len(gaps)+1)
	}
	for i, gap := range gaps {
		if got := attempts[i+1].At.Sub(attempts[i].At); got != gap {
			t.Errorf("attempt %d came %v after the one before, want %v", i+2, got, gap)
		}
	}
}

func TestFailingReceiverGetsFourAttemptsThenFailed(t *testing.T) {
	closedURL := func(t *testing.T) string {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		l.Close()
		return "http://" + l.Addr().String() + "/hook"
	}
	cases := []struct {
		name      string
		url       func(t *testing.T) (string, func() int)
		status    int
		errorPart string
	}{
		{"answers 500", func(t *testing.T) (string, func() int) {
			r := newReceiver(t, answer(500))
			return r.URL, func() int { return len(r.got()) }
		}, 500, "500"},
		{"hangs past the time-out", func(t *testing.T) (string, func() int) {
			hits, hanging := make(chan struct{}, 10), make(chan struct{})
			s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				hits <- struct{}{}
				io.Copy(io.Discard, r.Body) // lets the server see the client go away
				select {
				case <-r.Context().Done():
				case <-hanging:
				}
			}))
			t.Cleanup(s.Close)
			t.Cleanup(func() { close(hanging) }) // runs before s.Close
			return s.URL, func() int { return len(hits) }
		}, 0, "Timeout"},
		{"closed port", func(t *testing.T) (string, func() int) { return closedURL(t), nil }, 0, "refused"},
	}
	eachEngine(t, func(t *testing.T, e engine) {
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				h := newHarnessOn(t, e)
				url, hits := tc.url(t)
				const timeout = 150 * time.Millisecond
				h.start(webhooks.Options{AttemptTimeout: timeout})
				c := h.contract(h.app(url))
				id := h.only(c.ID).ID

				d := h.runRound(id, 0, 4)
				d = h.waitStatus(id, signflow.DeliveryFailed)
				checkSpacing(t, d.Attempts, 2*time.Second, 4*time.Second, 8*time.Second)
				if !d.Attempts[0].At.Equal(c.CreatedAt) {
					t.Errorf("first attempt at %v, want at once (%v)", d.Attempts[0].At, c.CreatedAt)
				}
				for i, a := range d.Attempts {
					if a.StatusCode != tc.status || !strings.Contains(a.Error, tc.errorPart) {
						t.Errorf("attempt %d: status %d error %q, want %d and %q", i+1, a.StatusCode, a.Error, tc.status, tc.errorPart)
					}
					if tc.status == 0 && tc.errorPart == "Timeout" && a.DurationMs < timeout.Milliseconds() {
						t.Errorf("attempt %d took %d ms, less than the %v time-out", i+1, a.DurationMs, timeout)
					}
				}
				if hits != nil && hits() != 4 {
					t.Errorf("receiver saw %d requests, want 4", hits())
				}
				// FAILED leaves the queue: nothing is due any more.
				var pending []*signflow.Delivery
				h.store.View(func(tx signflow.Tx) (err error) { pending, err = tx.PendingDeliveries(0, 10); return err })
				if len(pending) != 0 {
					t.Errorf("%d rows still queued", len(pending))
				}
				// The counters move once the log write has committed.
				waitFor(t, "the final outcome counted", func() bool {
					return metric(t, h.reg, "contracts_webhook_deliveries_total", map[string]string{"event": signflow.EventCreated, "outcome": "failed"}) == 1
				})
				for outcome, want := range map[string]float64{"retry": 3, "failed": 1, "delivered": 0} {
					if got := metric(t, h.reg, "contracts_webhook_deliveries_total", map[string]string{"event": signflow.EventCreated, "outcome": outcome}); got != want {
						t.Errorf("deliveries_total{outcome=%s} = %v, want %v", outcome, got, want)
					}
				}
				if got := metric(t, h.reg, "contracts_webhook_attempt_duration_seconds", nil); got != 4 {
					t.Errorf("attempt duration samples = %v, want 4", got)
				}
				waitFor(t, "queue depth 0", func() bool { return metric(t, h.reg, "contracts_webhook_queue_depth", nil) == 0 })
			})
		}
	})
}

func TestReceiverRecoversOnThirdAttempt(t *testing.T) {
	eachEngine(t, func(t *testing.T, e engine) {
		h := newHarnessOn(t, e)
		rcv := newReceiver(t, func(n int) int {
			if n < 3 {
				return 503
			}
			return 200
		})
		h.start(webhooks.Options{})
		c := h.contract(h.app(rcv.URL))
		id := h.only(c.ID).ID

		h.runRound(id, 0, 3)
		d := h.waitStatus(id, signflow.DeliveryDelivered)
		checkSpacing(t, d.Attempts, 2*time.Second, 4*time.Second)
		for i, want := range []int{503, 503, 200} {
			if d.Attempts[i].StatusCode != want {
				t.Errorf("attempt %d status %d, want %d", i+1, d.Attempts[i].StatusCode, want)
			}
		}
		got := rcv.got()
		if len(got) != 3 {
			t.Fatalf("%d requests, want 3", len(got))
		}
		for i, r := range got {
			if r.header.Get("X-Contracts-Delivery") != id || string(r.body) != string(got[0].body) {
				t.Errorf("request %d: delivery %q, want %q with the same body", i+1, r.header.Get("X-Contracts-Delivery"), id)
			}
		}
		waitFor(t, "the delivery counted", func() bool {
			return metric(t, h.reg, "contracts_webhook_deliveries_total", map[string]string{"event": signflow.EventCreated, "outcome": "delivered"}) == 1
		})
		if got := metric(t, h.reg, "contracts_webhook_deliveries_total", map[string]string{"event": signflow.EventCreated, "outcome": "retry"}); got != 2 {
			t.Errorf("retry = %v, want 2", got)
		}
	})
}

// A key revoked after the event is not sent to: each attempt fails with
// the reason, and the row ends FAILED without a request.
func TestRevokedKeyIsNotSentTo(t *testing.T) {
	eachEngine(t, func(t *testing.T, e engine) {
		h := newHarnessOn(t, e)
		rcv := newReceiver(t, answer(204))
		key := h.key(peerIN, rcv.URL)
		c := h.contract(h.app(""))
		id := h.only(c.ID).ID
		fixture.Must(t, func() error { return h.svc.RevokeKey(key.ID) })
		h.start(webhooks.Options{})

		h.runRound(id, 0, 4)
		d := h.waitStatus(id, signflow.DeliveryFailed)
		for i, a := range d.Attempts {
			if !strings.Contains(a.Error, "revoked") {
				t.Errorf("attempt %d: error %q, want the key named revoked", i+1, a.Error)
			}
		}
		if n := len(rcv.got()); n != 0 {
			t.Errorf("a revoked key's address got %d requests", n)
		}
	})
}
