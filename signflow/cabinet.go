package signflow

import (
	"context"
	"crypto/hmac"
	"encoding/base64"
	"time"
)

// The cabinet is the service's own web page on the key listener, where a
// party logs in with its number and an SMS code, then reads, signs,
// rejects and cancels its own contracts. This file rules the login codes,
// the locks and the cabinet sessions; the contract work goes through the
// same operations as the embedded flow (cabinet_contracts.go).
//
// A number may have several phones: each tenant holds its own claim on it
// (tenant.go). A login sends a code to each distinct phone, and the
// session remembers the phone whose code was entered: it reaches only the
// contracts whose creator's tenant holds that phone for the number (for an
// owner, the admin's phone, its only one). A code that reached another
// tenant's phone opens nothing of the others' contracts.
//
// Codes are bound to the browser that asked for them (the login page's
// binding), so wrong guesses from elsewhere never spend them. Wrong codes
// lock a number per client address: a stranger locks only itself out.

// Limits of the cabinet login.
const (
	LoginWrongLimit  = 5                // wrong codes in a row, from one address or for one request, that end it
	LoginLockTime    = 15 * time.Minute // how long an address stays locked out of a number
	LoginMaxSends    = 5                // code requests of one browser for one number per LoginWindow
	LoginWindow      = 15 * time.Minute // from the first code of a series
	LoginDay         = 24 * time.Hour   // the period of Options' daily cap on login texts
	KnownBrowserFor  = 180 * 24 * time.Hour
	maxKnownBrowsers = 5
	CabinetMaxAge    = 12 * time.Hour // a cabinet session ends this long after login, however active

	// cabinetTouchEvery is how stale a session's lastSeenAt may get before a
	// request writes it: the idle time-out is exact to within this.
	cabinetTouchEvery = time.Minute
	// cabinetPurgeBatch is how many dead records a login purges on its way.
	cabinetPurgeBatch = 16
	// loginMACs is how many code HMACs a login check computes at least, so
	// that a number with no phone or one phone costs what one with several does.
	loginMACs = 4
)

// CabinetInterface names the cabinet as the interface of an Access.
const CabinetInterface = "cabinet"

// Refusals of the cabinet.
var (
	ErrLoginNumber    = &Error{Code: EINVALID, Message: "number: must be 14 digits (individual) or 9 digits (legal entity)"}
	ErrCabinetSession = &Error{Code: EUNAUTHORIZED, Message: "Your cabinet session has ended; log in again."}
	ErrCSRF           = &Error{Code: EFORBIDDEN, Message: "The request lacks a valid CSRF token; reload the page and try again."}
)

// LoginLockedError refuses a number to an address that entered
// LoginWrongLimit wrong codes for it; After is the time left.
type LoginLockedError struct{ After time.Duration }

func (e *LoginLockedError) Error() string { return e.Unwrap().Error() }

// Unwrap presents the lock as ERATELIMIT.
func (e *LoginLockedError) Unwrap() error {
	return Errorf(ERATELIMIT, "Too many wrong codes: this number is locked for %d more minute(s).", int((e.After+time.Minute-1)/time.Minute))
}

// CabinetLogin is the login state of one number: each browser's series of
// code requests and codes in force (as HMACs), the day's requests, the
// browsers it logged in with, the wrong codes and locks per client
// address, and the signing-code counts per creator's tenant
// (party_limit.go). It is kept for every number asked about, registered
// or not, so that the answers never tell which numbers have an account.
type CabinetLogin struct {
	IN        string         `json:"in"`
	Requests  []LoginRequest `json:"requests,omitempty"`
	Addresses []LoginAddress `json:"addresses,omitempty"`
	// Day counts the code requests for the number from browsers it does
	// not know; Known are the browsers the number logged in with, each
	// with its own count (cabinet_day.go).
	Day   LoginDayCount  `json:"day"`
	Known []KnownBrowser `json:"known,omitempty"`
	// Signing counts the signing codes of the number per creator's tenant
	// (party_limit.go).
	Signing []PartyCount `json:"signing,omitempty"`
	// PurgeAt is when the record stops mattering: no code, window, wait or
	// lock is left. From then on it reads as a fresh record and may be deleted.
	PurgeAt time.Time `json:"purgeAt"`
}

// LoginRequest is one browser's request for codes: a code to each phone of
// the number (none for a number without a phone), valid until Expires.
type LoginRequest struct {
	Browser []byte      `json:"browser"` // SHA-256 of the login page's binding
	Codes   []LoginCode `json:"codes,omitempty"`
	Expires time.Time   `json:"expires"`
	Wrong   int         `json:"wrong"`
	// The browser's series of sends: the resend wait and the window are
	// the browser's own, so nobody else's requests make it wait.
	Sends       int       `json:"sends"`
	WindowStart time.Time `json:"windowStart"`
	LastSentAt  time.Time `json:"lastSentAt"`
}

// LoginCode is a code sent to one phone.
type LoginCode struct {
	Phone string `json:"phone"`
	Hash  []byte `json:"hash"` // HMAC of the number, the phone and the code
}

// LoginAddress counts the wrong codes entered for the number from one
// client address, and locks the address out when they reach LoginWrongLimit.
type LoginAddress struct {
	IP          string    `json:"ip"`
	Wrong       int       `json:"wrong"`
	LastWrong   time.Time `json:"lastWrong"`
	LockedUntil time.Time `json:"lockedUntil"`
}

// CabinetSession is a party logged into the cabinet. Its token is in the
// browser's cookie; only the token's hash is stored.
type CabinetSession struct {
	TokenHash []byte `json:"tokenHash"`
	IN        string `json:"in"`
	Phone     string `json:"phone"` // the phone whose code opened the session
	// Known is the token that marks the browser as one the number logged
	// in with, for its cookie; only its hash is stored, in the login record.
	Known string `json:"-"`

	CreatedAt  time.Time `json:"createdAt"`
	LastSeenAt time.Time `json:"lastSeenAt"`
	ExpiresAt  time.Time `json:"expiresAt"` // lastSeenAt + the idle time-out, at most createdAt + CabinetMaxAge
	IP         string    `json:"ip,omitempty"`
	UserAgent  string    `json:"userAgent,omitempty"`
}

// LoginCodeSent answers a login-code request. It is the same whether the
// number is registered with a phone, registered without one, or unknown.
type LoginCodeSent struct {
	ExpiresIn time.Duration // lifetime of the code
	ResendIn  time.Duration // wait before another code may be asked for
	SendsLeft int           // codes that may still be sent in this window
}

// TextQueue sends texts in the background (signflow/sms.Queue), so that a
// request never waits for the SMS provider nor learns how it fared.
type TextQueue interface {
	// Enqueue hands a text over and returns at once; a text that cannot be
	// queued or sent is logged and dropped.
	Enqueue(phone, text string)
}

// CabinetOptions configure the cabinet.
type CabinetOptions struct {
	// CodesPerNumberPerDay caps the login-code requests for one number in
	// LoginDay from browsers it never logged in with, and those of each
	// browser it did (ratelimit.cabinetCodesPerNumberPerDay); 0: no cap.
	CodesPerNumberPerDay int
	// IdleTimeout ends a session after this long without a request
	// (cabinet.idleTimeout); required.
	IdleTimeout time.Duration
	// Texts sends the login codes. Without it they are sent by the
	// service's SMS sender before the answer, their failures ignored: for
	// tests of the domain alone.
	Texts TextQueue
}

// Cabinet carries out the cabinet's logins and sessions over a Service.
type Cabinet struct {
	svc   *Service
	idle  time.Duration
	texts TextQueue
	daily int
}

// Cabinet returns the cabinet of the service.
func (s *Service) Cabinet(opt CabinetOptions) *Cabinet {
	if opt.IdleTimeout <= 0 {
		panic("signflow: Cabinet needs a positive IdleTimeout (cabinet.idleTimeout)")
	}
	if opt.Texts == nil {
		opt.Texts = inlineTexts{s.opt.SMS}
	}
	return &Cabinet{svc: s, idle: opt.IdleTimeout, texts: opt.Texts, daily: opt.CodesPerNumberPerDay}
}

// inlineTexts sends at once and drops failures.
type inlineTexts struct{ sms SMSSender }

func (t inlineTexts) Enqueue(phone, text string) {
	if t.sms != nil {
		_ = t.sms.Send(context.Background(), phone, text)
	}
}

// CSRFToken is the anti-forgery token that the cabinet's pages send back
// with every state-changing request: an HMAC of the page's binding, which
// is the session token once logged in and a random cookie of the login
// page before. Nothing is stored; it dies with its binding.
func (c *Cabinet) CSRFToken(binding string) string {
	return base64.RawURLEncoding.EncodeToString(c.svc.mac("cabinet-csrf", binding))
}

// CheckCSRF returns ErrCSRF unless token is the CSRF token of binding.
func (c *Cabinet) CheckCSRF(binding, token string) error {
	if binding == "" || token == "" || !hmac.Equal([]byte(token), []byte(c.CSRFToken(binding))) {
		return ErrCSRF
	}
	return nil
}

// expiry is when the session ends if no request comes.
func (c *Cabinet) expiry(s *CabinetSession) time.Time {
	idle, max := s.LastSeenAt.Add(c.idle), s.CreatedAt.Add(CabinetMaxAge)
	if idle.After(max) {
		return max
	}
	return idle
}

func (c *Cabinet) codeMAC(in, phone, code string) []byte {
	return c.svc.mac("cabinet-login", in, phone, code)
}

// startSend checks that the browser may have a code sent now, opening a
// new window of sends when the last one is over.
func (r *LoginRequest) startSend(now time.Time) error {
	if !now.Before(r.WindowStart.Add(LoginWindow)) {
		r.Sends, r.WindowStart = 0, now
	}
	if r.Sends >= LoginMaxSends {
		return &ResendWaitError{After: r.WindowStart.Add(LoginWindow).Sub(now)}
	}
	if wait := r.LastSentAt.Add(ResendAfter).Sub(now); r.Sends > 0 && wait > 0 {
		return &ResendWaitError{After: wait}
	}
	return nil
}
