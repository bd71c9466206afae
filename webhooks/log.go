package webhooks

import "contracts/signflow"

// write records attempt results in the delivery log, all that have
// arrived in one transaction, and tells the dispatcher how many rows it
// settled.
func (p *Pool) write() {
	for r := range p.results {
		batch := p.drain(r)
		p.save(batch)
		select {
		case p.done <- len(batch):
		case <-p.stop:
		}
	}
}

// drain collects the results waiting behind first, up to writeBatch.
func (p *Pool) drain(first result) []result {
	batch := []result{first}
	for len(batch) < writeBatch {
		select {
		case r, ok := <-p.results:
			if !ok {
				return batch
			}
			batch = append(batch, r)
		default:
			return batch
		}
	}
	return batch
}

// save appends each attempt to its row as stored now (a redelivery may
// have started a new round meanwhile) and settles the row's status; the
// write ends the pool's claim on the row. When the write fails the rows
// stay claimed until their lease ends, and are attempted again then.
func (p *Pool) save(batch []result) {
	var outcomes []string
	err := p.store.Update(func(tx signflow.Tx) error {
		outcomes = outcomes[:0]
		for _, r := range batch {
			d, err := rowState(tx, r.d.ID)
			if err != nil {
				return err
			}
			outcomes = append(outcomes, settle(d, r))
			if err := tx.PutDelivery(d); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		p.opt.Log.Error().Err(err).Int("attempts", len(batch)).Msg("webhooks: write the delivery log; the attempts will be made again when their claims end")
		return
	}
	for i, r := range batch {
		p.metrics.deliveries.WithLabelValues(r.d.Event, outcomes[i]).Inc()
		if outcomes[i] == outcomeFailed {
			p.opt.Log.Warn().Str("delivery", r.d.ID).Str("event", r.d.Event).Str("target", r.d.Target).Str("error", r.attempt.Error).
				Msg("webhooks: delivery FAILED after its last retry")
		}
	}
}

// stateReader is a store's transaction that reads a row without its body
// (bbolt's): a settle rewrites the row's state and never its body.
type stateReader interface {
	DeliveryState(id string) (*signflow.Delivery, error)
}

// rowState reads the row a settle rewrites, without its body where the
// store can.
func rowState(tx signflow.Tx, id string) (*signflow.Delivery, error) {
	if s, ok := tx.(stateReader); ok {
		return s.DeliveryState(id)
	}
	return tx.Delivery(id)
}
