package signflow

import (
	"slices"
	"time"
)

// TimeSource returns the current time; tests inject their own clock.
type TimeSource func() time.Time

// Interfaces a caller arrives through.
const (
	Embedded     = "embedded"
	KeyInterface = "key"
)

// Access is the authenticated caller: an app token or an API key.
type Access struct {
	Interface    string
	OwnerIN      string
	Scopes       []string
	AllTemplates bool
	TemplateIDs  []string
	AppID        string
	KeyID        string
	// Phone is, for a party in the cabinet, the phone its login code went
	// to: it reaches only the contracts whose creator's tenant holds that
	// phone for it (cabinetReaches).
	Phone string
	// creds, when set, is the check of credentials taken from the app
	// cache that the read must make in its transaction (auth_read.go).
	creds *credsCheck
}

// Require returns EFORBIDDEN unless the caller holds the scope.
func (a *Access) Require(scope string) error {
	if !slices.Contains(a.Scopes, scope) {
		return Errorf(EFORBIDDEN, "The credential lacks the %s scope.", scope)
	}
	return nil
}

// TemplateAllowed reports whether the caller may use the template.
func (a *Access) TemplateAllowed(id string) bool {
	return a.AllTemplates || slices.Contains(a.TemplateIDs, id)
}

// CanRead returns nil when the caller may read the contract: the owner
// takes part in it (in the cabinet, as a witness too) and its template is
// allowed. Apps and keys of an owner named as a witness get no reach.
func (a *Access) CanRead(c *Contract) error {
	if !c.HasParty(a.OwnerIN) && (a.Interface != CabinetInterface || c.Witness(a.OwnerIN) == nil) {
		return Errorf(EFORBIDDEN, "The contract does not belong to the owner.")
	}
	if !a.TemplateAllowed(c.TemplateID) {
		return Errorf(EFORBIDDEN, "The contract's template is not allowed for this credential.")
	}
	return nil
}

// canReach returns nil when the caller may act on the contract: CanRead,
// and for a party in the cabinet, the phone it logged in with is the one
// the contract's creator's tenant holds for it. Every operation on one
// contract checks it inside its own transaction.
func canReach(tx Tx, a *Access, c *Contract) error {
	if err := a.CanRead(c); err != nil {
		return err
	}
	if a.Interface != CabinetInterface {
		return nil
	}
	ok, err := cabinetReaches(tx, a, c)
	if err != nil {
		return err
	}
	if !ok {
		return Errorf(EFORBIDDEN, "The contract does not belong to the owner.")
	}
	return nil
}

// Actor is who causes a change, for the audit trail.
type Actor struct {
	IN        string
	IP        string
	UserAgent string
}
