package signflow

import (
	"crypto/hmac"
	"slices"
	"strings"
	"time"
)

// SendLoginCode sends a new login code to each phone on record for the
// number (cabinet.go), bound to the browser of binding (the login page's
// random cookie). For a number with no phone on record, or no record at
// all, nothing is sent, but everything else happens the same way and the
// answer is the same. Codes are held only as HMACs; the texts are queued
// once the change is committed and go out in the background, so neither
// the time of the answer nor the answer itself depends on the number or
// on the SMS provider. A text the provider refuses is logged by the queue;
// its code stays in force until it expires, and a new one may be asked
// for after ResendAfter, as the answer says.
func (c *Cabinet) SendLoginCode(in, lang, binding string, actor Actor) (*LoginCodeSent, error) {
	return c.SendLoginCodeTo(LoginBrowser{Binding: binding}, in, lang, actor)
}

// LoginBrowser is the browser asking for a login code: the login page's
// binding, and the token of its cookie that marks it as a browser the
// number logged in with before, if any (CabinetSession.Known).
type LoginBrowser struct{ Binding, Known string }

// SendLoginCodeTo is SendLoginCode from a browser that may be known to the
// number: the resend wait and the window of sends are the browser's own,
// and the daily cap counts a known browser's requests apart from the rest.
func (c *Cabinet) SendLoginCodeTo(b LoginBrowser, in, lang string, actor Actor) (*LoginCodeSent, error) {
	binding := b.Binding
	if in = strings.TrimSpace(in); !ValidIN(in) {
		return nil, ErrLoginNumber
	}
	if binding == "" {
		return nil, ErrCSRF
	}
	now, browser := c.svc.opt.Now(), HashSecret(binding)
	type text struct{ phone, code string }
	var (
		out   *LoginCodeSent
		texts []text
	)
	err := c.svc.store.Update(func(tx Tx) error {
		texts = nil
		l, err := loadLogin(tx, in, now)
		if err != nil {
			return err
		}
		if wait := l.lockedFor(actor.IP, now); wait > 0 {
			return &LoginLockedError{After: wait}
		}
		req := LoginRequest{Browser: browser}
		if i := slices.IndexFunc(l.Requests, func(r LoginRequest) bool { return hmac.Equal(r.Browser, browser) }); i >= 0 {
			req.Sends, req.WindowStart, req.LastSentAt = l.Requests[i].Sends, l.Requests[i].WindowStart, l.Requests[i].LastSentAt
		}
		if err := req.startSend(now); err != nil {
			return err
		}
		if err := l.countDay(b.Known, c.daily, now); err != nil {
			return err
		}
		phones, err := loginPhones(tx, in)
		if err != nil {
			return err
		}
		req.Expires = now.Add(c.svc.opt.OTPTTL)
		for _, p := range phones {
			code := newCode()
			req.Codes = append(req.Codes, LoginCode{Phone: p, Hash: c.codeMAC(in, p, code)})
			texts = append(texts, text{p, code})
		}
		req.Sends++
		req.LastSentAt = now
		l.Requests = append(slices.DeleteFunc(l.Requests, func(r LoginRequest) bool { return hmac.Equal(r.Browser, browser) }), req)
		if n := len(l.Requests); n > maxLoginRequests {
			l.Requests = slices.Delete(l.Requests, 0, n-maxLoginRequests) // the oldest go first
		}
		if err := putLogin(tx, l); err != nil {
			return err
		}
		out = &LoginCodeSent{ExpiresIn: c.svc.opt.OTPTTL, ResendIn: ResendAfter, SendsLeft: LoginMaxSends - req.Sends}
		_, err = tx.PurgeCabinet(now, cabinetPurgeBatch)
		return err
	})
	if err != nil {
		return nil, err
	}
	for _, t := range texts {
		c.texts.Enqueue(t.phone, c.svc.opt.Texts.Render(SMSCabinetCode, lang, map[string]string{"code": t.code}))
	}
	return out, nil
}

// loginPhones are the phones a login code for the number goes to: the
// admin's phone of an owner; else every distinct phone that a tenant holds
// for the number.
func loginPhones(tx Tx, in string) ([]string, error) {
	owner, claims, err := holders(tx, in)
	if err != nil {
		return nil, err
	}
	if owner != nil {
		if owner.Phone == "" {
			return nil, nil
		}
		return []string{owner.Phone}, nil
	}
	var phones []string
	for _, cl := range claims {
		if p := cl.Client.Phone; p != "" && !slices.Contains(phones, p) {
			phones = append(phones, p)
		}
	}
	slices.Sort(phones)
	return phones, nil
}

// LogIn checks a login code, in constant time against each code the
// browser of binding was sent, and when it is one of them opens a cabinet
// session for the number and that code's phone, and returns it with the
// token for the cookie. A wrong code is a *WrongCodeError; the
// LoginWrongLimit-th in a row from one address locks that address out of
// the number for LoginLockTime and is a *LoginLockedError (other addresses
// are not affected); the LoginWrongLimit-th against one request spends its
// codes. A number without a phone never receives a code, so every code is
// wrong for it.
func (c *Cabinet) LogIn(in, code, binding string, actor Actor) (string, *CabinetSession, error) {
	if in = strings.TrimSpace(in); !ValidIN(in) {
		return "", nil, ErrLoginNumber
	}
	if code = strings.TrimSpace(code); !isDigits(code, CodeDigits) {
		return "", nil, ErrCodeFormat
	}
	if binding == "" {
		return "", nil, ErrCSRF
	}
	now, token, browser := c.svc.opt.Now(), RandomToken(32), HashSecret(binding)
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
		if wait := l.lockedFor(actor.IP, now); wait > 0 {
			return &LoginLockedError{After: wait}
		}
		i := slices.IndexFunc(l.Requests, func(r LoginRequest) bool { return hmac.Equal(r.Browser, browser) })
		if i < 0 {
			return ErrNoCode
		}
		if !now.Before(l.Requests[i].Expires) {
			return ErrCodeExpired
		}
		if phone := c.match(in, code, l.Requests[i].Codes); phone != "" {
			l.Requests = slices.Delete(l.Requests, i, i+1)
			l.address(actor.IP).Wrong = 0 // the wrong codes in a row end here
			known := l.remember(now)
			if err := putLogin(tx, l); err != nil {
				return err
			}
			out = &CabinetSession{TokenHash: HashSecret(token), IN: in, Phone: phone, CreatedAt: UTC(now), LastSeenAt: UTC(now),
				IP: actor.IP, UserAgent: actor.UserAgent}
			out.ExpiresAt = c.expiry(out)
			if err := tx.PutCabinetSession(out); err != nil {
				return err
			}
			out.Known = known
			_, err := tx.PurgeCabinet(now, cabinetPurgeBatch)
			return err
		}
		// A wrong code is committed, then refused.
		refusal = l.wrongCode(i, actor.IP, now)
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

// match returns the phone whose code is code among codes, "" when none
// is. It computes loginMACs HMACs at least, however many codes there are.
func (c *Cabinet) match(in, code string, codes []LoginCode) string {
	found := ""
	for i := 0; i < max(len(codes), loginMACs); i++ {
		if i >= len(codes) {
			c.codeMAC(in, "", code)
		} else if hmac.Equal(codes[i].Hash, c.codeMAC(in, codes[i].Phone, code)) {
			found = codes[i].Phone
		}
	}
	return found
}

// wrongCode counts a wrong code against request i and the address ip, and
// returns the refusal: the codes left, or the lock of the address.
func (l *CabinetLogin) wrongCode(i int, ip string, now time.Time) error {
	a := l.address(ip)
	a.Wrong++
	a.LastWrong = now
	l.Requests[i].Wrong++
	left := min(LoginWrongLimit-a.Wrong, LoginWrongLimit-l.Requests[i].Wrong)
	if a.Wrong >= LoginWrongLimit {
		a.Wrong, a.LockedUntil = 0, now.Add(LoginLockTime)
		l.Requests = slices.Delete(l.Requests, i, i+1)
		return &LoginLockedError{After: LoginLockTime}
	}
	if left <= 0 {
		l.Requests = slices.Delete(l.Requests, i, i+1) // its codes are spent
	}
	return &WrongCodeError{Left: max(left, 0)}
}

// address returns the entry of ip, adding it when there is none.
func (l *CabinetLogin) address(ip string) *LoginAddress {
	if i := slices.IndexFunc(l.Addresses, func(a LoginAddress) bool { return a.IP == ip }); i >= 0 {
		return &l.Addresses[i]
	}
	l.Addresses = append(l.Addresses, LoginAddress{IP: ip})
	return &l.Addresses[len(l.Addresses)-1]
}

// lockedFor returns how long ip stays locked out of the number, 0 when it is not.
func (l *CabinetLogin) lockedFor(ip string, now time.Time) time.Duration {
	for _, a := range l.Addresses {
		if a.IP == ip && now.Before(a.LockedUntil) {
			return a.LockedUntil.Sub(now)
		}
	}
	return 0
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
// is none or it has stopped mattering, without what has run out: requests
// expired a window ago, wrong codes a lock time old, locks that ended.
func loadLogin(tx Tx, in string, now time.Time) (*CabinetLogin, error) {
	l, err := tx.CabinetLogin(in)
	if ErrorCode(err) == ENOTFOUND || err == nil && !now.Before(l.PurgeAt) {
		return &CabinetLogin{IN: in}, nil
	} else if err != nil {
		return nil, err
	}
	l.Requests = slices.DeleteFunc(slices.Clone(l.Requests), func(r LoginRequest) bool { return !now.Before(r.Expires.Add(LoginWindow)) })
	l.Addresses = slices.DeleteFunc(slices.Clone(l.Addresses), func(a LoginAddress) bool {
		return !now.Before(a.LockedUntil) && !now.Before(a.LastWrong.Add(LoginLockTime))
	})
	for i := range l.Addresses {
		if a := &l.Addresses[i]; !now.Before(a.LastWrong.Add(LoginLockTime)) {
			a.Wrong = 0
		}
	}
	return l, nil
}

// putLogin stores the record with its PurgeAt: the latest of the codes'
// expiry, the locks and wrong codes of its addresses, the end of the
// window and the resend wait.
func putLogin(tx Tx, l *CabinetLogin) error {
	times := []time.Time{l.Day.Start.Add(LoginDay)}
	for _, r := range l.Requests {
		times = append(times, r.Expires, r.WindowStart.Add(LoginWindow), r.LastSentAt.Add(ResendAfter))
	}
	for _, k := range l.Known {
		times = append(times, k.Until)
	}
	for _, a := range l.Addresses {
		times = append(times, a.LockedUntil, a.LastWrong.Add(LoginLockTime))
	}
	for _, p := range l.Signing {
		times = append(times, p.Start.Add(PartyDay))
	}
	l.PurgeAt = slices.MaxFunc(times, time.Time.Compare)
	return tx.PutCabinetLogin(l)
}
