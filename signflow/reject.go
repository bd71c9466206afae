package signflow

import (
	"context"
	"fmt"
	"time"
)

// IntentReject marks an identity check started to confirm a rejection.
const IntentReject = "reject"

// A rejection through a signing session is the signer's act, so it is
// confirmed as a signature of the session's method would be: an SMS code
// (RejectWithCode), the identity check (StartRejectIdentity, finished by
// FinishIdentity) or an E-IMZO signature of RejectContent
// (RejectWithEIMZO). The audit event names the method. Holding the link
// alone rejects nothing: whoever opened the session (the creator's app)
// holds it too.

// RejectContent is the text an E-IMZO rejection signs: the document hash
// behind a prefix, so that a signature of the contract can never pass for
// its rejection, nor the other way round.
func RejectContent(hash string) string { return "REJECT:" + hash }

// RejectWithCode checks an SMS code of an OTP_SMS session (sent by
// SendCodeFor with IntentReject, counted as ConfirmCode counts it) and,
// when it is right, rejects the contract for the session's party.
func (s *Service) RejectWithCode(token, code string, actor Actor) (*SessionResult, error) {
	return s.checkCode(token, code, IntentReject, actor, func(tx Tx, sess *SignSession, c *Contract, now time.Time) error {
		return s.completeRejection(tx, sess, c, actor, MethodOTP, "", now)
	})
}

// StartRejectIdentity begins the MY_ID or ABLE_ID check of a session to
// confirm its rejection; FinishIdentity then rejects instead of signing.
func (s *Service) StartRejectIdentity(token string, actor Actor) (string, error) {
	return s.startIdentity(token, IntentReject, actor)
}

// RejectWithEIMZO accepts the E-IMZO signature of RejectContent by the
// signer of an E_IMZO session, verified through the E-IMZO server outside
// any transaction, and rejects the contract for the session's party. The
// audit event keeps the certificate that signed it.
func (s *Service) RejectWithEIMZO(ctx context.Context, token, pkcs7 string, actor Actor) (*SessionResult, error) {
	sess, hash, cert, err := s.verifyEIMZO(ctx, token, pkcs7, RejectContent, actor)
	if err != nil {
		return nil, err
	}
	detail := fmt.Sprintf("E-IMZO certificate %s (%s)", cert.SerialNumber, cert.CommonName)
	return s.rejectConfirmed(sess.ID, MethodEIMZO, hash, actor, detail)
}

// rejectConfirmed rejects once an outside service has confirmed the
// signer; hash, when set, must still be the contract's.
func (s *Service) rejectConfirmed(sessionID, method, hash string, actor Actor, detail string) (*SessionResult, error) {
	return s.actConfirmed(sessionID, method, hash, func(tx Tx, sess *SignSession, c *Contract, now time.Time) error {
		return s.completeRejection(tx, sess, c, actor, method, detail, now)
	})
}

// RejectUnconfirmed refuses a rejection that brings no confirmation, with
// what the session's method asks for; it changes nothing.
func (s *Service) RejectUnconfirmed(token string) error {
	return s.store.View(func(tx Tx) error {
		sess, c, err := liveSession(tx, token, s.opt.Now())
		if err != nil {
			return err
		}
		if c.Witness(sess.SignerIN) != nil {
			return ErrWitnessRejects
		}
		switch sess.Method {
		case MethodOTP:
			return Errorf(EINVALID, "code: a rejection is confirmed with the SMS code sent to the signer; ask for one first.")
		case MethodEIMZO:
			return Errorf(EINVALID, "pkcs7: a rejection is confirmed with an E-IMZO signature of REJECT:<document hash>.")
		}
		return Errorf(EINVALID, "A rejection is confirmed through the identity check of %s; start it with intent reject.", sess.Method)
	})
}
