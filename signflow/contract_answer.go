package signflow

// Memos is implemented by the read-only transactions of a store that can
// keep a value derived from a contract and from the records its view shows
// (template, owners, claims) beside the contract, for later readers, as
// long as none of them changed.
type Memos interface {
	// Memo returns the value kept under name for the contract id, or nil.
	Memo(id, name string) any
	// KeepMemo keeps v, of about size bytes, derived in this transaction.
	KeepMemo(id, name string, v any, size int)
}

// FreshMemos is implemented by a store that keeps memos (Memos) and can
// tell, without a transaction, that one still holds: nothing at all was
// written since a snapshot it held in.
type FreshMemos interface {
	// FreshMemo returns the memo name of the contract id if it is sure to
	// hold now, or nil.
	FreshMemo(id, name string) any
}

// encodedContract is a contract's view as encode wrote it, with what the
// access checks read of the contract it was made from (reachOf).
type encodedContract struct {
	c   *Contract
	out []byte
}

// reachOf is a copy of the fields of c that CanRead and canReach read:
// a memo keeps it instead of the whole decoded contract, which would
// weigh more than the answer. contract_answer_test.go holds the two to
// the same verdicts.
func reachOf(c *Contract) *Contract {
	r := &Contract{BuyerIN: c.BuyerIN, SellerIN: c.SellerIN, CreatorIN: c.CreatorIN, TemplateID: c.TemplateID}
	if len(c.Witnesses) > 0 {
		r.Witnesses = make([]Witness, len(c.Witnesses))
		for i, w := range c.Witnesses {
			r.Witnesses[i].IN = w.IN
		}
	}
	return r
}

// memoOverhead is about what a kept answer weighs beside its bytes.
const memoOverhead = 512

// ContractAnswer returns what encode writes of the view of a contract the
// caller may read (Contract). On a store that keeps memos, the answer is
// kept and given to the next readers under name while the contract and
// the records it shows are unchanged, so that the view is neither read
// nor encoded again: encode must depend on the view alone, and the answer
// returned must not be modified.
func (s *Service) ContractAnswer(a *Access, id, name string, encode func(*ContractView) []byte) ([]byte, error) {
	if a.creds == nil {
		return s.contractAnswer(a, id, name, encode)
	}
	return s.confirmed(a, func(a *Access) ([]byte, error) { return s.contractAnswer(a, id, name, encode) })
}

func (s *Service) contractAnswer(a *Access, id, name string, encode func(*ContractView) []byte) ([]byte, error) {
	if err := mayRead(a, id); err != nil {
		return nil, err
	}
	// The answer shows phones as the caller's tenant holds them (HeldBy):
	// each tenant's readers share their own memo.
	name += "\x00" + a.OwnerIN
	// Outside the cabinet the access check needs no records beyond the
	// contract, so a memo known to hold needs no transaction.
	if fresh, ok := s.store.(FreshMemos); ok && a.Interface != CabinetInterface && a.creds == nil {
		if e, ok := fresh.FreshMemo(id, name).(*encodedContract); ok {
			if err := a.CanRead(e.c); err != nil {
				return nil, err
			}
			return e.out, nil
		}
	}
	var out []byte
	err := s.store.View(func(tx Tx) error {
		memos, _ := tx.(Memos)
		if memos != nil {
			if e, ok := memos.Memo(id, name).(*encodedContract); ok {
				out = e.out
				if err := canReach(tx, a, e.c); err != nil {
					return err
				}
				return confirmCreds(tx, a)
			}
		}
		c, err := reachable(tx, a, id)
		if err != nil {
			return err
		}
		v, err := viewOf(tx, c)
		if err != nil {
			return err
		}
		out = encode(v.HeldBy(a.OwnerIN))
		if memos != nil {
			memos.KeepMemo(id, name, &encodedContract{c: reachOf(c), out: out}, len(out)+memoOverhead)
		}
		return confirmCreds(tx, a)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
