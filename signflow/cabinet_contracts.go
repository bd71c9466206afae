package signflow

import "slices"

// A party in the cabinet works on its contracts through the operations of
// the other interfaces, with an Access that stands for the party itself
// and the phone it logged in with: the state machine, audit events and
// webhooks are theirs, and canReach keeps it to the contracts whose
// creator's tenant holds that phone for it.

// ConfirmCabinet is the confirmation the audit trail names for what a
// party does in the cabinet outside a signing session (reject, cancel):
// the cabinet login, proven with an SMS code to the party's phone.
const ConfirmCabinet = "CABINET_LOGIN"

// confirmationOf is the confirmation method of an act by the caller
// itself: the cabinet login, or none for an app or key.
func confirmationOf(a *Access) string {
	if a.Interface == CabinetInterface {
		return ConfirmCabinet
	}
	return ""
}

// Sizes of the cabinet's contract list.
const (
	CabinetOpenLimit = 100 // CREATED contracts shown at most
	CabinetPageSize  = 20  // other contracts per page
)

// closedStatuses are the statuses of contracts that wait for nobody.
var closedStatuses = slices.DeleteFunc(slices.Clone(ContractStatuses), func(s string) bool { return s == StatusCreated })

// Access is what the logged-in party may do: read and sign the contracts
// it is a party to, of every template, and cancel those it created
// (Cancel asks for CONTRACTS_WRITE). Nothing else of the cabinet's reaches
// an operation that CONTRACTS_WRITE would also allow.
func (s *CabinetSession) Access() *Access {
	return &Access{Interface: CabinetInterface, OwnerIN: s.IN, AllTemplates: true, Phone: s.Phone,
		Scopes: []string{ScopeContractsRead, ScopeContractsSign, ScopeContractsWrite}}
}

// cabinetReaches reports whether the party in the cabinet reaches the
// contract: phoneReach says so of the contract's creator's tenant.
func cabinetReaches(tx Tx, a *Access, c *Contract) (bool, error) {
	tenants, all, err := phoneReach(tx, a.OwnerIN, a.Phone)
	return all || slices.Contains(tenants, c.CreatorIN), err
}

// phoneReach is the cabinet's reach: a party logged in with phone reaches
// the contracts whose creator's tenant holds that phone for it. In the
// terms of a contract query: all of them (an owner whose admin's record
// holds the phone), or those created by the tenants listed. A contract's
// creator is one of its parties and always an owner, so for a number that
// is no owner's the creator is the other party: the list is of
// counterparties.
func phoneReach(tx Tx, in, phone string) (tenants []string, all bool, err error) {
	owner, claims, err := holders(tx, in)
	if err != nil || owner != nil {
		return nil, holdsPhone(owner, phone), err
	}
	tenants = []string{}
	for _, cl := range claims {
		if holdsPhone(cl.Client, phone) {
			tenants = append(tenants, cl.Tenant)
		}
	}
	return tenants, false, nil
}

// holdsPhone reports whether rec holds the phone a party logged in with.
func holdsPhone(rec *Client, phone string) bool {
	return rec != nil && rec.Phone != "" && rec.Phone == phone
}

// Party returns the logged-in party as the cabinet names it: the owner's
// record, or the first claim (in tenant order) that holds the phone the
// party logged in with; nil when there is none.
func (c *Cabinet) Party(s *CabinetSession) (*Client, error) {
	var out *Client
	err := c.svc.store.View(func(tx Tx) error {
		owner, claims, err := holders(tx, s.IN)
		if out = owner; err != nil || owner != nil {
			return err
		}
		for _, cl := range claims {
			if holdsPhone(cl.Client, s.Phone) {
				out = cl.Client
				return nil
			}
		}
		return nil
	})
	return out, err
}

// CabinetList is what the cabinet lists of a party's contracts.
type CabinetList struct {
	// Open holds the CREATED contracts, up to CabinetOpenLimit of OpenTotal:
	// first those awaiting this party's signature, then those awaiting the
	// other party, newest first within each.
	Open      []*ContractView
	OpenTotal int
	// Closed is one page of the other contracts, newest first, of ClosedTotal.
	Closed      []*ContractView
	ClosedTotal int
	// Witnessed are the contracts that name the party as a witness, newest
	// first, up to CabinetOpenLimit.
	Witnessed []*ContractView
}

// Contracts lists the party's contracts, page numbering the closed ones.
func (c *Cabinet) Contracts(s *CabinetSession, page int) (*CabinetList, error) {
	a, out := s.Access(), &CabinetList{}
	var err error
	out.Open, out.OpenTotal, err = c.svc.ListContracts(a, ContractQuery{Statuses: []string{StatusCreated}, Size: CabinetOpenLimit})
	if err != nil {
		return nil, err
	}
	awaiting := func(v *ContractView) int {
		if v.PartyStatus(s.IN) == PartyPending {
			return 0
		}
		return 1
	}
	slices.SortStableFunc(out.Open, func(x, y *ContractView) int { return awaiting(x) - awaiting(y) })
	out.Closed, out.ClosedTotal, err = c.svc.ListContracts(a, ContractQuery{Statuses: closedStatuses, Page: page, Size: CabinetPageSize})
	if err != nil {
		return nil, err
	}
	err = c.svc.store.View(func(tx Tx) (err error) { out.Witnessed, err = witnessed(tx, a); return err })
	return out, err
}

// witnessed lists the contracts that name the party of a as a witness and
// that its phone reaches (canReach), newest first.
func witnessed(tx Tx, a *Access) ([]*ContractView, error) {
	ids, err := tx.WitnessContracts(a.OwnerIN, CabinetOpenLimit)
	if err != nil {
		return nil, err
	}
	var out []*ContractView
	for _, id := range ids {
		c, err := tx.Contract(id)
		if err != nil {
			return nil, err
		}
		if canReach(tx, a, c) != nil {
			continue
		}
		v, err := viewOf(tx, c)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// Contract returns a contract of the party.
func (c *Cabinet) Contract(s *CabinetSession, id string) (*ContractView, error) {
	return c.svc.Contract(s.Access(), id)
}

// OpenSigning opens a signing session of the contract for the party, as
// an app would for its customer; the token then goes to SendCode,
// ConfirmCode, RejectSession, StartIdentity or SignWithEIMZO.
func (c *Cabinet) OpenSigning(s *CabinetSession, contractID, lang string, actor Actor) (*SignSession, string, error) {
	return c.svc.OpenSession(s.Access(), contractID, SessionRequest{SignerIN: s.IN, Lang: lang}, actor)
}

// CheckSigning returns ErrSessionNotFound unless the signing token is of
// a session the party opened in the cabinet, of a contract it reaches, so
// that the cabinet acts only on its own party's signatures.
func (c *Cabinet) CheckSigning(s *CabinetSession, token string) error {
	if token == "" || len(token) > 256 {
		return ErrSessionNotFound
	}
	return c.svc.store.View(func(tx Tx) error {
		sess, err := tx.SessionByToken(HashSecret(token))
		if ErrorCode(err) == ENOTFOUND {
			return ErrSessionNotFound
		} else if err != nil {
			return err
		}
		ct, err := tx.Contract(sess.ContractID)
		if err != nil {
			return err
		}
		return c.ownSigning(tx, s, sess, ct)
	})
}

// ownSigning returns ErrSessionNotFound unless sess was opened in the
// cabinet for the party of s, on a contract s reaches.
func (c *Cabinet) ownSigning(tx Tx, s *CabinetSession, sess *SignSession, ct *Contract) error {
	if sess.SignerIN != s.IN || sess.AppID != "" || canReach(tx, s.Access(), ct) != nil {
		return ErrSessionNotFound
	}
	return nil
}

// Reject refuses the contract through a signing session the party opened
// in the cabinet (RejectSession); the audit trail names the cabinet login
// as its confirmation.
func (c *Cabinet) Reject(s *CabinetSession, token string, actor Actor) (*SessionResult, error) {
	return c.svc.rejectSession(token, actor, func(tx Tx, sess *SignSession, ct *Contract) error {
		return c.ownSigning(tx, s, sess, ct)
	}, ConfirmCabinet)
}

// Cancel withdraws a CREATED contract that the party created.
func (c *Cabinet) Cancel(s *CabinetSession, contractID string, actor Actor) (*ContractView, error) {
	return c.svc.Cancel(s.Access(), contractID, actor)
}
