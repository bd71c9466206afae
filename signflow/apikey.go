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

// CanSee reports whether the key reads a contract: its owner takes part and
// the template is within the key's templates.
func (k *APIKey) CanSee(c *Contract) bool {
	return c.HasParty(k.OwnerIN) && (k.AllTemplates || contains(k.TemplateIDs, c.TemplateID))
}
