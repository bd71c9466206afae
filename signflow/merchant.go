package signflow

import (
	"crypto/sha256"
	"time"
)

// Payment providers.
const (
	ProviderPayme = "PAYME"
	ProviderClick = "CLICK"
)

// Merchant is an owner's accounts with the payment providers, through
// which the buyers of its sales pay it. Secrets are encrypted; the Payme key
// is also kept as its SHA-256, by which a request names the merchant.
type Merchant struct {
	OwnerIN   string        `json:"ownerIn"`
	Payme     *PaymeAccount `json:"payme,omitempty"`
	Click     *ClickAccount `json:"click,omitempty"`
	UpdatedAt time.Time     `json:"updatedAt"`
}

// PaymeAccount is a Payme merchant (a "cashbox").
type PaymeAccount struct {
	MerchantID string `json:"merchantId"`
	KeyHash    []byte `json:"keyHash"`
	KeyEnc     []byte `json:"keyEnc"`
}

// ClickAccount is a Click service.
type ClickAccount struct {
	ServiceID  string `json:"serviceId"`
	MerchantID string `json:"merchantId"`
	SecretEnc  []byte `json:"secretEnc"`
}

// PaymeKeyHash is what a Payme key is found by.
func PaymeKeyHash(key string) []byte {
	h := sha256.Sum256([]byte(key))
	return h[:]
}

// ProviderTx is a provider's transaction against a contract: a Payme
// transaction or a Click payment, in that provider's states. Times keep
// milliseconds, as the providers read them.
type ProviderTx struct {
	Provider    string     `json:"provider"`
	ID          string     `json:"id"` // the provider's id
	OwnerIN     string     `json:"ownerIn"`
	ContractID  string     `json:"contractId"`
	Number      string     `json:"number"`
	Amount      int64      `json:"amount"` // minor units (tiyin)
	State       int        `json:"state"`
	Reason      *int       `json:"reason,omitempty"`
	Time        int64      `json:"time"` // the provider's own time of it, in ms
	CreatedAt   time.Time  `json:"createdAt"`
	PerformedAt *time.Time `json:"performedAt,omitempty"`
	CancelledAt *time.Time `json:"cancelledAt,omitempty"`
	ReceiptID   string     `json:"receiptId,omitempty"`
}
