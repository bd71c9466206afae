package signflow

// Cancel withdraws a CREATED contract on behalf of its creator and
// returns it as it now reads.
func (s *Service) Cancel(a *Access, id string, actor Actor) (*ContractView, error) {
	return s.change(a, id, actor, (*Contract).Cancel)
}

// Complete marks an ACTIVE contract fulfilled on behalf of its creator and
// returns it as it now reads.
func (s *Service) Complete(a *Access, id string, actor Actor) (*ContractView, error) {
	return s.change(a, id, actor, (*Contract).Complete)
}

type transition func(c *Contract, in string, now timeT) ([]string, error)

// change applies a creator's transition. The change needs CONTRACTS_WRITE
// only: it checks itself that the caller reaches the contract, and answers
// the contract read in the same transaction, so the caller gets it
// without CONTRACTS_READ.
func (s *Service) change(a *Access, id string, actor Actor, apply transition) (*ContractView, error) {
	if err := a.Require(ScopeContractsWrite); err != nil {
		return nil, err
	}
	var out *ContractView
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
		if err := putChange(tx, c); err != nil {
			return err
		}
		actor.IN = a.OwnerIN
		if err := s.record(tx, c, events, actor, confirmationOf(a), ""); err != nil {
			return err
		}
		if out, err = viewOf(tx, c); err == nil {
			out = out.HeldBy(a.OwnerIN)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
