package e2e

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// timedReceiver is a healthy webhook endpoint that records when each
// delivery id arrived.
type timedReceiver struct {
	*httptest.Server
	mu  sync.Mutex
	got map[string][]time.Time
}

func newTimedReceiver(t *testing.T) *timedReceiver {
	r := &timedReceiver{got: map[string][]time.Time{}}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		io.Copy(io.Discard, req.Body)
		r.mu.Lock()
		id := req.Header.Get("X-Contracts-Delivery")
		r.got[id] = append(r.got[id], time.Now())
		r.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *timedReceiver) received() map[string][]time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make(map[string][]time.Time, len(r.got))
	for k, v := range r.got {
		out[k] = append([]time.Time(nil), v...)
	}
	return out
}

// TestNodesKill9 runs 50 writers split across two nodes of one database,
// kills one node with SIGKILL mid-run, and checks through the other that
// every contract either node acknowledged is there with its audit events,
// and that every outbox row is delivered — the dead node's claimed rows
// too, once their lease passes — with none delivered twice except those
// the dead node had in flight when it died.
func TestNodesKill9(t *testing.T) {
	const clients = 50
	scale := loadScale()
	recv := newTimedReceiver(t)
	c := newCluster(t, "CONTRACTS_WEBHOOKS__TIMEOUT=1s", "CONTRACTS_WEBHOOKS__LEASE=2s")
	a, b := c.binaryNode(t), c.binaryNode(t)
	p := provision(t, b, recv.URL+"/hook")

	wa := startWriters(t, a, p, clients/2, 1000*scale)
	wb := startWriters(t, b, p, clients/2, 1000*scale)
	wa.waitAcked(t, 150*scale, 60*time.Second)
	wb.waitAcked(t, 150*scale, 60*time.Second)
	if err := a.kill(); err != nil {
		t.Fatal(err)
	}
	a.wait(t, 10*time.Second)
	// What the dead node had sent may still be read by the receiver a
	// moment after it died; anything later came from the survivor.
	settled := time.Now().Add(500 * time.Millisecond)
	// The survivor goes on taking writes.
	wb.waitAcked(t, wb.count()+100*scale, 60*time.Second)
	wa.finish(t)
	wb.finish(t)
	if n := wb.fivexx.Load() + wb.refused.Load() + wa.fivexx.Load() + wa.refused.Load(); n > 0 {
		t.Fatalf("%d answers were 5xx or refusals", n)
	}
	acked := append(wa.ids(), wb.ids()...)

	token := issueToken(t, b, p)
	for _, id := range wa.ids() {
		if st := status(t, "GET", b.embedded+"/v1/contracts/"+id, "Authorization", "Bearer "+token); st != 200 {
			t.Fatalf("contract %s, acknowledged by the killed node: GET through the other is %d", id, st)
		}
	}
	waitOutboxEmpty(t, b, 2*time.Minute)
	b.stop(t)

	db := c.store(t)
	svc := signflow.NewService(db, fixture.Configured(signflow.Options{}))
	all, err := svc.Deliveries(signflow.DeliveryFilter{Limit: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, d := range all {
		known[d.ID] = true
		if d.Status != signflow.DeliveryDelivered {
			t.Fatalf("delivery %s is %s", d.ID, d.Status)
		}
	}
	received := recv.received()
	twice, lateTwice := 0, 0
	for id, times := range received {
		if !known[id] {
			t.Fatalf("delivery %s was sent but is not in the outbox", id)
		}
		if len(times) > 1 {
			twice++
			if times[0].After(settled) {
				lateTwice++
			}
		}
	}
	if lateTwice > 0 {
		t.Fatalf("%d deliveries first received from the survivor were received again: a healthy receiver got duplicates", lateTwice)
	}
	for _, id := range acked {
		view(t, db, func(tx signflow.Tx) error {
			events, err := tx.AuditEvents(id)
			if err != nil || len(events) == 0 || events[0].Type != signflow.EventCreated {
				return fmt.Errorf("contract %s: audit events %v (%v)", id, events, err)
			}
			return nil
		})
		ds, err := svc.Deliveries(signflow.DeliveryFilter{ContractID: id})
		if err != nil || len(ds) != 2 {
			t.Fatalf("contract %s: %d deliveries (%v), want 2", id, len(ds), err)
		}
		for _, d := range ds {
			if len(received[d.ID]) == 0 {
				t.Fatalf("delivery %s of %s was never received", d.ID, id)
			}
		}
	}
	t.Logf("%d clients on two nodes: %d contracts acknowledged (%d by the killed node), all read through the survivor with their audit events; "+
		"%d deliveries, all received, %d of them twice (the killed node's attempts in flight), none twice from the survivor alone",
		clients, len(acked), len(wa.ids()), len(all), twice)
}
