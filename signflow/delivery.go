package signflow

// Deliveries lists the webhook delivery log.
func (s *Service) Deliveries(f DeliveryFilter) ([]*Delivery, error) {
	var out []*Delivery
	err := s.store.View(func(tx Tx) (err error) { out, err = tx.Deliveries(f); return err })
	return out, err
}

// Redeliver queues a delivery again under the same delivery id.
func (s *Service) Redeliver(id string) error {
	return s.store.Update(func(tx Tx) error {
		d, err := tx.Delivery(id)
		if err != nil {
			return notFound(err, "Delivery not found.")
		}
		d.Status, d.NextAt, d.RoundStart = DeliveryPending, UTC(s.opt.Now()), len(d.Attempts)
		return tx.PutDelivery(d)
	})
}
