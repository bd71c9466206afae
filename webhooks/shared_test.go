package webhooks_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"
	"contracts/webhooks"

	"github.com/prometheus/client_golang/prometheus"
)

// Two pools on one outbox — two processes on one PostgreSQL database, or
// two pools in one process on bbolt — with contracts made through both:
// every attempt is made by exactly one pool, and the retry comes on the
// schedule, whichever pool makes it.
func TestTwoPoolsShareTheOutbox(t *testing.T) {
	eachEngine(t, func(t *testing.T, e engine) {
		h := newHarnessOn(t, e)
		// The receiver fails the first attempt of each delivery and
		// takes the second.
		var mu sync.Mutex
		seen := map[string]int{} // attempts per delivery id
		rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			mu.Lock()
			id := r.Header.Get("X-Contracts-Delivery")
			seen[id]++
			n := seen[id]
			mu.Unlock()
			if n == 1 {
				w.WriteHeader(503)
				return
			}
			w.WriteHeader(204)
		}))
		t.Cleanup(rcv.Close)
		app := h.app(rcv.URL)
		peer := e.peer(t, h.store)
		other := signflow.NewService(peer, h.serviceOptions())
		h.start(webhooks.Options{Workers: 3})
		reg2 := prometheus.NewRegistry()
		h.startOn(peer, reg2, webhooks.Options{Workers: 3})

		var ids []string
		for i := 0; i < 20; i++ {
			svc := h.svc
			if i%2 == 1 {
				svc = other // made through the second process: only its pool is woken
			}
			c, err := svc.CreateContract(h.Access(t, app), &signflow.ContractInput{TemplateID: h.Template.ID,
				BuyerIN: fixture.CustomerIN, Price: int64(100 + i), Currency: "UZS"}, signflow.Actor{})
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, h.only(c.ID).ID)
		}
		for _, id := range ids {
			h.waitAttempts(id, 1)
		}
		h.clock.Advance(2 * time.Second)
		for _, id := range ids {
			d := h.waitStatus(id, signflow.DeliveryDelivered)
			checkSpacing(t, d.Attempts, 2*time.Second)
			if d.Attempts[0].StatusCode != 503 || d.Attempts[1].StatusCode != 204 {
				t.Errorf("delivery %s: attempts %+v, want 503 then 204", id, d.Attempts)
			}
		}
		// On PostgreSQL each process's pool is woken by its own commits, so
		// both take part (on bbolt the file wakes the last pool started).
		attempts := func(reg *prometheus.Registry) float64 {
			return metric(t, reg, "contracts_webhook_attempt_duration_seconds", nil)
		}
		if a, b := attempts(h.reg), attempts(reg2); a+b != float64(2*len(ids)) || e.name == "postgres" && (a == 0 || b == 0) {
			t.Errorf("the pools made %v and %v attempts, want %d in all", a, b, 2*len(ids))
		}
		mu.Lock()
		defer mu.Unlock()
		if len(seen) != len(ids) {
			t.Errorf("the receiver heard of %d deliveries, want %d", len(seen), len(ids))
		}
		for _, id := range ids {
			if seen[id] != 2 {
				t.Errorf("delivery %s was attempted %d times, want 2", id, seen[id])
			}
		}
	})
}

// A process that dies holding claims (here: one that claims and never
// comes back) keeps its rows from the others only until its lease ends;
// then one other pool sends them, once each.
func TestClaimsOfADeadProcessPassAfterTheLease(t *testing.T) {
	eachEngine(t, func(t *testing.T, e engine) {
		h := newHarnessOn(t, e)
		rcv := newReceiver(t, answer(204))
		app := h.app(rcv.URL)
		var ids []string
		for i := 0; i < 3; i++ {
			ids = append(ids, h.only(h.contract(app).ID).ID)
		}
		const lease = 30 * time.Second
		b, err := h.store.ClaimDeliveries(signflow.DeliveryClaim{Claimer: "dead process", Now: h.clock.Now(), Lease: lease, Limit: 10})
		if err != nil || len(b.Rows) != len(ids) {
			t.Fatalf("the dead process claimed %d rows (%v), want %d", len(b.Rows), err, len(ids))
		}
		died := h.clock.Now()

		h.start(webhooks.Options{Lease: lease})
		// The live pool has looked at the outbox (the gauge is set by its
		// claims) and found nothing to take.
		waitFor(t, "the live pool's claim", func() bool {
			return metric(t, h.reg, "contracts_webhook_queue_depth", nil) == float64(len(ids))
		})
		if n := len(rcv.got()); n != 0 {
			t.Fatalf("rows held by a live claim were sent: %d requests", n)
		}
		h.clock.Advance(lease)
		for _, id := range ids {
			d := h.waitStatus(id, signflow.DeliveryDelivered)
			if len(d.Attempts) != 1 || !d.Attempts[0].At.Equal(died.Add(lease)) {
				t.Errorf("delivery %s: attempts %+v, want one at the lease's end", id, d.Attempts)
			}
		}
		if n := len(rcv.got()); n != len(ids) {
			t.Errorf("the receiver got %d requests, want %d", n, len(ids))
		}
	})
}
