package signflow

import (
	"crypto/hmac"
	"encoding/base64"
	"fmt"
	"time"
)

// The cabinet is the service's own web page on the key listener, where a
// party logs in with its number and an SMS code sent to its registered
// phone, then reads, signs, rejects and cancels its own contracts. This
// file rules the login codes, the locks and the cabinet sessions; the
// contract work goes through the same operations as the embedded flow
// (cabinet_contracts.go).

// Limits of the cabinet login.
const (
	LoginWrongLimit    = 5                // wrong codes in a row that lock a number
	LoginLockTime      = 15 * time.Minute // how long the lock holds
	LoginMaxSends      = 5                // codes sent to one number per LoginWindow
	LoginWindow        = 15 * time.Minute // from the first code of a series
	CabinetMaxAge      = 12 * time.Hour   // a cabinet session ends this long after login, however active
	DefaultCabinetIdle = 30 * time.Minute // the idle time-out when none is configured

	// cabinetTouchEvery is how stale a session's lastSeenAt may get before a
	// request writes it: the idle time-out is exact to within this.
	cabinetTouchEvery = time.Minute
	// cabinetPurgeBatch is how many dead records a login purges on its way.
	cabinetPurgeBatch = 16
)

// CabinetInterface names the cabinet as the interface of an Access.
const CabinetInterface = "cabinet"

// Refusals of the cabinet.
var (
	ErrLoginNumber    = &Error{Code: EINVALID, Message: "number: must be 14 digits (individual) or 9 digits (legal entity)"}
	ErrCabinetSession = &Error{Code: EUNAUTHORIZED, Message: "Your cabinet session has ended; log in again."}
	ErrCSRF           = &Error{Code: EFORBIDDEN, Message: "The request lacks a valid CSRF token; reload the page and try again."}
)

// LoginLockedError refuses a number locked after LoginWrongLimit wrong
// codes; After is the time left.
type LoginLockedError struct{ After time.Duration }

func (e *LoginLockedError) Error() string { return e.Unwrap().Error() }

// Unwrap presents the lock as ERATELIMIT.
func (e *LoginLockedError) Unwrap() error {
	return Errorf(ERATELIMIT, "Too many wrong codes: this number is locked for %d more minute(s).", int((e.After+time.Minute-1)/time.Minute))
}

// CabinetLogin is the login state of one number: the code in force (as an
// HMAC), the codes sent in the current window, wrong codes and the lock.
// It is kept for every number asked about, registered or not, so that the
// answers never tell which numbers have an account.
type CabinetLogin struct {
	IN          string    `json:"in"`
	CodeHash    []byte    `json:"codeHash,omitempty"` // nil when no code could be sent: no phone on record
	CodeExpires time.Time `json:"codeExpires"`        // zero when no code is in force
	Sends       int       `json:"sends"`
	WindowStart time.Time `json:"windowStart"`
	LastSentAt  time.Time `json:"lastSentAt"`
	Wrong       int       `json:"wrong"`
	LockedUntil time.Time `json:"lockedUntil"`
	// PurgeAt is when the record stops mattering: no code, window, wait or
	// lock is left. From then on it reads as a fresh record and may be deleted.
	PurgeAt time.Time `json:"purgeAt"`
}

// CabinetSession is a party logged into the cabinet. Its token is in the
// browser's cookie; only the token's hash is stored.
type CabinetSession struct {
	TokenHash  []byte    `json:"tokenHash"`
	IN         string    `json:"in"`
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

// CabinetOptions configure the cabinet.
type CabinetOptions struct {
	// IdleTimeout ends a session after this long without a request
	// (cabinet.idleTimeout); default DefaultCabinetIdle.
	IdleTimeout time.Duration
}

// Cabinet carries out the cabinet's logins and sessions over a Service.
type Cabinet struct {
	svc  *Service
	idle time.Duration
}

// Cabinet returns the cabinet of the service.
func (s *Service) Cabinet(opt CabinetOptions) *Cabinet {
	if opt.IdleTimeout <= 0 {
		opt.IdleTimeout = DefaultCabinetIdle
	}
	return &Cabinet{svc: s, idle: opt.IdleTimeout}
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

func (c *Cabinet) codeMAC(in, code string) []byte { return c.svc.mac("cabinet-login", in, code) }

// startSend checks that a code may be sent now, opening a new window of
// sends when the last one is over.
func (l *CabinetLogin) startSend(now time.Time) error {
	if now.Before(l.LockedUntil) {
		return &LoginLockedError{After: l.LockedUntil.Sub(now)}
	}
	if !now.Before(l.WindowStart.Add(LoginWindow)) {
		l.Sends, l.WindowStart = 0, now
	}
	if l.Sends >= LoginMaxSends {
		return &ResendWaitError{After: l.WindowStart.Add(LoginWindow).Sub(now)}
	}
	if wait := l.LastSentAt.Add(ResendAfter).Sub(now); l.Sends > 0 && wait > 0 {
		return &ResendWaitError{After: wait}
	}
	return nil
}

// loginCodeText is the login SMS in the page's language.
func loginCodeText(lang, code string) string {
	switch lang {
	case "ru":
		return fmt.Sprintf("Код для входа в кабинет: %s. Никому не сообщайте его.", code)
	case "en":
		return fmt.Sprintf("Your cabinet login code: %s. Do not share it with anyone.", code)
	}
	return fmt.Sprintf("Kabinetga kirish kodi: %s. Uni hech kimga bermang.", code)
}
