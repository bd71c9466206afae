package signflow

import "time"

// Refusals of a signing session. The signing page turns each into the
// message of its ERROR event, so they carry no data.
var (
	ErrSessionNotFound = &Error{Code: ENOTFOUND, Message: "Signing session not found."}
	ErrSessionExpired  = &Error{Code: EFORBIDDEN, Message: "The signing session has expired; ask for a new link."}
	ErrSessionClosed   = &Error{Code: EFORBIDDEN, Message: "The signing session is closed."}
)

// SigningView is what the signing page shows: the session and the contract
// it signs.
type SigningView struct {
	Session  *SignSession
	Contract *ContractView
	// Code describes the SMS code in force, if one was sent and is still valid.
	Code *CodeSent
}

// SessionResult is a session after the customer acted on it, with its contract.
type SessionResult struct {
	Session  *SignSession
	Contract *Contract
}

// SigningSession resolves the token of a signing page. An unknown token is
// ErrSessionNotFound. A session that can no longer sign is ErrSessionExpired
// or ErrSessionClosed; the view then still holds the session (and no
// contract), so that the page can reach its parent origin.
func (s *Service) SigningSession(token string) (*SigningView, error) {
	now := s.opt.Now()
	var v *SigningView
	err := s.store.View(func(tx Tx) error {
		sess, c, err := liveSession(tx, token, now)
		if sess != nil {
			v = &SigningView{Session: sess}
		}
		if err != nil {
			return err
		}
		if v.Contract, err = viewOf(tx, c); err != nil {
			return err
		}
		// The signer as the creator's tenant knows it: the phone codes go to.
		if v.Code = codeState(sess, now); v.Code != nil {
			signer := v.Contract.Seller
			switch {
			case c.BuyerIN == sess.SignerIN:
				signer = v.Contract.Buyer
			case c.Witness(sess.SignerIN) != nil:
				if signer, err = partyRecord(tx, c, sess.SignerIN); err != nil {
					return err
				}
			}
			if signer != nil {
				v.Code.Phone = MaskPhone(signer.Phone)
			}
		}
		return nil
	})
	return v, err
}

// rejectSession rejects through the session of token; check, when set,
// first vets the session and its contract, and method is the confirmation
// the rejection had, for the audit trail.
func (s *Service) rejectSession(token string, actor Actor, check func(Tx, *SignSession, *Contract) error, method string) (*SessionResult, error) {
	now := s.opt.Now()
	var out *SessionResult
	err := s.store.Update(func(tx Tx) error {
		sess, c, err := liveSession(tx, token, now)
		if err != nil {
			return err
		}
		if check != nil {
			if err := check(tx, sess, c); err != nil {
				return err
			}
		}
		out = &SessionResult{Session: sess, Contract: c}
		return s.completeRejection(tx, sess, c, actor, method, "", now)
	})
	return out, err
}

// completeRejection rejects the contract for the session's party and
// closes the session as REJECTED, in the caller's transaction, naming
// method (and detail, when set) as the rejection's confirmation.
func (s *Service) completeRejection(tx Tx, sess *SignSession, c *Contract, actor Actor, method, detail string, now time.Time) error {
	events, err := c.Reject(sess.SignerIN, now)
	if err != nil {
		return err
	}
	if err := putChange(tx, c); err != nil {
		return err
	}
	closeSession(sess, SessionRejected, now)
	if err := tx.PutSession(sess); err != nil {
		return err
	}
	actor.IN = sess.SignerIN
	return s.recordWhy(tx, c, events, actor, method, sess.ID, why{detail: detail})
}

// completeSignature signs the contract for the session's party and closes
// the session as SIGNED, in the caller's transaction. Every signing method
// ends here once the signer is confirmed; evidence, when set, brings the
// signer's own signature and certificate (E_IMZO).
func (s *Service) completeSignature(tx Tx, sess *SignSession, c *Contract, actor Actor, now time.Time, evidence *Signature) error {
	actor.IN = sess.SignerIN
	sig := Signature{Method: sess.Method, At: UTC(now), IP: actor.IP, UserAgent: actor.UserAgent, SessionID: sess.ID}
	if evidence != nil {
		sig.PKCS7, sig.Certificate = evidence.PKCS7, evidence.Certificate
	}
	events, err := c.Sign(sess.SignerIN, sig, now)
	if err != nil {
		return err
	}
	if c.Status == StatusActive {
		if err := s.schedulePaymentReminders(tx, c, UTC(now)); err != nil {
			return err
		}
	}
	if err := putChange(tx, c); err != nil {
		return err
	}
	closeSession(sess, SessionSigned, now)
	if err := tx.PutSession(sess); err != nil {
		return err
	}
	return s.record(tx, c, events, actor, sess.Method, sess.ID)
}

// liveSession finds the session of a token and its contract, and checks
// that the session can still sign. A session found but unable to sign is
// returned with its refusal, so that the page can still reach its parent.
func liveSession(tx Tx, token string, now time.Time) (*SignSession, *Contract, error) {
	sess, err := sessionByToken(tx, token)
	if err != nil {
		return nil, nil, err
	}
	c, err := sessionCanSign(tx, sess, now)
	return sess, c, err
}

// SessionID returns the id of the session of a signing page's token, in
// any state, or ErrSessionNotFound: the page's rate limit keeps a budget
// per real session.
func (s *Service) SessionID(token string) (string, error) {
	var id string
	err := s.store.View(func(tx Tx) error {
		sess, err := sessionByToken(tx, token)
		if err == nil {
			id = sess.ID
		}
		return err
	})
	return id, err
}

// sessionByToken finds the session of a signing page's token, in any state.
func sessionByToken(tx Tx, token string) (*SignSession, error) {
	if token == "" || len(token) > 256 {
		return nil, ErrSessionNotFound
	}
	sess, err := tx.SessionByToken(HashSecret(token))
	if ErrorCode(err) == ENOTFOUND {
		return nil, ErrSessionNotFound
	} else if err != nil {
		return nil, err
	}
	return sess, nil
}

// sessionCanSign checks that a session can still sign: PENDING, not past
// its expiry, its contract CREATED and its party not yet decided. It
// returns the contract.
func sessionCanSign(tx Tx, sess *SignSession, now time.Time) (*Contract, error) {
	if sess.EffectiveStatus(now) != SessionPending {
		if sess.Status == SessionPending || sess.Status == SessionExpired && !now.Before(sess.ExpiresAt) {
			return nil, ErrSessionExpired
		}
		return nil, ErrSessionClosed
	}
	c, err := tx.Contract(sess.ContractID)
	if err != nil {
		return nil, err
	}
	if c.Status != StatusCreated || c.PartyStatus(sess.SignerIN) != PartyPending {
		return nil, ErrSessionClosed
	}
	return c, nil
}

// closeSession ends a session with a final status; a code in force dies with it.
func closeSession(sess *SignSession, status string, at time.Time) {
	t := UTC(at)
	sess.Status, sess.CompletedAt = status, &t
	if sess.OTP != nil {
		sess.OTP.CodeHash = nil
	}
}

// auditSession writes an audit-only event about a session of contract c
// (nil when it is gone) in the caller's transaction. Such events (a code
// sent, a wrong code, a session closed) confirm nothing, so they name no
// confirmation method.
func (s *Service) auditSession(tx Tx, c *Contract, sess *SignSession, typ string, actor Actor, detail string) error {
	hash := ""
	if c != nil {
		hash = c.Hash
	}
	return tx.AddAudit(&AuditEvent{ID: NewID(), ContractID: sess.ContractID, Type: typ, ActorIN: actor.IN, At: UTC(s.opt.Now()),
		IP: actor.IP, UserAgent: actor.UserAgent, Hash: hash, SessionID: sess.ID, Detail: detail})
}
