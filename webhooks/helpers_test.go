package webhooks_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"sync"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"
	"contracts/storage"
	"contracts/storage/postgres"
	"contracts/storage/postgres/pgtest"
	"contracts/webhooks"

	"github.com/prometheus/client_golang/prometheus"
)

// harness is a real world, on bbolt or PostgreSQL, whose service and pool
// share a fake clock.
type harness struct {
	*fixture.Standard
	t      *testing.T
	clock  *webhooks.FakeClock
	store  pooled                    // the store the service and the pool work on
	reopen func(t *testing.T) pooled // opens the database again, as a restarted process would
	svc    *signflow.Service         // the fixture's service, on the fake clock
	reg    *prometheus.Registry
	pool   *webhooks.Pool
}

// pooled is a store a pool works on, which wakes the pool after commits
// that add deliveries.
type pooled interface {
	webhooks.Store
	OnDeliveryAdded(fn func())
}

// engine opens fresh stores of one storage engine.
type engine struct {
	name string
	// open returns a fresh store and a function that opens its database
	// again, closing the handle before it first where only one may be open.
	open func(t *testing.T) (pooled, func(t *testing.T) pooled)
	// peer returns the handle a second process would hold on the database
	// of the store: another connection pool, or the same handle on a file
	// only one process opens.
	peer func(t *testing.T, s pooled) pooled
}

var engines = []engine{
	{"bbolt", func(t *testing.T) (pooled, func(*testing.T) pooled) {
		path := filepath.Join(t.TempDir(), "contracts.db")
		var db *storage.DB
		open := func(t *testing.T) pooled {
			if db != nil {
				if err := db.Close(); err != nil {
					t.Fatal(err)
				}
			}
			var err error
			if db, err = storage.Open(path, storage.Options{}); err != nil {
				t.Fatal(err)
			}
			d := db
			t.Cleanup(func() { d.Close() })
			return db
		}
		return open(t), open
	}, func(t *testing.T, s pooled) pooled { return s }},
	{"postgres", func(t *testing.T) (pooled, func(*testing.T) pooled) {
		url := pgtest.NewDatabase(t)
		open := func(t *testing.T) pooled { return pgtest.OpenURL(t, url) }
		return open(t), open
	}, func(t *testing.T, s pooled) pooled { return pgtest.Peer(t, s.(*postgres.Store)) }},
}

// eachEngine runs the test on every engine.
func eachEngine(t *testing.T, fn func(t *testing.T, e engine)) {
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) { fn(t, e) })
	}
}

// newHarness builds a harness on bbolt.
func newHarness(t *testing.T) *harness { return newHarnessOn(t, engines[0]) }

func newHarnessOn(t *testing.T, e engine) *harness {
	t.Helper()
	store, reopen := e.open(t)
	s := fixture.NewStandardOn(t, store)
	h := &harness{Standard: s, t: t, clock: webhooks.NewFakeClock(s.Clock.Now()), reopen: reopen}
	h.use(store)
	fixture.MustOwner(t, h.svc, &signflow.Client{IN: peerIN, FirstName: "Dilnoza", LastName: "Rahimova", Phone: peerPhone})
	fixture.MustClaim(t, h.svc, peerIN, &signflow.Client{IN: fixture.CustomerIN, FirstName: "Aziz", LastName: "Karimov", Phone: custPhone})
	return h
}

// The owner of the harness's apps is an individual, so that both parties
// of its contracts sign with SMS codes.
const (
	peerIN    = "32222222222222"
	peerPhone = "998901111111"
	custPhone = "998901234567"
)

// use points the world at store, as a restarted process would open it.
func (h *harness) use(store pooled) {
	h.store, h.Store, h.svc = store, store, signflow.NewService(store, h.serviceOptions())
	h.DB, _ = store.(*storage.DB)
}

// serviceOptions are the world's service options on the fake clock.
func (h *harness) serviceOptions() signflow.Options {
	opt := h.Options
	opt.Now = h.clock.Now
	return opt
}

// restart opens the database again, as a restarted process would.
func (h *harness) restart() { h.use(h.reopen(h.t)) }

// start runs a pool on the world's database, woken by its commits as in
// the appliance, and shuts it down at the end of the test.
func (h *harness) start(opt webhooks.Options) *webhooks.Pool {
	h.t.Helper()
	h.reg = prometheus.NewRegistry()
	h.pool = h.startOn(h.store, h.reg, opt)
	return h.pool
}

// startOn runs a pool on store on the harness's clock, with its metrics in reg.
func (h *harness) startOn(store pooled, reg *prometheus.Registry, opt webhooks.Options) *webhooks.Pool {
	h.t.Helper()
	opt.Clock = h.clock
	if opt.Lease == 0 {
		// Tests move the clock by minutes and hours while attempts are in
		// flight: only a lease test may see a claim run out.
		opt.Lease = 365 * 24 * time.Hour
	}
	p, err := webhooks.New(store, h.Box, reg, fixture.Webhooks(opt))
	if err != nil {
		h.t.Fatal(err)
	}
	store.OnDeliveryAdded(p.Wake)
	p.Start()
	h.t.Cleanup(func() { stop(h.t, p) })
	return p
}

func stop(t *testing.T, p *webhooks.Pool) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := p.Shutdown(ctx); err != nil {
		t.Errorf("Shutdown: %v", err)
	}
}

// app provisions an app of the peer with a webhook address.
func (h *harness) app(url string, events ...string) *signflow.NewCredential {
	return fixture.MustCredential(h.t, h.svc.CreateApp, &signflow.CredentialInput{Name: "Hooked app", OwnerIN: peerIN,
		Scopes: signflow.AppScopes, AllTemplates: true, WebhookURL: url, WebhookEvents: events})
}

// key provisions a key of owner with a webhook address.
func (h *harness) key(owner, url string) *signflow.NewCredential {
	return fixture.MustCredential(h.t, h.svc.CreateKey, &signflow.CredentialInput{Name: "Hooked key", OwnerIN: owner,
		Scopes: signflow.KeyScopes, AllTemplates: true, WebhookURL: url})
}

// contract creates a contract through cred: the peer sells 1500.50 UZS to
// the customer.
func (h *harness) contract(cred *signflow.NewCredential) *signflow.Contract {
	h.t.Helper()
	c, err := h.svc.CreateContract(h.Access(h.t, cred), &signflow.ContractInput{TemplateID: h.Template.ID,
		BuyerIN: fixture.CustomerIN, Price: 150050, Currency: "UZS"}, signflow.Actor{IP: "127.0.0.1"})
	if err != nil {
		h.t.Fatal(err)
	}
	return c
}

// sign signs the contract for signer through an OTP_SMS session opened by
// cred, reading the code from the recorded SMS.
func (h *harness) sign(cred *signflow.NewCredential, contractID, signer, phone string) {
	h.t.Helper()
	_, token, err := h.svc.OpenSession(h.Access(h.t, cred), contractID, signflow.SessionRequest{SignerIN: signer, Lang: "en"}, signflow.Actor{})
	if err != nil {
		h.t.Fatal(err)
	}
	if _, err := h.svc.SendCode(context.Background(), token, signflow.Actor{}); err != nil {
		h.t.Fatal(err)
	}
	sms := h.SMS.Last()
	code := regexp.MustCompile(`\b(\d{5})\b`).FindStringSubmatch(sms.Text)
	if sms.Phone != phone || code == nil {
		h.t.Fatalf("no code for %s in the last SMS %+v", phone, sms)
	}
	if _, err := h.svc.ConfirmCode(token, code[1], signflow.Actor{}); err != nil {
		h.t.Fatal(err)
	}
}

// deliveries reads the outbox rows of a contract from the store.
func (h *harness) deliveries(contractID string) []*signflow.Delivery {
	h.t.Helper()
	list, err := h.svc.Deliveries(signflow.DeliveryFilter{ContractID: contractID})
	if err != nil {
		h.t.Fatal(err)
	}
	return list
}

// only returns the single outbox row of a contract.
func (h *harness) only(contractID string) *signflow.Delivery {
	h.t.Helper()
	list := h.deliveries(contractID)
	if len(list) != 1 {
		h.t.Fatalf("%d deliveries for the contract, want 1", len(list))
	}
	return list[0]
}

// waitRow polls the store until the delivery satisfies cond.
func (h *harness) waitRow(id, what string, cond func(*signflow.Delivery) bool) *signflow.Delivery {
	h.t.Helper()
	var d *signflow.Delivery
	waitFor(h.t, what, func() bool {
		var err error
		d, err = h.delivery(id)
		return err == nil && cond(d)
	})
	return d
}

func (h *harness) delivery(id string) (d *signflow.Delivery, err error) {
	err = h.store.View(func(tx signflow.Tx) error { d, err = tx.Delivery(id); return err })
	return d, err
}

// waitAttempts waits until the delivery log holds n attempts of the row.
func (h *harness) waitAttempts(id string, n int) *signflow.Delivery {
	h.t.Helper()
	return h.waitRow(id, "attempts in the log", func(d *signflow.Delivery) bool { return len(d.Attempts) >= n })
}

func (h *harness) waitStatus(id, status string) *signflow.Delivery {
	h.t.Helper()
	return h.waitRow(id, status, func(d *signflow.Delivery) bool { return d.Status == status })
}

// waitFor polls cond, for real I/O only (HTTP, the store), with a deadline.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// receiver is a real HTTP webhook endpoint that records every request and
// answers with status(n) for the n-th one (1-based).
type receiver struct {
	*httptest.Server
	mu     sync.Mutex
	reqs   []request
	status func(n int) int
}

type request struct {
	header http.Header
	body   []byte
}

func newReceiver(t *testing.T, status func(n int) int) *receiver {
	r := &receiver{status: status}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.reqs = append(r.reqs, request{req.Header.Clone(), body})
		n := len(r.reqs)
		r.mu.Unlock()
		w.WriteHeader(r.status(n))
	}))
	t.Cleanup(r.Close)
	return r
}

func answer(code int) func(int) int { return func(int) int { return code } }

func (r *receiver) got() []request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]request(nil), r.reqs...)
}

// body decodes a webhook body keeping numbers as written.
func body(t *testing.T, raw []byte) map[string]any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("body %s: %v", raw, err)
	}
	return m
}

// metric reads one series from the registry: a counter or gauge value, or
// a histogram's sample count.
func metric(t *testing.T, reg *prometheus.Registry, name string, labels map[string]string) float64 {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
	series:
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if labels[l.GetName()] != l.GetValue() {
					continue series
				}
			}
			switch {
			case m.Counter != nil:
				return m.Counter.GetValue()
			case m.Gauge != nil:
				return m.Gauge.GetValue()
			case m.Histogram != nil:
				return float64(m.Histogram.GetSampleCount())
			}
		}
	}
	return 0
}
