package signflow

import "time"

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

// Usable returns EFORBIDDEN when the key is revoked or expired.
func (k *APIKey) Usable(now time.Time) error {
	if k.Revoked {
		return Errorf(EFORBIDDEN, "The API key is revoked.")
	}
	if k.ExpiresAt != nil && !now.Before(*k.ExpiresAt) {
		return Errorf(EFORBIDDEN, "The API key has expired.")
	}
	return nil
}

// CanSee reports whether the key reads a contract, as its Access rules it.
func (k *APIKey) CanSee(c *Contract) bool { return k.Access().CanRead(c) == nil }
