package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"
	"contracts/storage"
)

// The crash and backup tests run the appliance under concurrent writes:
// the binary killed with kill -9 in the middle, then restarted on the same
// file; and online backups taken while writers go on. The short form runs
// in CI; CONTRACTS_CRASH_LONG=1 makes the runs ten times longer.

// loadScale is 1 in CI and 10 with CONTRACTS_CRASH_LONG=1.
func loadScale() int {
	if os.Getenv("CONTRACTS_CRASH_LONG") == "1" {
		return 10
	}
	return 1
}

// writers creates contracts from n goroutines until stop is closed, each
// making at most max requests; the ids answered 200 are acked. A request
// that fails on the network (the process was killed) ends its writer.
type writers struct {
	mu      sync.Mutex
	acked   []string
	refused atomic.Int64 // answers other than 200
	fivexx  atomic.Int64
	wg      sync.WaitGroup
	stop    chan struct{}
}

func startWriters(t *testing.T, in *instance, p *provisioned, n, max int) *writers {
	w := &writers{stop: make(chan struct{})}
	client := &http.Client{Timeout: 20 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: n}}
	body := p.contractBody()
	for i := 0; i < n; i++ {
		w.wg.Add(1)
		go func() {
			defer w.wg.Done()
			for j := 0; j < max; j++ {
				select {
				case <-w.stop:
					return
				default:
				}
				req, _ := http.NewRequest("POST", in.embedded+"/v1/contracts", bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Authorization", "Bearer "+p.token)
				resp, err := client.Do(req)
				if err != nil {
					return
				}
				data, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				var out struct{ ID string }
				switch {
				case err != nil:
					return // cut mid-answer: not acknowledged
				case resp.StatusCode >= 500:
					w.fivexx.Add(1)
				case resp.StatusCode != 200 || json.Unmarshal(data, &out) != nil || out.ID == "":
					w.refused.Add(1)
				default:
					w.mu.Lock()
					w.acked = append(w.acked, out.ID)
					w.mu.Unlock()
				}
			}
		}()
	}
	return w
}

func (w *writers) count() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.acked)
}

func (w *writers) ids() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.acked...)
}

// waitAcked waits, up to d, until n writes were acknowledged.
func (w *writers) waitAcked(t *testing.T, n int, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for w.count() < n {
		if time.Now().After(deadline) {
			t.Fatalf("only %d of %d writes acknowledged after %v", w.count(), n, d)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// finish stops the writers and waits for them.
func (w *writers) finish(t *testing.T) {
	t.Helper()
	close(w.stop)
	done := make(chan struct{})
	go func() { w.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("writers did not stop")
	}
}

// receiver is a webhook endpoint on loopback that records delivery ids.
// While holding, it answers the first few deliveries and keeps the rest
// waiting, so that the outbox is full of undelivered rows when the
// appliance is killed.
type receiver struct {
	*httptest.Server
	mu       sync.Mutex
	got      map[string]int // delivery id -> deliveries received
	answered int
	holdFrom int           // answer this many, then hold the rest
	release  chan struct{} // closed: answer everything
}

func newReceiver(t *testing.T, holdFrom int) *receiver {
	r := &receiver{got: map[string]int{}, holdFrom: holdFrom, release: make(chan struct{})}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		io.Copy(io.Discard, req.Body)
		id := req.Header.Get("X-Contracts-Delivery")
		r.mu.Lock()
		hold := r.answered >= r.holdFrom
		if !hold {
			r.answered++
		}
		r.mu.Unlock()
		if hold {
			select {
			case <-r.release:
			case <-req.Context().Done():
				return // the sender died: not received
			}
		}
		r.mu.Lock()
		r.got[id]++
		r.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(func() {
		r.releaseAll()
		r.Close()
	})
	return r
}

func (r *receiver) releaseAll() {
	r.mu.Lock()
	defer r.mu.Unlock()
	select {
	case <-r.release:
	default:
		close(r.release)
	}
}

func (r *receiver) received() map[string]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make(map[string]int, len(r.got))
	for k, v := range r.got {
		out[k] = v
	}
	return out
}

// waitOutboxEmpty waits until no delivery is PENDING, and checks none FAILED.
func waitOutboxEmpty(t *testing.T, in *instance, d time.Duration) {
	t.Helper()
	auth := []string{"Authorization", "Bearer " + in.adminToken}
	deadline := time.Now().Add(d)
	for {
		var pending []json.RawMessage
		mustCall(t, "GET", in.admin+"/admin/v1/deliveries?status=PENDING", nil, &pending, auth...)
		if len(pending) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d deliveries still PENDING after %v", len(pending), d)
		}
		time.Sleep(50 * time.Millisecond)
	}
	var failed []json.RawMessage
	if mustCall(t, "GET", in.admin+"/admin/v1/deliveries?status=FAILED", nil, &failed, auth...); len(failed) > 0 {
		t.Fatalf("%d deliveries FAILED, first: %s", len(failed), failed[0])
	}
}

// TestCrashKill9 kills the appliance with SIGKILL while 50 clients create
// contracts and the webhook outbox is full, restarts it on the same file,
// and checks that every contract answered 200 is there with its audit
// events and that every outbox row is then delivered, under the delivery
// id it had, and nothing that was not committed was ever sent.
func TestCrashKill9(t *testing.T) {
	const clients = 50
	scale := loadScale()
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	recv := newReceiver(t, 20)
	env := []string{"CONTRACTS_RATELIMIT__TOKENPERMINUTE=0", "CONTRACTS_RATELIMIT__APPPERSECOND=0"}
	in := startBinaryInstance(t, dir, data, env...)
	p := provision(t, in, recv.URL+"/hook")

	w := startWriters(t, in, p, clients, 1000*scale)
	w.waitAcked(t, 300*scale, 60*time.Second)
	if err := in.kill(); err != nil { // SIGKILL: no drain, no close
		t.Fatal(err)
	}
	in.wait(t, 10*time.Second)
	w.finish(t)
	acked := w.ids()
	if w.fivexx.Load() > 0 || w.refused.Load() > 0 {
		t.Fatalf("before the kill: %d answers 5xx, %d other refusals", w.fivexx.Load(), w.refused.Load())
	}
	recv.releaseAll()
	beforeRestart := recv.received()

	in = startBinaryInstance(t, dir, data, env...)
	p.token = issueToken(t, in, p)
	for _, id := range acked {
		if status := call(t, http.DefaultClient, "GET", in.embedded+"/v1/contracts/"+id, nil, nil, "Authorization", "Bearer "+p.token); status != 200 {
			t.Fatalf("contract %s was answered 200 before the kill; after the restart GET is %d", id, status)
		}
	}
	waitOutboxEmpty(t, in, 120*time.Second)
	in.stop(t)

	received := recv.received()
	db, err := storage.Open(filepath.Join(data, "contracts.db"), storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	svc := signflow.NewService(db, fixture.Configured(signflow.Options{}))
	all, err := svc.Deliveries(signflow.DeliveryFilter{})
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]*signflow.Delivery{}
	for _, d := range all {
		known[d.ID] = d
	}
	for id := range received {
		if known[id] == nil {
			t.Fatalf("delivery %s was sent but is not in the outbox: an event of a change that did not commit", id)
		}
	}
	afterRestart := 0
	for _, id := range acked {
		err := db.View(func(tx signflow.Tx) error {
			events, err := tx.AuditEvents(id)
			if err != nil || len(events) == 0 || events[0].Type != signflow.EventCreated {
				return fmt.Errorf("contract %s: audit events %v (%v)", id, events, err)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		ds, err := svc.Deliveries(signflow.DeliveryFilter{ContractID: id})
		if err != nil || len(ds) != 2 { // the app and the key
			t.Fatalf("contract %s: %d deliveries (%v), want 2", id, len(ds), err)
		}
		for _, d := range ds {
			if d.Status != signflow.DeliveryDelivered || received[d.ID] == 0 {
				t.Fatalf("delivery %s of %s: %s, received %d times", d.ID, id, d.Status, received[d.ID])
			}
			if beforeRestart[d.ID] == 0 {
				afterRestart++
			}
		}
	}
	if afterRestart == 0 {
		t.Fatal("every delivery went out before the kill: the restart delivered nothing, the test proved nothing")
	}
	t.Logf("%d clients: %d contracts acknowledged before kill -9, all present with audit events after the restart; "+
		"%d deliveries in the outbox, %d received before the kill, %d first delivered after the restart, all under their ids",
		clients, len(acked), len(all), len(beforeRestart), afterRestart)
}
