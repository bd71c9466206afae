// Package webhooks delivers the webhook outbox. signflow writes one
// Delivery row per event and target in the transaction of the change; a
// Pool reads the PENDING rows from the store, signs and POSTs them, retries
// on the spec's schedule and writes every attempt back to the row.
package webhooks

import (
	"context"
	"net/http"
	"sync"
	"time"

	"contracts/signflow"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/rs/zerolog"
)

// Defaults of Options.
const (
	DefaultName           = "Contracts"
	DefaultAttemptTimeout = 10 * time.Second
	DefaultWorkers        = 32
)

// retryDelays are the waits after the first, second and third failed
// attempt of a round; the fourth failure makes the delivery FAILED.
var retryDelays = [...]time.Duration{2 * time.Second, 4 * time.Second, 8 * time.Second}

const (
	window     = 4096            // PENDING rows the dispatcher holds in memory at most
	writeBatch = 512             // attempt results written in one transaction at most
	pollEvery  = 5 * time.Second // outbox re-read in case a wake-up was missed
	// Rows handed out per worker: beside the one it sends, those waiting for
	// it and those whose result waits for the log write, so that workers do
	// not idle while a batch of results commits.
	inFlightPerWorker = 4
)

// Options configure a Pool; zero fields take the defaults.
type Options struct {
	Name           string        // config service.name, used in the X-<Name>-* headers
	Workers        int           // attempts in flight at once
	AttemptTimeout time.Duration // HTTP time-out of one attempt
	Clock          Clock         // RealClock() unless a test moves time
	Log            zerolog.Logger
}

// Pool sends the outbox with a fixed set of workers. It is owned by the
// process: Start it once, Shutdown it before closing the store.
type Pool struct {
	store   signflow.Store
	sealer  signflow.Sealer
	opt     Options
	client  *http.Client
	headers headerNames
	metrics *metrics

	wake, rescan chan struct{}
	jobs         chan *signflow.Delivery // its capacity bounds the rows handed out and not yet written back
	results      chan result
	done         chan []*signflow.Delivery
	stop         chan struct{}
	stopOnce     sync.Once
	ctx          context.Context // aborts attempts in flight when Shutdown runs out of time
	abort        context.CancelFunc
	wg           sync.WaitGroup
}

// New builds a pool over the store; the sealer opens the targets' webhook
// secrets. Its metrics are registered with reg when reg is not nil.
func New(store signflow.Store, sealer signflow.Sealer, reg prometheus.Registerer, opt Options) (*Pool, error) {
	if opt.Name == "" {
		opt.Name = DefaultName
	}
	if opt.Workers <= 0 {
		opt.Workers = DefaultWorkers
	}
	if opt.AttemptTimeout <= 0 {
		opt.AttemptTimeout = DefaultAttemptTimeout
	}
	if opt.Clock == nil {
		opt.Clock = RealClock()
	}
	m, err := newMetrics(reg)
	if err != nil {
		return nil, err
	}
	p := &Pool{store: store, sealer: sealer, opt: opt, client: newClient(opt), headers: newHeaderNames(opt.Name), metrics: m,
		wake: make(chan struct{}, 1), rescan: make(chan struct{}, 1), jobs: make(chan *signflow.Delivery, opt.Workers*inFlightPerWorker),
		results: make(chan result, opt.Workers), done: make(chan []*signflow.Delivery, 1), stop: make(chan struct{})}
	p.ctx, p.abort = context.WithCancel(context.Background())
	return p, nil
}

// Start loads the PENDING outbox, including rows left by an earlier
// process, and starts the dispatcher, the workers and the writer.
func (p *Pool) Start() {
	var workers sync.WaitGroup
	for range p.opt.Workers {
		workers.Go(p.work)
	}
	p.wg.Go(func() { workers.Wait(); close(p.results) })
	p.wg.Go(p.write)
	p.wg.Go(p.dispatch)
}

// Shutdown stops taking rows and waits for the attempts in flight and
// their log entries. When ctx ends first it aborts those attempts; their
// rows stay PENDING and are sent again, under the same id, after a restart.
func (p *Pool) Shutdown(ctx context.Context) error {
	p.stopOnce.Do(func() { close(p.stop) })
	finished := make(chan struct{})
	go func() { p.wg.Wait(); close(finished) }()
	select {
	case <-finished:
		return nil
	case <-ctx.Done():
		p.abort()
		<-finished
		return ctx.Err()
	}
}

// Wake tells the pool that new rows were committed to the outbox; wire it
// to storage's OnDeliveryAdded.
func (p *Pool) Wake() { signal(p.wake) }

// Redelivered tells the pool that an old row was queued again; wire it to
// the admin API's Redelivered hook.
func (p *Pool) Redelivered() { signal(p.rescan) }

func signal(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

// dispatch hands due rows to the workers and waits for the next one to
// become due, for new rows, or for finished attempts.
func (p *Pool) dispatch() {
	defer close(p.jobs)
	s := newSchedule()
	clock := p.opt.Clock
	load, full := true, false
	pollAt := clock.Now().Add(pollEvery)
	busy := 0
	for {
		now := clock.Now()
		if !now.Before(pollAt) {
			load, pollAt = true, now.Add(pollEvery)
		}
		if full {
			s.reset()
			full, load = false, true
		}
		if load && s.loaded < window {
			load = p.load(s)
		}
		for busy < cap(p.jobs) {
			d := s.next(now)
			if d == nil {
				break
			}
			p.jobs <- d
			busy++
		}
		p.metrics.depth.Set(float64(s.loaded))

		wait := pollAt.Sub(now)
		if at, ok := s.nextAt(); ok && busy < cap(p.jobs) {
			wait = min(wait, at.Sub(now))
		}
		timer := clock.NewTimer(wait)
		select {
		case <-p.stop:
			timer.Stop()
			return
		case <-p.wake:
			load = true
		case <-p.rescan:
			full = true
		case rows := <-p.done:
			for _, d := range rows {
				s.finish(d)
			}
			busy -= len(rows)
		case <-timer.C():
		}
		timer.Stop()
	}
}

// load reads the PENDING rows after the schedule's cursor into it, and
// reports whether the outbox may hold more than there was room for.
func (p *Pool) load(s *schedule) bool {
	room := window - s.loaded
	var rows []*signflow.Delivery
	err := p.store.View(func(tx signflow.Tx) (err error) {
		rows, err = tx.PendingDeliveries(s.cursor, room)
		return err
	})
	if err != nil {
		p.opt.Log.Error().Err(err).Msg("webhooks: read the outbox")
		return false
	}
	for _, d := range rows {
		s.add(d)
	}
	return len(rows) == room
}
