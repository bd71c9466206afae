package webhooks

import (
	"sync"
	"time"
)

// Clock tells the time and waits. The pool computes every delivery's
// NextAt from it and waits for it; tests use a FakeClock and move it.
type Clock interface {
	Now() time.Time
	NewTimer(d time.Duration) Timer
}

// Timer fires once on C after its duration, unless stopped first.
type Timer interface {
	C() <-chan time.Time
	Stop() bool
}

// RealClock is the wall clock.
func RealClock() Clock { return realClock{} }

type realClock struct{}

func (realClock) Now() time.Time                 { return time.Now() }
func (realClock) NewTimer(d time.Duration) Timer { return realTimer{time.NewTimer(d)} }

type realTimer struct{ t *time.Timer }

func (r realTimer) C() <-chan time.Time { return r.t.C }
func (r realTimer) Stop() bool          { return r.t.Stop() }

// FakeClock stands still until Advance moves it; timers whose time has
// come fire then. Safe for concurrent use.
type FakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers map[*fakeTimer]struct{}
}

// NewFakeClock starts a fake clock at start.
func NewFakeClock(start time.Time) *FakeClock {
	return &FakeClock{now: start, timers: map[*fakeTimer]struct{}{}}
}

// Now returns the fake time.
func (c *FakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// NewTimer returns a timer that fires when the clock reaches now+d; at
// once when d <= 0.
func (c *FakeClock) NewTimer(d time.Duration) Timer {
	return c.NewTimerAt(c.Now().Add(d))
}

// NewTimerAt returns a timer that fires when the clock reaches at; at once
// when it has. Unlike NewTimer with a duration taken from Now, it cannot
// miss an Advance made in between.
func (c *FakeClock) NewTimerAt(at time.Time) Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{clock: c, at: at, c: make(chan time.Time, 1)}
	if !at.After(c.now) {
		t.c <- c.now
	} else {
		c.timers[t] = struct{}{}
	}
	return t
}

// timerAt returns a timer of the clock that fires at the instant at.
func timerAt(c Clock, at time.Time) Timer {
	if c, ok := c.(interface{ NewTimerAt(time.Time) Timer }); ok {
		return c.NewTimerAt(at)
	}
	return c.NewTimer(at.Sub(c.Now()))
}

// Advance moves the clock forward by d and fires the timers that are due.
func (c *FakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	for t := range c.timers {
		if !t.at.After(c.now) {
			t.c <- c.now
			delete(c.timers, t)
		}
	}
}

type fakeTimer struct {
	clock *FakeClock
	at    time.Time
	c     chan time.Time
}

func (t *fakeTimer) C() <-chan time.Time { return t.c }

func (t *fakeTimer) Stop() bool {
	t.clock.mu.Lock()
	defer t.clock.mu.Unlock()
	_, pending := t.clock.timers[t]
	delete(t.clock.timers, t)
	return pending
}
