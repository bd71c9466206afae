package signflow

import (
	"context"
	"sync"
	"time"
)

// sweepBatch is how many sessions one transaction of a sweep closes.
const sweepBatch = 200

// ExpireSessions closes, as EXPIRED, every PENDING session whose expiresAt
// has passed, with a SESSION_CLOSED audit event each, and returns how many
// it closed. Readers already see such sessions as EXPIRED (EffectiveStatus);
// this makes it stored and clears the expiry index.
func (s *Service) ExpireSessions() (int, error) {
	total := 0
	for {
		now := s.opt.Now()
		n := 0
		err := s.store.Update(func(tx Tx) error {
			n = 0
			// ExpiredSessions is strict; a session is expired from the instant of expiresAt.
			list, err := tx.ExpiredSessions(now.Add(time.Nanosecond), sweepBatch)
			if err != nil {
				return err
			}
			for _, sess := range list {
				if sess.Status != SessionPending || now.Before(sess.ExpiresAt) {
					continue
				}
				c, err := tx.Contract(sess.ContractID)
				if err != nil && ErrorCode(err) != ENOTFOUND {
					return err
				} else if err != nil {
					c = nil
				}
				closeSession(sess, SessionExpired, sess.ExpiresAt)
				if err := tx.PutSession(sess); err != nil {
					return err
				}
				if err := s.auditSession(tx, c, sess, AuditSessionClosed, Actor{}, "expired"); err != nil {
					return err
				}
				n++
			}
			return nil
		})
		total += n
		if err != nil || n < sweepBatch {
			return total, err
		}
	}
}

// SweeperLock names the work of the session sweeper on a Shared store.
const SweeperLock = "session sweeper"

// sweep runs the timers due (deadlines, reminders), expires sessions and
// forgets expired idempotency keys. On a store that several processes
// share, one sweeps at a time: the others skip the tick.
func (s *Service) sweep() (int, error) {
	work := func() (int, error) {
		_, err := s.RunTimers()
		n, err2 := s.ExpireSessions()
		if err == nil {
			err = err2
		}
		if err == nil {
			_, err = s.PurgeRequests()
		}
		return n, err
	}
	shared, ok := s.store.(Shared)
	if !ok {
		return work()
	}
	var n int
	_, err := shared.Exclusive(SweeperLock, func() (err error) { n, err = work(); return err })
	return n, err
}

// SweeperOptions configure a Sweeper.
type SweeperOptions struct {
	// Every is the time between sweeps when Ticks is nil; required then.
	Every time.Duration
	// Ticks, when set, drives the sweeps instead of a ticker (tests send on it).
	Ticks <-chan time.Time
	// OnSweep, when set, is told the outcome of each sweep (to log errors).
	OnSweep func(closed int, err error)
}

// Sweeper is the background component that expires signing sessions. It is
// owned by the process: Start it once, Shutdown stops it and waits.
type Sweeper struct {
	svc  *Service
	opt  SweeperOptions
	stop chan struct{}
	once sync.Once
	wg   sync.WaitGroup
}

// NewSweeper returns a sweeper over the service; it does nothing until Start.
func NewSweeper(svc *Service, opt SweeperOptions) *Sweeper {
	if opt.Ticks == nil && opt.Every <= 0 {
		panic("signflow: NewSweeper needs a positive Every or Ticks")
	}
	return &Sweeper{svc: svc, opt: opt, stop: make(chan struct{})}
}

// Start runs the sweep loop in a goroutine.
func (w *Sweeper) Start() {
	ticks := w.opt.Ticks
	var ticker *time.Ticker
	if ticks == nil {
		ticker = time.NewTicker(w.opt.Every)
		ticks = ticker.C
	}
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		if ticker != nil {
			defer ticker.Stop()
		}
		for {
			select {
			case <-w.stop:
				return
			case <-ticks:
				n, err := w.svc.sweep()
				if w.opt.OnSweep != nil {
					w.opt.OnSweep(n, err)
				}
			}
		}
	}()
}

// Shutdown stops the loop and waits for a sweep in progress to end, or for ctx.
func (w *Sweeper) Shutdown(ctx context.Context) error {
	w.once.Do(func() { close(w.stop) })
	done := make(chan struct{})
	go func() { w.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
