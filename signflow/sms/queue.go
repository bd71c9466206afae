package sms

import (
	"context"
	"sync"
	"time"

	"contracts/signflow"

	"github.com/rs/zerolog"
)

// Queue sends texts in the background through a sender, so that a request
// that queues one (a cabinet login code) answers at once, however slow or
// broken the provider. A text that cannot be sent is logged, without its
// text and with the phone masked, and dropped: so is a text that finds the
// queue full. Queue is a worker of the appliance: Start it, and Shutdown
// it after the listeners that queue texts.
type Queue struct {
	sender  signflow.SMSSender
	log     zerolog.Logger
	workers int
	timeout time.Duration

	mu     sync.Mutex
	closed bool
	texts  chan queued
	wg     sync.WaitGroup
	ctx    context.Context // cancelled when Shutdown gives up waiting
	cancel context.CancelFunc
}

type queued struct{ phone, text string }

// QueueOptions size a Queue; a zero Size or Workers gets the default.
type QueueOptions struct {
	Size    int           // texts waiting at most; default 256
	Workers int           // texts sent at once; default 4
	Timeout time.Duration // the longest one send may take; required
}

// NewQueue returns a stopped queue over sender.
func NewQueue(sender signflow.SMSSender, log zerolog.Logger, opt QueueOptions) *Queue {
	if opt.Size <= 0 {
		opt.Size = 256
	}
	if opt.Workers <= 0 {
		opt.Workers = 4
	}
	if opt.Timeout <= 0 {
		panic("sms: NewQueue needs a positive Timeout (from sms.http.timeout)")
	}
	q := &Queue{sender: sender, log: log, workers: opt.Workers, timeout: opt.Timeout, texts: make(chan queued, opt.Size)}
	q.ctx, q.cancel = context.WithCancel(context.Background())
	return q
}

// Start starts the senders.
func (q *Queue) Start() {
	for i := 0; i < q.workers; i++ {
		q.wg.Add(1)
		go q.run()
	}
}

func (q *Queue) run() {
	defer q.wg.Done()
	for t := range q.texts {
		ctx, cancel := context.WithTimeout(q.ctx, q.timeout)
		err := q.sender.Send(ctx, t.phone, t.text)
		cancel()
		if err != nil {
			q.log.Error().Err(err).Str("phone", signflow.MaskPhone(t.phone)).Msg("SMS not sent")
		}
	}
}

// Enqueue hands a text to the senders and returns at once; it never blocks.
func (q *Queue) Enqueue(phone, text string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		q.log.Error().Str("phone", signflow.MaskPhone(phone)).Msg("SMS dropped: the queue is shut down")
		return
	}
	select {
	case q.texts <- queued{phone, text}:
	default:
		q.log.Error().Str("phone", signflow.MaskPhone(phone)).Msg("SMS dropped: the queue is full")
	}
}

// Shutdown stops taking texts and waits for the queued ones to be sent
// until ctx ends; then it cancels the sends under way and waits for them.
func (q *Queue) Shutdown(ctx context.Context) error {
	q.mu.Lock()
	if !q.closed {
		q.closed = true
		close(q.texts)
	}
	q.mu.Unlock()
	done := make(chan struct{})
	go func() { q.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		q.cancel()
		<-done
		return ctx.Err()
	}
}
