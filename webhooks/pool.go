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

	wake      chan struct{}
	jobs      chan *signflow.Delivery // rows handed to the workers, one each at most waiting
	attempted chan string             // the target of each row attempted
	results   chan result
	done      chan int // how many claimed rows a write settled
	stop      chan struct{}
	stopOnce  sync.Once
	ctx       context.Context // aborts attempts in flight when Shutdown runs out of time
	abort     context.CancelFunc
	wg        sync.WaitGroup
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
		metrics:   m, wake: make(chan struct{}, 1), jobs: make(chan *signflow.Delivery, opt.Workers), attempted: make(chan string, opt.Workers),
		results: make(chan result, opt.Workers), done: make(chan int, 1), stop: make(chan struct{})}
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
	p.wg.Go(newDispatcher(p).run)
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
