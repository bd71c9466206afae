package signflow

import "time"

// Sign session statuses.
const (
	SessionPending  = "PENDING"
	SessionSigned   = "SIGNED"
	SessionRejected = "REJECTED"
	SessionExpired  = "EXPIRED"
)

// Languages of the signing page.
var Languages = []string{"uz", "ru", "en"}

// SignSession lets one party sign one contract once, within its lifetime.
// The token in its URL is stored only as a hash.
type SignSession struct {
	ID           string     `json:"id"`
	TokenHash    []byte     `json:"tokenHash"`
	ContractID   string     `json:"contractId"`
	SignerIN     string     `json:"signerIn"`
	AppID        string     `json:"appId,omitempty"`
	Lang         string     `json:"lang"`
	ParentOrigin string     `json:"parentOrigin,omitempty"`
	RedirectURL  string     `json:"redirectUrl,omitempty"`
	Method       string     `json:"method"`
	Status       string     `json:"status"`
	CreatedAt    time.Time  `json:"createdAt"`
	ExpiresAt    time.Time  `json:"expiresAt"`
	CompletedAt  *time.Time `json:"completedAt,omitempty"`
	// NotifiedAt is when the session's link was texted to the signer.
	NotifiedAt   *time.Time `json:"notifiedAt,omitempty"`
	OTP          *OTPState  `json:"otp,omitempty"`
	IDPStateHash []byte     `json:"idpStateHash,omitempty"`
	// IDPIntent is what the identity check in progress confirms: "" a
	// signature, IntentReject a rejection.
	IDPIntent string `json:"idpIntent,omitempty"`
}

// OTPState is the SMS code of a session, held as an HMAC.
type OTPState struct {
	CodeHash   []byte    `json:"codeHash"`
	ExpiresAt  time.Time `json:"expiresAt"`
	Sends      int       `json:"sends"`
	LastSentAt time.Time `json:"lastSentAt"`
	Wrong      int       `json:"wrong"`
	// Intent is what the code in force confirms: "" a signature,
	// IntentReject a rejection. Its text said which.
	Intent string `json:"intent,omitempty"`
}

// Open reports whether the session still accepts a signature at now.
func (s *SignSession) Open(now time.Time) bool {
	return s.Status == SessionPending && now.Before(s.ExpiresAt)
}

// EffectiveStatus is the status as a reader should see it: a pending
// session past its expiry is EXPIRED even before the sweeper has run.
func (s *SignSession) EffectiveStatus(now time.Time) string {
	if s.Status == SessionPending && !now.Before(s.ExpiresAt) {
		return SessionExpired
	}
	return s.Status
}
