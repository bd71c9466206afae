package signflow

// Cancel withdraws a CREATED contract on behalf of its creator.
func (s *Service) Cancel(a *Access, id string, actor Actor) (*Contract, error) {
	return s.change(a, id, actor, (*Contract).Cancel)
}

// Complete marks an ACTIVE contract fulfilled on behalf of its creator.
func (s *Service) Complete(a *Access, id string, actor Actor) (*Contract, error) {
	return s.change(a, id, actor, (*Contract).Complete)
}

type transition func(c *Contract, in string, now timeT) ([]string, error)

func (s *Service) change(a *Access, id string, actor Actor, apply transition) (*Contract, error) {
	if err := a.Require(ScopeContractsWrite); err != nil {
		return nil, err
	}
	var out *Contract
	err := s.store.Update(func(tx Tx) error {
		c, err := tx.Contract(id)
		if err != nil {
			return notFound(err, "Contract not found.")
		}
		if err := canReach(tx, a, c); err != nil {
			return err
		}
		events, err := apply(c, a.OwnerIN, s.opt.Now())
		if err != nil {
			return err
		}
		if err := tx.PutContract(c); err != nil {
			return err
		}
		actor.IN, out = a.OwnerIN, c
		return s.record(tx, c, events, actor, confirmationOf(a), "")
	})
	return out, err
}
