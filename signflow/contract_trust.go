package signflow

// createTrusting creates the contract on a Trusting store from what the
// store keeps (its template, the caller's credentials version, the
// tenant's claim on the other party), which the write confirms before it
// writes. It returns ErrUntrusted, having written nothing, when the store
// is not Trusting, when the write found what was kept changed, and on any
// refusal of the check before the write: the caller then creates the
// plain way, on fresh reads, which refuse (or accept) as the database
// says.
func (s *Service) createTrusting(a *Access, in *ContractInput, actor Actor) (*Contract, error) {
	ts, ok := s.store.(Trusting)
	if !ok {
		return nil, ErrUntrusted
	}
	credVer := int64(-1)
	if a.creds != nil {
		credVer = int64(a.creds.version)
	}
	var trust any
	c, err := s.prepareContract(a, in, func(fn func(Tx) error) (err error) {
		trust, err = ts.ViewTrusting(credVer, func(tx Tx) error {
			if err := fn(tx); err != nil {
				return err
			}
			// The tenant's claim on the other party, which the write reads
			// unless the number is an owner's (RecordParties): taken on
			// trust here, so that the write confirms it unread.
			other := in.BuyerIN
			if other == a.OwnerIN {
				other = in.SellerIN
			}
			if _, err := tx.Claim(a.OwnerIN, other); err != nil && ErrorCode(err) != ENOTFOUND {
				return err
			}
			return nil
		})
		return err
	})
	if err != nil {
		return nil, ErrUntrusted
	}
	return s.writeContract(a, in, c, actor, func(fn func(Tx) error) error { return ts.UpdateTrusted(trust, fn) })
}
