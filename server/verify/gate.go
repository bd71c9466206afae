package verify

import (
	"context"
	"time"

	"contracts/signflow"
)

// gate bounds the uploads read at once: each holds up to 10 MiB in memory
// while it is read and checked. A request waits up to wait for a place,
// then is refused with 503 and Retry-After.
type gate struct {
	slots chan struct{}
	wait  time.Duration
}

// busyAfter is the Retry-After of an upload refused at the gate.
const busyAfter = 5 * time.Second

// errBusy refuses an upload while every place is taken.
var errBusy = &busyError{}

type busyError struct{}

func (e *busyError) Error() string { return e.Unwrap().Error() }

// Unwrap presents the refusal as EUNAVAILABLE.
func (e *busyError) Unwrap() error {
	return signflow.Errorf(signflow.EUNAVAILABLE, "Too many files are being checked; retry in a few seconds.")
}

// RetryAfter is when to try again.
func (e *busyError) RetryAfter() time.Duration { return busyAfter }

// newGate returns a gate of n places (nil for no bound when n <= 0).
func newGate(n int, wait time.Duration) *gate {
	if n <= 0 {
		return nil
	}
	return &gate{slots: make(chan struct{}, n), wait: wait}
}

// enter takes a place, or returns errBusy once wait has passed (or the
// request has gone); the caller calls leave after a nil error.
func (g *gate) enter(ctx context.Context) error {
	if g == nil {
		return nil
	}
	select {
	case g.slots <- struct{}{}:
		return nil
	default:
	}
	t := time.NewTimer(g.wait)
	defer t.Stop()
	select {
	case g.slots <- struct{}{}:
		return nil
	case <-t.C:
		return errBusy
	case <-ctx.Done():
		return errBusy
	}
}

func (g *gate) leave() {
	if g != nil {
		<-g.slots
	}
}
