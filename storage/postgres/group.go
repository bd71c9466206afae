package postgres

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"

	"contracts/signflow"
)

// Writers share transactions when many write at once, as bbolt's Batch
// has them do: Update runs fn in a transaction of its own while fewer
// than the store's runners are in flight; past that, fn waits, and the
// next transaction to finish hands its place to every fn then waiting,
// run one after another in one transaction. The BEGIN, the COMMIT and the
// counts' upserts (added up) are then paid once for all of them.
//
// Each fn keeps its own outcome: a group whose fn fails (or panics), or
// whose commit fails, commits nothing, and each of its fns runs again
// alone, in its caller's goroutine (Update allows fn to run more than
// once), so an error or a panic reaches only the caller whose fn caused
// it. Every fn in a group waited for it to start, so what the group reads
// is read after each caller asked.
type group struct {
	mu      sync.Mutex
	running int // transactions in flight, alone or grouped
	waiting []*groupCall
	// shards are the count shards free for the next transaction in
	// flight: each one in flight adds to counts of a shard of its own, so
	// that the transactions of a process never wait for each other's
	// count rows. They start at a random shard, so that two processes
	// seldom share theirs.
	shards []int16
}

// takeShard takes a free count shard; g.mu is held.
func (g *group) takeShard() int16 {
	if g.shards == nil {
		g.shards = make([]int16, 0, countShards)
		first := rand.IntN(countShards)
		for i := range countShards {
			g.shards = append(g.shards, int16((first+i)%countShards))
		}
	}
	if len(g.shards) == 0 {
		return noShard
	}
	n := g.shards[0]
	g.shards = g.shards[1:]
	return n
}

// giveShard gives a shard back; g.mu is held.
func (g *group) giveShard(n int16) {
	if n != noShard {
		g.shards = append(g.shards, n)
	}
}

type groupCall struct {
	fn    func(signflow.Tx) error
	trust *trust // what fn's create took on trust, confirmed before fn runs
	done  chan error
}

// alone is c's fn as run in a transaction of its own: after the
// confirmation of its trust.
func (c *groupCall) alone() func(signflow.Tx) error {
	if c.trust == nil {
		return c.fn
	}
	return func(st signflow.Tx) error {
		t := st.(*tx)
		ok, err := t.confirm([]*trust{c.trust})
		if err != nil {
			return err
		}
		if !ok[0] {
			return signflow.ErrUntrusted
		}
		return c.fn(st)
	}
}

// groupRunners bounds the write transactions of a process in flight
// before writers share them; groupMax, the fns of one transaction, and so
// how long one waits for the others. On two cores shared with the
// database (pgwrite, wrk -c50, one loaded run each), 4 and 16 carried
// about 1.6 times the creates of 20 and 64, with a lower p99; and 2
// carried about a sixth more than 4 (larger groups: fewer commits and
// statements a create), whether groupMax was 16 or 32.
const (
	groupRunners = 2
	groupMax     = 16
)

// Update runs fn in a write transaction, alone or with other writers' fns
// (group), again when a record fn read was changed by another transaction
// before this one could commit.
func (s *Store) Update(fn func(signflow.Tx) error) error { return s.update1(fn, nil) }

// update1 is Update of fn, whose create took tr on trust (nil: nothing).
func (s *Store) update1(fn func(signflow.Tx) error, tr *trust) error {
	c := &groupCall{fn: fn, trust: tr}
	g := &s.group
	g.mu.Lock()
	if g.running < s.runners {
		g.running++
		shard := g.takeShard()
		g.mu.Unlock()
		defer s.handOn(shard)
		return s.updateAlone(c.alone(), shard)
	}
	c.done = make(chan error, 1)
	g.waiting = append(g.waiting, c)
	g.mu.Unlock()
	if err := <-c.done; err != errAlone {
		return err
	}
	// In the caller's goroutine, where a panic of fn is the caller's.
	return s.updateAlone(c.alone(), noShard)
}

// errAlone tells a waiting writer that its group failed and that its fn
// is to run alone.
var errAlone = errors.New("postgres: run alone")

// handOn gives a finished transaction's place, and its count shard, to
// the fns waiting, or gives them up.
func (s *Store) handOn(shard int16) {
	g := &s.group
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.waiting) == 0 {
		g.running--
		g.giveShard(shard)
		return
	}
	n := min(len(g.waiting), groupMax)
	calls := append([]*groupCall(nil), g.waiting[:n]...)
	g.waiting = append(g.waiting[:0], g.waiting[n:]...)
	go s.runGroup(calls, shard)
}

// runGroup runs the calls in one transaction; when that fails, each call
// runs alone.
func (s *Store) runGroup(calls []*groupCall, shard int16) {
	defer s.handOn(shard)
	if len(calls) == 1 {
		err := s.updateAlone(func(tx signflow.Tx) error { return calmly(calls[0].alone(), tx) }, shard)
		if errors.As(err, new(panicked)) {
			err = errAlone
		}
		calls[0].done <- err
		return
	}
	outcome := errAlone
	var trusted []bool
	if s.update(shard, func(st signflow.Tx) error {
		t := st.(*tx)
		// One number per writer, taken at once (nextSeq).
		t.seqsAhead, t.shared = len(calls), true
		trusted = nil
		if trusts := groupTrusts(calls); trusts != nil {
			// Each create's trust, with the numbers, in the first round trip.
			ok, err := t.confirm(trusts)
			if err != nil {
				return err
			}
			trusted = ok
		}
		for i, c := range calls {
			if trusted != nil && !trusted[i] {
				continue
			}
			if err := calmly(c.fn, st); err != nil {
				return err
			}
		}
		return nil
	}) == nil {
		outcome = nil
	}
	for i, c := range calls {
		if trusted != nil && !trusted[i] {
			// Read after the caller asked, whatever became of the group.
			c.done <- signflow.ErrUntrusted
			continue
		}
		c.done <- outcome
	}
}

// panicked is a panic of a fn run for another goroutine.
type panicked struct{ v any }

func (p panicked) Error() string {
	return fmt.Sprintf("postgres: panic in a shared transaction: %v", p.v)
}

// calmly runs fn, a panic of which is an error: fn runs again in its
// caller's goroutine, and panics there.
func calmly(fn func(signflow.Tx) error, tx signflow.Tx) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = panicked{r}
		}
	}()
	return fn(tx)
}

// groupTrusts is the trust of each call, or nil when none took any.
func groupTrusts(calls []*groupCall) []*trust {
	for _, c := range calls {
		if c.trust != nil {
			out := make([]*trust, len(calls))
			for i, c := range calls {
				out[i] = c.trust
			}
			return out
		}
	}
	return nil
}
