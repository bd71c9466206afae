package signflow

import (
	"encoding/json"
	"time"
)

// AuditEvent is one line of a contract's audit trail.
type AuditEvent struct {
	ID         string    `json:"id"`
	ContractID string    `json:"contractId"`
	Type       string    `json:"type"`
	ActorIN    string    `json:"actorIn"`
	At         time.Time `json:"at"`
	IP         string    `json:"ip,omitempty"`
	UserAgent  string    `json:"userAgent,omitempty"`
	Method     string    `json:"method,omitempty"` // how the act was confirmed; empty when nothing confirmed it
	Hash       string    `json:"hash"`
	SessionID  string    `json:"sessionId,omitempty"`
	Detail     string    `json:"detail,omitempty"`
	// Version is the contract version the change of this event made; 0 on
	// audit-only events and on events kept before versions were noted.
	Version int64 `json:"version,omitempty"`
}

// Delivery statuses.
const (
	DeliveryPending   = "PENDING"
	DeliveryDelivered = "DELIVERED"
	DeliveryFailed    = "FAILED"
)

// Delivery is one webhook event for one target: the outbox row and its log.
// Its ID is the delivery id sent on every attempt; Body is the exact bytes
// that are signed and sent.
type Delivery struct {
	ID         string          `json:"id"`
	Seq        uint64          `json:"seq"`
	Event      string          `json:"event"`
	ContractID string          `json:"contractId"`
	Target     string          `json:"target"`
	TargetName string          `json:"targetName"`
	URL        string          `json:"url"`
	Body       json.RawMessage `json:"body"`
	Status     string          `json:"status"`
	Attempts   []Attempt       `json:"attempts"`
	RoundStart int             `json:"roundStart"` // first attempt of the current round; a redelivery starts a new one
	NextAt     time.Time       `json:"nextAt"`
	CreatedAt  time.Time       `json:"createdAt"`
}

// Attempt is one try to deliver.
type Attempt struct {
	At         time.Time `json:"at"`
	StatusCode int       `json:"statusCode"`
	DurationMs int64     `json:"durationMs"`
	Error      string    `json:"error"`
}

// Target names of deliveries.
func AppTarget(id string) string { return "app:" + id }

// KeyTarget names a key as a delivery target.
func KeyTarget(id string) string { return "key:" + id }

// WebhookBody is the JSON sent with each event. TemplateID is only in the
// embedded body; Amount is in the target interface's money unit.
type WebhookBody struct {
	Event          string      `json:"event"`
	ContractID     string      `json:"contractId"`
	ContractNumber string      `json:"contractNumber"`
	Status         string      `json:"status"`
	TemplateID     string      `json:"templateId,omitempty"`
	BuyerIN        string      `json:"buyerIn"`
	SellerIN       string      `json:"sellerIn"`
	CreatorIN      string      `json:"creatorIn"`
	ActorIN        string      `json:"actorIn"`
	Amount         json.Number `json:"amount"`
	Currency       string      `json:"currency"`
	OccurredAt     string      `json:"occurredAt"`
	// Reason says why the service itself made the change: EXPIRED for a
	// contract cancelled at its signBy.
	Reason string `json:"reason,omitempty"`
	// Payment and Balance are said by PAYMENT_ACCEPTED only.
	Payment *WebhookPayment `json:"payment,omitempty"`
	Balance json.Number     `json:"balance,omitempty"`
}
