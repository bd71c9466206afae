package webhooks

import (
	"time"

	"contracts/signflow"
)

// dispatcher is the dispatch goroutine's state. It claims a target's due
// rows several attempts ahead and hands them to the workers as the
// target's attempts end, so that a busy target's rows cost one claim for
// many of them, not one each: a claim is a read transaction and a walk of
// the rows claimed already. The rows wait here, not on a worker: a target
// holds no more workers than its bound, and the room its waiting rows take
// (aheadRounds of the bound) runs out no sooner than the workers do when
// as many targets hang.
type dispatcher struct {
	p       *Pool
	maxBusy int // claimed rows not yet written back, at most
	// perTarget bounds a target's claimed rows not yet attempted: a few
	// times its attempts in flight (Options.PerTarget), as many as the
	// lease leaves time for (aheadRounds); 0: no bound.
	perTarget int
	busy      int                    // claimed rows not yet written back
	targets   map[string]*targetRows // the targets with rows claimed and not yet attempted
	// more says the last claim stopped at a bound, so that more rows may
	// be due now; freed counts the attempts ended since. Another claim
	// waits for half a target's worth, or for a write of the results.
	more     bool
	freed    int
	jobsFull bool // a row waits for room in the workers' queue, not for its target
}

// targetRows are one target's rows claimed and not yet attempted.
type targetRows struct {
	waiting  []*signflow.Delivery // not yet handed to a worker, oldest first
	inFlight int                  // handed to the workers
}

func newDispatcher(p *Pool) *dispatcher {
	d := &dispatcher{p: p, maxBusy: p.opt.Workers * inFlightPerWorker, targets: map[string]*targetRows{}}
	if p.opt.PerTarget > 0 {
		d.perTarget = p.opt.PerTarget * aheadRounds(p.opt)
	}
	return d
}

// aheadRounds is how many rounds of a target's attempts a claim takes at
// once. The last row waits for its target's slot all rounds but one, may
// wait one more for a worker, is attempted in one and written back: all
// within the lease, or another process would claim it again and send it
// twice. The default lease leaves inFlightPerWorker rounds; one at the
// least claims no row ahead.
func aheadRounds(opt Options) int {
	return min(max(int(opt.Lease/opt.AttemptTimeout)-2, 1), inFlightPerWorker)
}

// refill is the room that makes another claim worth its transaction.
func (d *dispatcher) refill() int {
	if d.perTarget > 0 {
		return max(1, min(d.perTarget, d.maxBusy)/2)
	}
	return max(1, d.maxBusy/2)
}

// run claims due rows whenever new ones may be there (new rows, settled
// rows, the time of the next due row, the poll) or enough attempts ended
// after a claim that stopped at a target's bound, and hands them out as
// their targets allow.
func (d *dispatcher) run() {
	p := d.p
	defer close(p.jobs)
	clock := p.opt.Clock
	var nextAt time.Time // when the soonest unclaimed row falls due; zero when none waits
	pollAt := clock.Now().Add(pollEvery)
	claim := true
	var timer Timer // kept while the time it waits for stays: most events do not move it
	var timerFor time.Time
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for {
		now := clock.Now()
		if !now.Before(pollAt) {
			pollAt, claim = now.Add(pollEvery), true
		}
		if !nextAt.IsZero() && !now.Before(nextAt) {
			claim = true
		}
		if (claim || d.more && d.freed >= d.refill()) && d.busy < d.maxBusy {
			nextAt = d.claim(now)
			claim = false
		}
		wake := pollAt
		if !nextAt.IsZero() && nextAt.Before(wake) && d.busy < d.maxBusy {
			wake = nextAt // with no room, the next write of results claims
		}
		if timer == nil || !wake.Equal(timerFor) {
			if timer != nil {
				timer.Stop()
			}
			timer, timerFor = timerAt(clock, wake), wake
		}
		select {
		case <-p.stop:
			return
		case <-p.wake:
			claim = true
		case settled := <-p.done:
			// A settle may have made a row due: a retry's time, the next
			// row of a delivered row's lane.
			d.busy -= settled
			claim = true
		case target := <-p.attempted:
			d.targets[target].inFlight--
			d.freed++
			d.handOut(target)
			if d.jobsFull {
				d.handOutAll()
			}
		case <-timer.C():
			timer = nil
		}
	}
}

// claim takes the due rows there is room for and hands out what their
// targets allow; it returns when the next row not taken falls due.
func (d *dispatcher) claim(now time.Time) time.Time {
	p := d.p
	limit := d.maxBusy - d.busy
	held := make(map[string]int, len(d.targets))
	for target, r := range d.targets {
		held[target] = len(r.waiting) + r.inFlight
	}
	b, err := p.store.ClaimDeliveries(signflow.DeliveryClaim{Claimer: p.claimer, Now: now, Lease: p.opt.Lease, Limit: limit,
		PerTarget: d.perTarget, Held: held})
	if err != nil {
		p.opt.Log.Error().Err(err).Msg("webhooks: claim from the outbox")
		return now.Add(retryDelays[0])
	}
	for _, row := range b.Rows {
		r := d.targets[row.Target]
		if r == nil {
			r = &targetRows{}
			d.targets[row.Target] = r
		}
		r.waiting = append(r.waiting, row)
		held[row.Target]++
	}
	d.busy += len(b.Rows)
	p.metrics.depth.Set(float64(b.Pending))
	d.freed, d.more = 0, len(b.Rows) == limit
	for _, n := range held {
		if d.perTarget > 0 && n >= d.perTarget {
			d.more = true // a target at its bound may have more rows due
		}
	}
	d.handOutAll()
	return b.NextAt
}

// handOutAll hands out the waiting rows of every target that has room.
func (d *dispatcher) handOutAll() {
	d.jobsFull = false
	for target := range d.targets {
		d.handOut(target)
	}
}

// handOut gives the target's waiting rows to the workers while it has
// fewer than PerTarget in flight and the workers' queue has room, and
// forgets a target with no row left.
func (d *dispatcher) handOut(target string) {
	r := d.targets[target]
	for len(r.waiting) > 0 && (d.p.opt.PerTarget <= 0 || r.inFlight < d.p.opt.PerTarget) {
		select {
		case d.p.jobs <- r.waiting[0]:
			r.waiting[0] = nil
			r.waiting = r.waiting[1:]
			r.inFlight++
		default:
			d.jobsFull = true
			return
		}
	}
	if len(r.waiting) == 0 && r.inFlight == 0 {
		delete(d.targets, target)
	}
}
