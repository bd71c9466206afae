package signflow

import "time"

// Outbox hands the PENDING webhook deliveries to the processes that send
// them. A claimed row is given to no other claimer until its lease ends or
// a write of the row (PutDelivery) settles it. Of one target's rows about
// one contract, only the earliest PENDING one is ever given out, so that
// the target hears of a contract's events in order.
type Outbox interface {
	ClaimDeliveries(c DeliveryClaim) (*DeliveryBatch, error)
	// ReleaseDeliveries gives back, unsent, every row the claimer holds.
	ReleaseDeliveries(claimer string) error
}

// DeliveryClaim asks for up to Limit rows due at Now.
type DeliveryClaim struct {
	Claimer string // one per sending process
	Now     time.Time
	// Lease is how long the rows stay with the claimer unless a write
	// settles them first; then they are given out again.
	Lease time.Duration
	Limit int
	// PerTarget, when above 0, bounds the rows of one target the claimer
	// holds: Held counts those it holds already, by target, and a claim
	// gives out at most PerTarget less that many more of the target.
	PerTarget int
	Held      map[string]int
}

// TargetRoom is how many more rows of target the claim may give out, or
// -1 when there is no bound.
func (c *DeliveryClaim) TargetRoom(target string) int {
	if c.PerTarget <= 0 {
		return -1
	}
	return max(c.PerTarget-c.Held[target], 0)
}

// DeliveryBatch is what a claim gives out.
type DeliveryBatch struct {
	Rows []*Delivery
	// NextAt is when the soonest row not given out falls due: a retry or
	// the end of a lease. Zero when nothing waits.
	NextAt time.Time
	// Pending counts the PENDING rows of the outbox, at most PendingCap.
	Pending int
}

// PendingCap bounds the count of PENDING rows a claim reports.
const PendingCap = 4096
