package pdf

import (
	"context"
	"runtime"
	"sync/atomic"
	"time"

	"contracts/server/document"
	"contracts/signflow"
)

// Renders are CPU-bound: more at once than the CPUs can run only adds
// memory. Large documents (an estimated heavyPages pages and more, up to
// a few hundred pages for 1,000 products or a megabyte of text) take their
// own narrower lane, so that a queue of them never holds up the usual
// two-page contracts. Each lane's queue is bounded: a flood is refused
// (503 with Retry-After) instead of piling up in memory.
var (
	lightLane = newLane(2*runtime.GOMAXPROCS(0), 64)
	heavyLane = newLane(max(1, runtime.GOMAXPROCS(0)/2), 8)
)

// heavyPages is the estimated size (document.Doc.Pages) from which a
// document is heavy; heavyRows is as many table rows alone.
const (
	heavyPages = 5
	heavyRows  = (heavyPages - 1) * document.RowsPerPage
)

// busyWait is the Retry-After of a refused heavy render.
const busyWait = 5 * time.Second

// ErrBusy refuses a document while its lane's queue is full.
var ErrBusy = &BusyError{}

// BusyError is the refusal of a render when its lane's queue is full: 503
// with Retry-After.
type BusyError struct{}

func (e *BusyError) Error() string { return e.Unwrap().Error() }

// Unwrap presents the refusal as EUNAVAILABLE.
func (e *BusyError) Unwrap() error {
	return signflow.Errorf(signflow.EUNAVAILABLE, "Too many PDFs are being rendered; retry in a few seconds.")
}

// RetryAfter is when to try again.
func (e *BusyError) RetryAfter() time.Duration { return busyWait }

// lane is a number of render slots with an optional bound on its waiters.
type lane struct {
	slots      chan struct{}
	waiting    atomic.Int32
	maxWaiting int32 // 0: unbounded
}

func newLane(slots, maxWaiting int) *lane {
	return &lane{slots: make(chan struct{}, slots), maxWaiting: int32(maxWaiting)}
}

// acquire takes a slot, waiting while ctx lasts; a full queue is ErrBusy.
func (l *lane) acquire(ctx context.Context) error {
	select {
	case l.slots <- struct{}{}:
		return nil
	default:
	}
	if n := l.waiting.Add(1); l.maxWaiting > 0 && n > l.maxWaiting {
		l.waiting.Add(-1)
		return ErrBusy
	}
	defer l.waiting.Add(-1)
	select {
	case l.slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (l *lane) release() { <-l.slots }

// laneFor is the lane of a document by its size.
func laneFor(d *document.Doc) *lane {
	if d.Pages() >= heavyPages {
		return heavyLane
	}
	return lightLane
}
