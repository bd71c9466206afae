package signflow

import "time"

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
