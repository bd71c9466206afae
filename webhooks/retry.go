package webhooks

import (
	"time"

	"contracts/signflow"
)

// retryDelays are the waits after the first, second and third failed
// attempt of a round; the fourth failure makes the delivery FAILED.
var retryDelays = [...]time.Duration{2 * time.Second, 4 * time.Second, 8 * time.Second}

// Outcomes of an attempt, as counted in the metrics.
const (
	outcomeDelivered = "delivered"
	outcomeRetry     = "retry"
	outcomeFailed    = "failed"
)

// settle applies the retry schedule: any 2xx delivers; a failure is tried
// again after 2, 4 and 8 seconds, and the fourth failure of a round is
// final.
func settle(d *signflow.Delivery, r result) string {
	d.Attempts = append(d.Attempts, r.attempt)
	n := max(len(d.Attempts)-d.RoundStart, 1) // attempts in this round
	switch {
	case r.ok:
		d.Status = signflow.DeliveryDelivered
		return outcomeDelivered
	case n > len(retryDelays):
		d.Status = signflow.DeliveryFailed
		return outcomeFailed
	default:
		d.NextAt = r.finished.Add(retryDelays[n-1])
		return outcomeRetry
	}
}
