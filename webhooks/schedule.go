package webhooks

import (
	"cmp"
	"container/heap"
	"slices"
	"time"

	"contracts/signflow"
)

// schedule is the dispatcher's view of the PENDING outbox rows it has
// loaded. Rows are grouped in lanes, one per target and contract; a lane
// sends one row at a time, lowest outbox sequence first, so one target sees
// one contract's events in order. Idle lanes wait in a heap by the NextAt
// of their first row. Only the dispatcher goroutine touches it.
type schedule struct {
	lanes  map[string]*lane
	byID   map[string]*lane
	ready  laneHeap
	cursor uint64 // highest outbox sequence loaded
	loaded int
}

type lane struct {
	key      string
	rows     []*signflow.Delivery // by Seq
	inFlight *signflow.Delivery   // the row with a worker, if any
	index    int                  // in the ready heap; -1 when not there
}

func newSchedule() *schedule {
	return &schedule{lanes: map[string]*lane{}, byID: map[string]*lane{}}
}

func laneKey(d *signflow.Delivery) string { return d.Target + "\x00" + d.ContractID }

// add takes a loaded row unless it is already held.
func (s *schedule) add(d *signflow.Delivery) {
	s.cursor = max(s.cursor, d.Seq)
	if s.byID[d.ID] != nil {
		return
	}
	l := s.lanes[laneKey(d)]
	if l == nil {
		l = &lane{key: laneKey(d), index: -1}
		s.lanes[l.key] = l
	}
	i, _ := slices.BinarySearchFunc(l.rows, d.Seq, func(r *signflow.Delivery, seq uint64) int { return cmp.Compare(r.Seq, seq) })
	l.rows = slices.Insert(l.rows, i, d)
	s.byID[d.ID] = l
	s.loaded++
	s.queue(l)
}

// next hands out the first row of the lane that is due soonest, when due.
func (s *schedule) next(now time.Time) *signflow.Delivery {
	if len(s.ready) == 0 || s.ready[0].rows[0].NextAt.After(now) {
		return nil
	}
	l := heap.Pop(&s.ready).(*lane)
	l.inFlight = l.rows[0]
	return l.inFlight
}

// nextAt is when the soonest idle row is due.
func (s *schedule) nextAt() (time.Time, bool) {
	if len(s.ready) == 0 {
		return time.Time{}, false
	}
	return s.ready[0].rows[0].NextAt, true
}

// finish takes back a row from a worker as it now stands: still PENDING
// (with its next time) or done, which frees the lane's next row.
func (s *schedule) finish(d *signflow.Delivery) {
	l := s.byID[d.ID]
	l.inFlight = nil
	i := slices.IndexFunc(l.rows, func(r *signflow.Delivery) bool { return r.ID == d.ID })
	if d.Status == signflow.DeliveryPending {
		l.rows[i] = d
	} else {
		l.rows = slices.Delete(l.rows, i, i+1)
		delete(s.byID, d.ID)
		s.loaded--
	}
	if len(l.rows) == 0 {
		delete(s.lanes, l.key)
		return
	}
	s.queue(l)
}

// reset forgets every row that no worker holds, to load the outbox again
// from its start (a redelivery puts an old row back in the queue).
func (s *schedule) reset() {
	old := s.lanes
	*s = *newSchedule()
	for _, l := range old {
		if d := l.inFlight; d != nil {
			nl := &lane{key: l.key, rows: []*signflow.Delivery{d}, inFlight: d, index: -1}
			s.lanes[l.key], s.byID[d.ID] = nl, nl
			s.loaded++
		}
	}
}

// queue puts an idle lane in the ready heap, or fixes its place there.
func (s *schedule) queue(l *lane) {
	switch {
	case l.inFlight != nil:
	case l.index >= 0:
		heap.Fix(&s.ready, l.index)
	default:
		heap.Push(&s.ready, l)
	}
}

// laneHeap orders idle lanes by their first row's NextAt, then outbox order.
type laneHeap []*lane

func (h laneHeap) Len() int { return len(h) }
func (h laneHeap) Less(i, j int) bool {
	a, b := h[i].rows[0], h[j].rows[0]
	if !a.NextAt.Equal(b.NextAt) {
		return a.NextAt.Before(b.NextAt)
	}
	return a.Seq < b.Seq
}
func (h laneHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i]; h[i].index = i; h[j].index = j }
func (h *laneHeap) Push(x any)   { l := x.(*lane); l.index = len(*h); *h = append(*h, l) }
func (h *laneHeap) Pop() any {
	old := *h
	l := old[len(old)-1]
	*h, l.index = old[:len(old)-1], -1
	return l
}
