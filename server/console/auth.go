package console

import (
	"crypto/sha256"
	"crypto/subtle"
	"sync"
	"time"

	"contracts/signflow"
)

// auth holds the console's sessions and the lock-outs of addresses that
// sent wrong admin tokens. Sessions live in memory: a restart logs the
// administrator out.
type auth struct {
	token [32]byte // SHA-256 of the admin token, compared in constant time
	off   bool     // no admin token: nobody logs in
	idle  time.Duration
	now   func() time.Time

	mu       sync.Mutex
	sessions map[[32]byte]*session // by SHA-256 of the cookie's token
	strikes  map[string]*strikes   // by client address
}

// session is one logged-in browser.
type session struct {
	csrf string
	seen time.Time
}

// strikes are an address's wrong tokens in a row, and its lock.
type strikes struct {
	wrong  int
	until  time.Time // locked until then
	lastAt time.Time
}

// maxSessions bounds the sessions kept; the one idle longest goes first.
const maxSessions = 64

func newAuth(token string, idle time.Duration, now func() time.Time) *auth {
	return &auth{token: sha256.Sum256([]byte(token)), off: token == "", idle: idle, now: now,
		sessions: map[[32]byte]*session{}, strikes: map[string]*strikes{}}
}

// lockedFor is how long ip stays locked out, 0 when it is not.
func (a *auth) lockedFor(ip string) time.Duration {
	a.mu.Lock()
	defer a.mu.Unlock()
	if s := a.strikes[ip]; s != nil {
		return max(s.until.Sub(a.now()), 0)
	}
	return 0
}

// logIn checks the admin token sent from ip and opens a session: it
// returns the cookie's token, or a refusal — a wrong token, or the lock
// that the signflow.LoginWrongLimit-th wrong token in a row from one
// address puts on it for signflow.LoginLockTime. The lock refuses only
// wrong tokens: others' guesses from the same address never keep the
// administrator with the right token out.
func (a *auth) logIn(ip, token string) (string, error) {
	now := a.now()
	sum := sha256.Sum256([]byte(token))
	right := subtle.ConstantTimeCompare(sum[:], a.token[:]) == 1 && !a.off
	a.mu.Lock()
	defer a.mu.Unlock()
	a.sweep(now)
	s := a.strikes[ip]
	locked := s != nil && now.Before(s.until)
	if locked && !right {
		return "", &signflow.LoginLockedError{After: s.until.Sub(now)}
	}
	if !right {
		if s == nil || !s.until.IsZero() {
			s = &strikes{}
			a.strikes[ip] = s
		}
		s.wrong++
		s.lastAt = now
		if s.wrong >= signflow.LoginWrongLimit {
			s.until = now.Add(signflow.LoginLockTime)
			return "", &signflow.LoginLockedError{After: signflow.LoginLockTime}
		}
		return "", errWrongToken
	}
	if !locked {
		delete(a.strikes, ip) // a lock runs its time, so guesses stay bounded
	}
	if len(a.sessions) >= maxSessions {
		a.evict()
	}
	cookie := signflow.RandomToken(32)
	a.sessions[sha256.Sum256([]byte(cookie))] = &session{csrf: signflow.RandomToken(24), seen: now}
	return cookie, nil
}

// errWrongToken refuses a wrong admin token.
var errWrongToken = signflow.Errorf(signflow.EUNAUTHORIZED, "The admin token is wrong.")

// session returns the live session of a cookie's token and marks it
// seen; ended tells that the cookie named a session that has ended.
func (a *auth) session(cookie string) (s *session, ended bool) {
	if cookie == "" {
		return nil, false
	}
	now := a.now()
	key := sha256.Sum256([]byte(cookie))
	a.mu.Lock()
	defer a.mu.Unlock()
	s = a.sessions[key]
	if s == nil || now.Sub(s.seen) >= a.idle {
		delete(a.sessions, key)
		return nil, true
	}
	s.seen = now
	return s, false
}

// logOut ends the session of a cookie's token.
func (a *auth) logOut(cookie string) {
	a.mu.Lock()
	delete(a.sessions, sha256.Sum256([]byte(cookie)))
	a.mu.Unlock()
}

// evict drops the session idle longest.
func (a *auth) evict() {
	var oldest [32]byte
	var at time.Time
	for k, s := range a.sessions {
		if at.IsZero() || s.seen.Before(at) {
			oldest, at = k, s.seen
		}
	}
	delete(a.sessions, oldest)
}

// sweep forgets ended sessions, ended locks and old strikes.
func (a *auth) sweep(now time.Time) {
	for k, s := range a.sessions {
		if now.Sub(s.seen) >= a.idle {
			delete(a.sessions, k)
		}
	}
	for ip, s := range a.strikes {
		if now.After(s.until) && now.Sub(s.lastAt) > signflow.LoginLockTime {
			delete(a.strikes, ip)
		}
	}
}

// sameToken compares two tokens in constant time; empty never matches.
func sameToken(a, b string) bool {
	return a != "" && subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}
