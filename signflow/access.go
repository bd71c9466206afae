package signflow

import (
	"slices"
	"time"
)

// TimeSource returns the current time; tests inject their own clock.
type TimeSource func() time.Time

// App is an integrator of the embedded interface.
type App struct {
	ID               string     `json:"id"`
	Name             string     `json:"name"`
	OwnerIN          string     `json:"ownerIn"`
	SecretHash       []byte     `json:"secretHash"`
	SecretGen        int64      `json:"secretGen"`
	Scopes           []string   `json:"scopes"`
	AllTemplates     bool       `json:"allTemplates"`
	TemplateIDs      []string   `json:"templateIds"`
	WebhookURL       string     `json:"webhookUrl,omitempty"`
	WebhookEvents    []string   `json:"webhookEvents,omitempty"`
	WebhookSecretEnc []byte     `json:"webhookSecretEnc,omitempty"`
	ExpiresAt        *time.Time `json:"expiresAt,omitempty"`
	Cancelled        bool       `json:"cancelled"`
	CreatedAt        time.Time  `json:"createdAt"`
}

// Usable returns EFORBIDDEN when the app is cancelled or expired.
func (a *App) Usable(now time.Time) error {
	if a.Cancelled {
		return Errorf(EFORBIDDEN, "The app is cancelled.")
	}
	if a.ExpiresAt != nil && !now.Before(*a.ExpiresAt) {
		return Errorf(EFORBIDDEN, "The app has expired.")
	}
	return nil
}

// Access returns what a token of this app may do.
func (a *App) Access() *Access {
	return &Access{Interface: Embedded, OwnerIN: a.OwnerIN, Scopes: a.Scopes, AllTemplates: a.AllTemplates, TemplateIDs: a.TemplateIDs, AppID: a.ID}
}

// APIKey is a credential of the key interface.
type APIKey struct {
	ID               string     `json:"id"`
	Name             string     `json:"name"`
	OwnerIN          string     `json:"ownerIn"`
	Hash             []byte     `json:"hash"`
	Scopes           []string   `json:"scopes"`
	AllTemplates     bool       `json:"allTemplates"`
	TemplateIDs      []string   `json:"templateIds"`
	WebhookURL       string     `json:"webhookUrl,omitempty"`
	WebhookSecretEnc []byte     `json:"webhookSecretEnc,omitempty"`
	ExpiresAt        *time.Time `json:"expiresAt,omitempty"`
	Revoked          bool       `json:"revoked"`
	CreatedAt        time.Time  `json:"createdAt"`
}

// Access returns what this key may do.
func (k *APIKey) Access() *Access {
	return &Access{Interface: KeyInterface, OwnerIN: k.OwnerIN, Scopes: k.Scopes, AllTemplates: k.AllTemplates, TemplateIDs: k.TemplateIDs, KeyID: k.ID}
}

// CanSee reports whether the key reads a contract: its owner takes part and
// the template is within the key's templates.
func (k *APIKey) CanSee(c *Contract) bool {
	return c.HasParty(k.OwnerIN) && (k.AllTemplates || slices.Contains(k.TemplateIDs, c.TemplateID))
}

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
