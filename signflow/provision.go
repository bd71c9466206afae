package signflow

import (
	"crypto/subtle"
	"slices"
	"time"
)

// CreateTemplate validates a definition and stores it as a new template.
func (s *Service) CreateTemplate(def *TemplateDefinition) (*Template, error) {
	if err := def.Validate(); err != nil {
		return nil, err
	}
	t := def.Template(NewID(), s.opt.Now)
	return t, s.store.Update(func(tx Tx) error { return tx.PutTemplate(t) })
}

// CredentialInput is what an administrator gives for a new app or key.
type CredentialInput struct {
	Name          string     `json:"name"`
	OwnerIN       string     `json:"ownerIn"`
	Scopes        []string   `json:"scopes"`
	AllTemplates  bool       `json:"allTemplates"`
	TemplateIDs   []string   `json:"templateIds"`
	WebhookURL    string     `json:"webhookUrl"`
	WebhookEvents []string   `json:"webhookEvents"`
	ExpiresAt     *time.Time `json:"expiresAt"`
}

func (in *CredentialInput) validate(tx Tx, allowed []string) error {
	if in.Name == "" || len(in.Name) > 200 {
		return Errorf(EINVALID, "name: required, at most 200 characters").Keyed(KeyName)
	}
	if _, err := tx.Owner(in.OwnerIN); err != nil {
		if ErrorCode(err) == ENOTFOUND {
			return Errorf(EINVALID, "ownerIn: no owner with this number; create it with POST /admin/v1/owners").Keyed(KeyNoOwner)
		}
		return err
	}
	if len(in.Scopes) == 0 {
		return Errorf(EINVALID, "scopes: at least one is required").Keyed(KeyNoScopes)
	}
	for _, sc := range in.Scopes {
		if !slices.Contains(allowed, sc) {
			return Errorf(EINVALID, "scopes: unknown scope %q", sc)
		}
	}
	if !in.AllTemplates && len(in.TemplateIDs) == 0 {
		return Errorf(EINVALID, "templateIds: required unless allTemplates is true").Keyed(KeyNoTemplates)
	}
	for _, id := range in.TemplateIDs {
		if _, err := tx.Template(id); err != nil {
			return Errorf(EINVALID, "templateIds: no template %q", id)
		}
	}
	if in.WebhookURL != "" {
		if err := checkWebhookURL(in.WebhookURL); err != nil {
			return err
		}
	}
	for _, ev := range in.WebhookEvents {
		if !slices.Contains(WebhookEvents, ev) {
			return Errorf(EINVALID, "webhookEvents: unknown event %q", ev)
		}
	}
	return nil
}

// NewCredential is what is shown once when an app or key is created.
type NewCredential struct {
	ID            string
	Secret        string
	WebhookSecret string
}

// CreateApp issues an app with its secret and webhook secret.
func (s *Service) CreateApp(in *CredentialInput) (*NewCredential, error) {
	out := &NewCredential{ID: NewID(), Secret: RandomToken(32)}
	app := &App{ID: out.ID, Name: in.Name, OwnerIN: in.OwnerIN, SecretHash: HashSecret(out.Secret), SecretGen: 1,
		Scopes: in.Scopes, AllTemplates: in.AllTemplates, TemplateIDs: in.TemplateIDs, WebhookURL: in.WebhookURL,
		WebhookEvents: in.WebhookEvents, ExpiresAt: in.ExpiresAt, CreatedAt: UTC(s.opt.Now())}
	if err := s.encryptWebhook(out, &app.WebhookSecretEnc); err != nil {
		return nil, err
	}
	return out, s.updateApp(app.ID, func(tx Tx) error {
		if err := in.validate(tx, AppScopes); err != nil {
			return err
		}
		return tx.PutApp(app)
	})
}

// CreateKey issues an API key with its webhook secret.
func (s *Service) CreateKey(in *CredentialInput) (*NewCredential, error) {
	if len(in.WebhookEvents) > 0 {
		return nil, Errorf(EINVALID, "webhookEvents: keys receive every event").Keyed(KeyKeyEvents)
	}
	out := &NewCredential{ID: NewID(), Secret: KeyPrefix + RandomToken(32)}
	key := &APIKey{ID: out.ID, Name: in.Name, OwnerIN: in.OwnerIN, Hash: HashSecret(out.Secret), Scopes: in.Scopes,
		AllTemplates: in.AllTemplates, TemplateIDs: in.TemplateIDs, WebhookURL: in.WebhookURL, ExpiresAt: in.ExpiresAt,
		CreatedAt: UTC(s.opt.Now())}
	if err := s.encryptWebhook(out, &key.WebhookSecretEnc); err != nil {
		return nil, err
	}
	return out, s.store.Update(func(tx Tx) error {
		if err := in.validate(tx, KeyScopes); err != nil {
			return err
		}
		return tx.PutKey(key)
	})
}

func (s *Service) encryptWebhook(out *NewCredential, dst *[]byte) error {
	out.WebhookSecret = "whsec_" + RandomToken(32)
	enc, err := s.opt.Box.Encrypt([]byte(out.WebhookSecret))
	*dst = enc
	return err
}

// RotateAppSecret issues a new secret; the old one and its tokens stop working.
func (s *Service) RotateAppSecret(appID string) (string, error) {
	secret := RandomToken(32)
	return secret, s.updateApp(appID, func(tx Tx) error {
		app, err := tx.App(appID)
		if err != nil {
			return err
		}
		app.SecretHash = HashSecret(secret)
		app.SecretGen++
		return tx.PutApp(app)
	})
}

// CancelApp stops an app: its secret and tokens are refused with 403.
func (s *Service) CancelApp(appID string) error {
	return s.updateApp(appID, func(tx Tx) error {
		app, err := tx.App(appID)
		if err != nil {
			return err
		}
		app.Cancelled = true
		return tx.PutApp(app)
	})
}

// RevokeKey stops an API key at once.
func (s *Service) RevokeKey(id string) error {
	return s.store.Update(func(tx Tx) error {
		k, err := tx.Key(id)
		if err != nil {
			return err
		}
		k.Revoked = true
		return tx.PutKey(k)
	})
}

func equalHash(a, b []byte) bool { return subtle.ConstantTimeCompare(a, b) == 1 }
