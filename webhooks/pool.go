// Package webhooks delivers the webhook outbox. signflow writes one
// Delivery row per event and target in the transaction of the change; a
// Pool claims the due PENDING rows from the store (so that the pools of
// several processes share one outbox, each attempt made by one of them),
// signs and POSTs them, retries on the spec's schedule and writes every
// attempt back to the row.
package webhooks

import (
	"context"
	"crypto/x509"
	"errors"
	"net/http"
	"net/url"
	"sync"
	"time"

	"contracts/signflow"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/rs/zerolog"
)

const (
	writeBatch = 512             // attempt results written in one transaction at most
	pollEvery  = 5 * time.Second // outbox claimed again in case a wake-up was missed (or another process wrote)
	// Rows claimed per worker: beside the one it sends, those waiting for
	// it and those whose result waits for the log write, so that workers
	// do not idle while a batch of results commits. A claimed row is
	// attempted and settled within this many attempts' time and one more.
	inFlightPerWorker = 4
)

// Store is what the pool works on: the store of the deliveries and the
// claims on them.
type Store interface {
	signflow.Store
	signflow.Outbox
}

// Options configure a Pool. Name, Workers, AttemptTimeout and PerTarget
// are required: the configuration holds their defaults.
type Options struct {
	Name           string        // config service.name, used in the X-<Name>-* headers
	Workers        int           // attempts in flight at once (webhooks.workers)
	AttemptTimeout time.Duration // HTTP time-out of one attempt (webhooks.timeout)
	// Lease is how long a claimed row stays this pool's; a pool that dies
	// leaves its rows to others after it. Default: the time of five
	// attempts and ten seconds, more than a claimed row can wait, be
	// attempted and be written back.
	Lease time.Duration
	Clock Clock // RealClock() unless a test moves time
	Log   zerolog.Logger
	// PerTarget bounds the attempts of one target in flight (rows handed
	// to the workers and not yet attempted): a receiver that hangs delays
	// only its own deliveries (webhooks.perTargetConcurrency); -1: no
	// bound.
	PerTarget int
}

// Pool sends the outbox with a fixed set of workers. It claims the rows it
// sends, so that several pools (processes) can share one outbox: each
// attempt is made by one of them. It is owned by the process: Start it
// once, Shutdown it before closing the store.
type Pool struct {
	store     Store
	box       signflow.SecretBox
	opt       Options
	claimer   string       // this pool's name on its claims
	client    *http.Client // for receivers behind a proxy; the others get the workers' own connections
	proxy     func(*http.Request) (*url.URL, error)
	roots     *x509.CertPool // the roots receivers' certificates are verified against; nil: the system's
	headers   headerNames
	userAgent string
	metrics   *metrics

	wake     chan struct{}
	jobs     chan *signflow.Delivery // its capacity bounds the rows claimed and not yet written back
	results  chan result
	done     chan int // how many claimed rows a write settled
	held     heldRows // rows handed to the workers and not yet attempted, by target
	stop     chan struct{}
	stopOnce sync.Once
	ctx      context.Context // aborts attempts in flight when Shutdown runs out of time
	abort    context.CancelFunc
	wg       sync.WaitGroup
}

// New builds a pool over the store; the box opens the targets' webhook
// secrets. Its metrics are registered with reg when reg is not nil.
func New(store Store, box signflow.SecretBox, reg prometheus.Registerer, opt Options) (*Pool, error) {
	switch {
	case opt.Name == "":
		return nil, errors.New("webhooks: Options.Name is required (service.name)")
	case opt.Workers <= 0:
		return nil, errors.New("webhooks: Options.Workers must be positive (webhooks.workers)")
	case opt.PerTarget == 0 || opt.PerTarget < -1:
		return nil, errors.New("webhooks: Options.PerTarget must be positive or -1 (webhooks.perTargetConcurrency)")
	case opt.AttemptTimeout <= 0:
		return nil, errors.New("webhooks: Options.AttemptTimeout must be positive (webhooks.timeout)")
	}
	if opt.Lease <= 0 {
		opt.Lease = (inFlightPerWorker+1)*opt.AttemptTimeout + 10*time.Second
	}
	if opt.Clock == nil {
		opt.Clock = RealClock()
	}
	m, err := newMetrics(reg)
	if err != nil {
		return nil, err
	}
	p := &Pool{store: store, box: box, opt: opt, claimer: signflow.NewID(), proxy: http.ProxyFromEnvironment,
		client: newClient(opt, http.ProxyFromEnvironment), headers: newHeaderNames(opt.Name),
		userAgent: opt.Name + "-Webhooks/1",
		metrics:   m, wake: make(chan struct{}, 1), jobs: make(chan *signflow.Delivery, opt.Workers*inFlightPerWorker),
		results: make(chan result, opt.Workers), done: make(chan int, 1), held: heldRows{n: map[string]int{}}, stop: make(chan struct{})}
	p.ctx, p.abort = context.WithCancel(context.Background())
	return p, nil
}

// Start starts the dispatcher, the workers and the writer. The dispatcher
// claims at once what is due, rows left by an earlier process included.
func (p *Pool) Start() {
	var workers sync.WaitGroup
	for range p.opt.Workers {
		workers.Go(p.work)
	}
	p.wg.Go(func() { workers.Wait(); close(p.results) })
	p.wg.Go(p.write)
	p.wg.Go(p.dispatch)
}

// Shutdown stops claiming and waits for the attempts in flight and their
// log entries. When ctx ends first it aborts those attempts. Rows claimed
// and not attempted are given back: they stay PENDING and are sent, under
// the same id, by the next pool.
func (p *Pool) Shutdown(ctx context.Context) error {
	p.stopOnce.Do(func() { close(p.stop) })
	finished := make(chan struct{})
	go func() { p.wg.Wait(); close(finished) }()
	var err error
	select {
	case <-finished:
	case <-ctx.Done():
		p.abort()
		<-finished
		err = ctx.Err()
	}
	if rerr := p.store.ReleaseDeliveries(p.claimer); rerr != nil {
		p.opt.Log.Error().Err(rerr).Msg("webhooks: give back the claimed rows; they wait for their lease to end")
	}
	return err
}

// Wake tells the pool that new rows were committed to the outbox; wire it
// to the store's OnDeliveryAdded.
func (p *Pool) Wake() { signal(p.wake) }

// Redelivered tells the pool that an old row was queued again; wire it to
// the admin API's Redelivered hook.
func (p *Pool) Redelivered() { signal(p.wake) }

func signal(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

// dispatch claims due rows for the workers whenever there is room and
// something may have changed: new rows, attempts finished, written
// results, the time of the next due row, or the poll.
func (p *Pool) dispatch() {
	defer close(p.jobs)
	clock := p.opt.Clock
	busy := 0            // claimed rows not yet written back
	var nextAt time.Time // when the soonest unclaimed row falls due; zero when none waits
	pollAt := clock.Now().Add(pollEvery)
	for {
		now := clock.Now()
		if !now.Before(pollAt) {
			pollAt = now.Add(pollEvery)
		}
		if busy < cap(p.jobs) {
			next, n := p.claim(now, cap(p.jobs)-busy)
			busy += n
			nextAt = next
		}
		wake := pollAt
		if !nextAt.IsZero() && nextAt.Before(wake) && busy < cap(p.jobs) {
			wake = nextAt
		}
		timer := timerAt(clock, wake)
		select {
		case <-p.stop:
			timer.Stop()
			return
		case <-p.wake:
		case settled := <-p.done:
			busy -= settled
		case <-timer.C():
		}
		timer.Stop()
	}
}

// claim hands up to room due rows to the workers, at most PerTarget in
// flight of one target, and returns when the next row falls due and how
// many it handed out.
func (p *Pool) claim(now time.Time, room int) (time.Time, int) {
	b, err := p.store.ClaimDeliveries(signflow.DeliveryClaim{Claimer: p.claimer, Now: now, Lease: p.opt.Lease, Limit: room,
		PerTarget: max(p.opt.PerTarget, 0), Held: p.held.snapshot()})
	if err != nil {
		p.opt.Log.Error().Err(err).Msg("webhooks: claim from the outbox")
		return now.Add(retryDelays[0]), 0
	}
	for _, d := range b.Rows {
		p.held.add(d.Target)
		p.jobs <- d // never blocks: the rows fit in the room left
	}
	p.metrics.depth.Set(float64(b.Pending))
	if len(b.Rows) == room {
		return now, room // more may be due: claim again once there is room
	}
	return b.NextAt, len(b.Rows)
}

// heldRows counts, by target, the rows handed to the workers and not yet
// attempted. A worker takes its row off as soon as the attempt ends, while
// the result waits for the log write: the bound is on attempts in flight,
// and a target's next rows need not wait for a commit.
type heldRows struct {
	mu sync.Mutex
	n  map[string]int
}

func (h *heldRows) add(target string) {
	h.mu.Lock()
	h.n[target]++
	h.mu.Unlock()
}

// attempted takes a row off its target and reports whether the target
// held bound rows before: only then may a claim now give out more.
func (h *heldRows) attempted(target string, bound int) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := h.n[target]
	if n <= 1 {
		delete(h.n, target)
	} else {
		h.n[target] = n - 1
	}
	return bound > 0 && n >= bound
}

// snapshot is a copy for one claim: a count it overstates (an attempt
// ended meanwhile) only delays rows until the wake-up that follows.
func (h *heldRows) snapshot() map[string]int {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make(map[string]int, len(h.n))
	for k, v := range h.n {
		out[k] = v
	}
	return out
}
