package server

import (
	"sync"
	"time"

	"contracts/signflow"

	"golang.org/x/time/rate"
)

// Limiter is a set of token buckets, one per key (a client IP, an app, an
// API key), refilled at a steady rate. Time comes from an injected clock.
type Limiter struct {
	mu      sync.Mutex
	per     time.Duration
	burst   int
	now     func() time.Time
	buckets map[string]*rate.Limiter
	sweepAt time.Time
}

// NewLimiter allows n events per period for each key, with a burst of n.
// n = 0 means no limit: Allow always succeeds.
func NewLimiter(n int, period time.Duration, now func() time.Time) *Limiter {
	if now == nil {
		now = time.Now
	}
	l := &Limiter{burst: n, now: now, buckets: map[string]*rate.Limiter{}}
	if n > 0 {
		l.per = period / time.Duration(n)
	}
	return l
}

// Enabled says whether the limiter limits anything (n > 0), so that a
// caller can skip the work of finding a key.
func (l *Limiter) Enabled() bool { return l != nil && l.burst > 0 }

// Allow takes one event for key, or returns a RetryAfterError saying when
// the next one will be allowed.
func (l *Limiter) Allow(key string) error {
	if l == nil || l.burst == 0 {
		return nil
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sweep(now)
	b := l.buckets[key]
	if b == nil {
		b = rate.NewLimiter(rate.Every(l.per), l.burst)
		l.buckets[key] = b
	}
	r := b.ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return &RetryAfterError{Err: signflow.Errorf(signflow.ERATELIMIT, "Too many requests; retry later."), After: d}
	}
	return nil
}

// sweep drops full buckets now and then so the map does not grow forever.
func (l *Limiter) sweep(now time.Time) {
	if now.Before(l.sweepAt) {
		return
	}
	l.sweepAt = now.Add(time.Minute)
	for k, b := range l.buckets {
		if b.TokensAt(now) >= float64(l.burst) {
			delete(l.buckets, k)
		}
	}
}
