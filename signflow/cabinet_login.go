package signflow

import (
	"context"
	"crypto/hmac"
	"fmt"
	"strings"
	"time"
)

// SendLoginCode sends a new login code by SMS to the phone registered for
// the number. For a number with no phone on record (or no record at all)
// nothing is sent, but everything else happens the same way, and the
// answer is the same. The code is held only as an HMAC; the SMS goes out
// once the change is committed, and when the provider fails the send is
// undone so that it can be retried at once.
func (c *Cabinet) SendLoginCode(ctx context.Context, in, lang string) (*LoginCodeSent, error) {
	if in = strings.TrimSpace(in); !ValidIN(in) {
		return nil, ErrLoginNumber
	}
	code, now := newCode(), c.svc.opt.Now()
	var (
		out   *LoginCodeSent
		prev  CabinetLogin
		phone string
	)
	err := c.svc.store.Update(func(tx Tx) error {
		phone = ""
		l, err := loadLogin(tx, in, now)
		if err != nil {
			return err
		}
		prev = *l
		if err := l.startSend(now); err != nil {
			return err
		}
		if client, err := tx.Client(in); err == nil {
			phone = client.Phone
		} else if ErrorCode(err) != ENOTFOUND {
			return err
		}
		l.CodeHash = nil
		if phone != "" {
			l.CodeHash = c.codeMAC(in, code)
		}
		l.Sends++
		l.LastSentAt, l.CodeExpires = now, now.Add(c.svc.opt.OTPTTL)
		if err := putLogin(tx, l); err != nil {
			return err
		}
		out = &LoginCodeSent{ExpiresIn: c.svc.opt.OTPTTL, ResendIn: ResendAfter, SendsLeft: LoginMaxSends - l.Sends}
		_, err = tx.PurgeCabinet(now, cabinetPurgeBatch)
		return err
	})
	if err != nil || phone == "" {
		return out, err
	}
	if err := c.svc.opt.SMS.Send(ctx, phone, loginCodeText(lang, code)); err != nil {
		if uerr := c.undoSend(in, code, prev); uerr != nil {
			return nil, uerr
		}
		if ErrorCode(err) == EINTERNAL {
			return nil, fmt.Errorf("send login code: %w", err)
		}
		return nil, err
	}
	return out, nil
}

// undoSend takes back a send the provider refused, unless another send
// has replaced the code since. Wrong codes and a lock meanwhile still count.
func (c *Cabinet) undoSend(in, code string, prev CabinetLogin) error {
	return c.svc.store.Update(func(tx Tx) error {
		l, err := tx.CabinetLogin(in)
		if ErrorCode(err) == ENOTFOUND {
			return nil
		} else if err != nil {
			return err
		}
		if l.CodeHash == nil || !hmac.Equal(l.CodeHash, c.codeMAC(in, code)) {
			return nil
		}
		back := prev
		back.Wrong, back.LockedUntil = l.Wrong, l.LockedUntil
		return putLogin(tx, &back)
	})
}

// LogIn checks a login code in constant time and, when it is right, opens
// a cabinet session and returns it with the token for the cookie. A wrong
// code is a *WrongCodeError; the LoginWrongLimit-th in a row locks the
// number for LoginLockTime and is a *LoginLockedError. A number without a
// phone never receives a code, so every code is wrong for it.
func (c *Cabinet) LogIn(in, code string, actor Actor) (string, *CabinetSession, error) {
	if in = strings.TrimSpace(in); !ValidIN(in) {
		return "", nil, ErrLoginNumber
	}
	if code = strings.TrimSpace(code); !isDigits(code, CodeDigits) {
		return "", nil, ErrCodeFormat
	}
	now, token := c.svc.opt.Now(), RandomToken(32)
	var (
		out     *CabinetSession
		refusal error
	)
	err := c.svc.store.Update(func(tx Tx) error {
		out, refusal = nil, nil
		l, err := loadLogin(tx, in, now)
		if err != nil {
			return err
		}
		if now.Before(l.LockedUntil) {
			return &LoginLockedError{After: l.LockedUntil.Sub(now)}
		}
		if l.CodeExpires.IsZero() {
			return ErrNoCode
		}
		if !now.Before(l.CodeExpires) {
			return ErrCodeExpired
		}
		want := l.CodeHash
		if want == nil {
			want = make([]byte, 32) // compare anyway: no phone costs what a wrong code costs
		}
		if hmac.Equal(want, c.codeMAC(in, code)) && l.CodeHash != nil {
			l.CodeHash, l.CodeExpires, l.Wrong = nil, time.Time{}, 0
			if err := putLogin(tx, l); err != nil {
				return err
			}
			out = &CabinetSession{TokenHash: HashSecret(token), IN: in, CreatedAt: UTC(now), LastSeenAt: UTC(now),
				IP: actor.IP, UserAgent: actor.UserAgent}
			out.ExpiresAt = c.expiry(out)
			if err := tx.PutCabinetSession(out); err != nil {
				return err
			}
			_, err := tx.PurgeCabinet(now, cabinetPurgeBatch)
			return err
		}
		// A wrong code is committed, then refused.
		l.Wrong++
		refusal = &WrongCodeError{Left: LoginWrongLimit - l.Wrong}
		if l.Wrong >= LoginWrongLimit {
			l.Wrong, l.CodeHash, l.CodeExpires, l.LockedUntil = 0, nil, time.Time{}, now.Add(LoginLockTime)
			refusal = &LoginLockedError{After: LoginLockTime}
		}
		return putLogin(tx, l)
	})
	if err != nil {
		return "", nil, err
	}
	if refusal != nil {
		return "", nil, refusal
	}
	return token, out, nil
}

// Session returns the live cabinet session of a cookie's token, or
// ErrCabinetSession. A request keeps the session alive: its idle expiry
// moves on (written at most once every cabinetTouchEvery).
func (c *Cabinet) Session(token string) (*CabinetSession, error) {
	if token == "" || len(token) > 256 {
		return nil, ErrCabinetSession
	}
	now, hash := c.svc.opt.Now(), HashSecret(token)
	live := func(tx Tx) (*CabinetSession, error) {
		s, err := tx.CabinetSession(hash)
		if ErrorCode(err) == ENOTFOUND || err == nil && !now.Before(s.ExpiresAt) {
			return nil, ErrCabinetSession
		}
		return s, err
	}
	var s *CabinetSession
	err := c.svc.store.View(func(tx Tx) (err error) { s, err = live(tx); return err })
	if err != nil || now.Sub(s.LastSeenAt) < cabinetTouchEvery {
		return s, err
	}
	err = c.svc.store.Update(func(tx Tx) (err error) {
		if s, err = live(tx); err != nil {
			return err
		}
		s.LastSeenAt = UTC(now)
		s.ExpiresAt = c.expiry(s)
		return tx.PutCabinetSession(s)
	})
	return s, err
}

// LogOut ends the session of the token; an unknown token is no error.
func (c *Cabinet) LogOut(token string) error {
	if token == "" || len(token) > 256 {
		return nil
	}
	return c.svc.store.Update(func(tx Tx) error { return tx.DeleteCabinetSession(HashSecret(token)) })
}

// loadLogin returns the login record of a number, a fresh one when there
// is none or it has stopped mattering.
func loadLogin(tx Tx, in string, now time.Time) (*CabinetLogin, error) {
	l, err := tx.CabinetLogin(in)
	if ErrorCode(err) == ENOTFOUND || err == nil && !now.Before(l.PurgeAt) {
		return &CabinetLogin{IN: in}, nil
	}
	return l, err
}

// putLogin stores the record with its PurgeAt: the latest of the code's
// expiry, the lock, the end of the window and the resend wait.
func putLogin(tx Tx, l *CabinetLogin) error {
	l.PurgeAt = l.CodeExpires
	for _, t := range []time.Time{l.LockedUntil, l.WindowStart.Add(LoginWindow), l.LastSentAt.Add(ResendAfter)} {
		if t.After(l.PurgeAt) {
			l.PurgeAt = t
		}
	}
	return tx.PutCabinetLogin(l)
}
