package signflow

import "slices"

// A party in the cabinet works on its contracts through the operations of
// the other interfaces, with an Access that stands for the party itself:
// the state machine, audit events and webhooks are theirs.

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
	return &Access{Interface: CabinetInterface, OwnerIN: s.IN, AllTemplates: true,
		Scopes: []string{ScopeContractsRead, ScopeContractsSign, ScopeContractsWrite}}
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
// a session the party opened in the cabinet, so that the cabinet acts
// only on its own party's signatures.
func (c *Cabinet) CheckSigning(s *CabinetSession, token string) error {
	if token == "" || len(token) > 256 {
		return ErrSessionNotFound
	}
	var sess *SignSession
	err := c.svc.store.View(func(tx Tx) (err error) { sess, err = tx.SessionByToken(HashSecret(token)); return err })
	if ErrorCode(err) == ENOTFOUND || err == nil && (sess.SignerIN != s.IN || sess.AppID != "") {
		return ErrSessionNotFound
	}
	return err
}

// SignerMethod is the confirmation method the template asks of a signer,
// by the kind of party the number belongs to. OpenSession uses it too, so
// pages that explain the method before a session is opened show its choice.
func SignerMethod(t *Template, signerIN string) string { return t.MethodFor(ClientTypeOf(signerIN)) }

// Cancel withdraws a CREATED contract that the party created.
func (c *Cabinet) Cancel(s *CabinetSession, contractID string, actor Actor) (*Contract, error) {
	return c.svc.Cancel(s.Access(), contractID, actor)
}
