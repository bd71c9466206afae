package admin

// The admin API's answers, shared with its client (adminclient). Apps and
// keys are asked for with signflow.CredentialInput.

import "contracts/signflow"

// OwnerSaved answers POST /admin/v1/owners: the stored owner, whether it
// was created, updated or left unchanged, and the fields an update changed.
type OwnerSaved struct {
	*signflow.Client
	Result  string   `json:"result"`
	Changed []string `json:"changed,omitempty"`
}

// TemplateCreated answers POST /admin/v1/templates.
type TemplateCreated struct {
	ID     string          `json:"id"`
	Fields []TemplateField `json:"fields"`
}

// TemplateUpdated answers PUT /admin/v1/templates/{id}: the new version.
type TemplateUpdated struct {
	TemplateCreated
	Version int `json:"version"`
}

// TemplateField is one field of a created template, by the id the
// contracts name it with.
type TemplateField struct {
	ID      string `json:"id"`
	KeyName string `json:"keyName"`
}

// AppCreated answers POST /admin/v1/apps. The secrets are shown only here.
type AppCreated struct {
	AppID         string `json:"appId"`
	AppSecret     string `json:"appSecret"`
	WebhookSecret string `json:"webhookSecret"`
}

// AppSecret answers POST /admin/v1/apps/{appId}/secret.
type AppSecret struct {
	AppSecret string `json:"appSecret"`
}

// KeyCreated answers POST /admin/v1/keys. The key is shown only here.
type KeyCreated struct {
	ID            string `json:"id"`
	Key           string `json:"key"`
	WebhookSecret string `json:"webhookSecret"`
}

// Delivery is one webhook delivery in GET /admin/v1/deliveries.
type Delivery struct {
	ID         string            `json:"id"`
	Event      string            `json:"event"`
	ContractID string            `json:"contractId"`
	Target     string            `json:"target"`
	TargetName string            `json:"targetName"`
	URL        string            `json:"url"`
	Status     string            `json:"status"`
	Attempts   []DeliveryAttempt `json:"attempts"`
}

// DeliveryAttempt is one attempt of a delivery.
type DeliveryAttempt struct {
	At         string `json:"at"`
	StatusCode int    `json:"statusCode"`
	DurationMs int64  `json:"durationMs"`
	Error      string `json:"error"`
}

// Redelivery answers POST /admin/v1/deliveries/{id}/redeliver (202).
type Redelivery struct {
	Status string `json:"status"`
}

// Readiness answers /readyz.
type Readiness struct {
	Status   string   `json:"status"`
	Warnings []string `json:"warnings,omitempty"`
}
