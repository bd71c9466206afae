package signflow

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"fmt"
	"math/big"
	"strings"
	"time"
)

// Limits of OTP_SMS signing (spec "Limits", docs/decisions.md).
const (
	CodeDigits    = 5
	MaxCodeSends  = 5
	MaxWrongCodes = 5
	ResendAfter   = 60 * time.Second
)

// Refusals of the SMS-code steps.
var (
	ErrNotOTP         = &Error{Code: EINVALID, Message: "This session is not confirmed with an SMS code."}
	ErrNoCode         = &Error{Code: EINVALID, Message: "No code has been sent yet; ask for one first."}
	ErrCodeExpired    = &Error{Code: EINVALID, Message: "The code has expired; ask for a new one."}
	ErrCodeFormat     = &Error{Code: EINVALID, Message: "code: must be 5 digits"}
	ErrSendsExhausted = &Error{Code: EINVALID, Message: "The code was sent 5 times; no more codes can be sent for this session."}
	ErrTooManyWrong   = &Error{Code: EFORBIDDEN, Message: "Five wrong codes: the signing session is closed."}
	ErrCodeIntent     = &Error{Code: EINVALID, Message: "The code in force was sent for another action (signing or rejecting); ask for a new code."}
)

// WrongCodeError is a wrong SMS code; Left attempts remain before the
// session closes.
type WrongCodeError struct{ Left int }

func (e *WrongCodeError) Error() string { return e.Unwrap().Error() }

// Unwrap presents the refusal as EINVALID with a message naming the attempts left.
func (e *WrongCodeError) Unwrap() error {
	return Errorf(EINVALID, "Wrong code: %d attempt(s) left.", e.Left)
}

// ResendWaitError refuses a new code before ResendAfter has passed since the last one.
type ResendWaitError struct{ After time.Duration }

func (e *ResendWaitError) Error() string { return e.Unwrap().Error() }

// Unwrap presents the refusal as ERATELIMIT.
func (e *ResendWaitError) Unwrap() error {
	return Errorf(ERATELIMIT, "A new code can be sent in %d seconds.", int((e.After+time.Second-1)/time.Second))
}

// CodeSent tells the signing page where the code went and what it may do next.
type CodeSent struct {
	Phone     string        // masked
	ExpiresIn time.Duration // lifetime left of the code
	ResendIn  time.Duration // wait before a new code may be asked for
	SendsLeft int
	Intent    string // what the code confirms: "" a signature, IntentReject a rejection
}

// codePhone is the phone a signer's SMS codes go to: the one the
// contract's creator's tenant holds for the signer. Without one, no
// session by SMS code opens and no code is sent.
func codePhone(tx Tx, c *Contract, signerIN string) (string, error) {
	rec, err := partyRecord(tx, c, signerIN)
	if err != nil {
		return "", err
	}
	if rec == nil || rec.Phone == "" {
		return "", Errorf(EINVALID, "signerIn: the signer has no registered phone for SMS codes; the contract's creator must register the client first")
	}
	return rec.Phone, nil
}

// SendCode sends a new SMS code for an OTP_SMS session, to the phone the
// contract's creator's tenant holds for the signer. The code is held
// only as an HMAC; the message, sent once the change is committed, holds
// the code and the contract number. When the provider fails, the send is
// undone so that it can be retried at once.
func (s *Service) SendCode(ctx context.Context, token string, actor Actor) (*CodeSent, error) {
	return s.SendCodeFor(ctx, token, "", actor)
}

// SendCodeFor is SendCode for intent: "" a signature, IntentReject a
// rejection, whose text says so. The code then confirms only that act;
// sends and wrong codes count together whatever they were for.
func (s *Service) SendCodeFor(ctx context.Context, token, intent string, actor Actor) (*CodeSent, error) {
	kind := SMSSignCode
	switch intent {
	case "":
	case IntentReject:
		kind = SMSRejectCode
	default:
		return nil, Errorf(EINVALID, "intent: must be empty or reject")
	}
	code := newCode()
	now := s.opt.Now()
	var (
		out         *CodeSent
		prev        *OTPState
		sessID      string
		phone, text string
	)
	err := s.store.Update(func(tx Tx) error {
		sess, c, err := liveSession(tx, token, now)
		if err != nil {
			return err
		}
		if sess.Method != MethodOTP {
			return ErrNotOTP
		}
		to, err := codePhone(tx, c, sess.SignerIN)
		if err != nil {
			return err
		}
		o := OTPState{}
		if prev = nil; sess.OTP != nil {
			o, prev = *sess.OTP, sess.OTP
		}
		if o.Sends >= MaxCodeSends {
			return ErrSendsExhausted
		}
		if wait := o.LastSentAt.Add(ResendAfter).Sub(now); o.Sends > 0 && wait > 0 {
			return &ResendWaitError{After: wait}
		}
		if err := s.countCode(tx, c.CreatorIN, sess.SignerIN, now); err != nil {
			return err
		}
		o.CodeHash, o.ExpiresAt, o.LastSentAt, o.Intent = s.codeMAC(sess.ID, code), now.Add(s.opt.OTPTTL), now, intent
		o.Sends++
		sess.OTP = &o
		if err := tx.PutSession(sess); err != nil {
			return err
		}
		actor.IN = sess.SignerIN
		if err := s.auditSession(tx, c, sess, AuditCodeSent, actor, fmt.Sprintf("code %d of %d to %s", o.Sends, MaxCodeSends, MaskPhone(to))); err != nil {
			return err
		}
		sessID, phone, text = sess.ID, to, s.opt.Texts.Render(kind, sess.Lang, map[string]string{"code": code, "number": c.Number})
		out = codeState(sess, now)
		out.Phone = MaskPhone(to)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := s.opt.SMS.Send(ctx, phone, text); err != nil {
		if uerr := s.undoSend(sessID, code, prev); uerr != nil {
			return nil, uerr
		}
		if ErrorCode(err) == EINTERNAL {
			return nil, fmt.Errorf("send SMS code: %w", err)
		}
		return nil, err
	}
	return out, nil
}

// undoSend takes back a send the provider refused: the earlier code (if
// any) is in force again and the send is not counted, unless another send
// has replaced the code since. Wrong codes entered meanwhile still count.
func (s *Service) undoSend(sessID, code string, prev *OTPState) error {
	return s.store.Update(func(tx Tx) error {
		sess, err := tx.Session(sessID)
		if err != nil {
			return err
		}
		if sess.OTP == nil || !hmac.Equal(sess.OTP.CodeHash, s.codeMAC(sess.ID, code)) {
			return nil
		}
		c, err := tx.Contract(sess.ContractID)
		if err != nil {
			return err
		}
		if err := s.uncountCode(tx, c.CreatorIN, sess.SignerIN, s.opt.Now()); err != nil {
			return err
		}
		o := *sess.OTP
		o.Sends--
		o.CodeHash, o.ExpiresAt, o.LastSentAt, o.Intent = nil, time.Time{}, time.Time{}, ""
		if prev != nil {
			o.CodeHash, o.ExpiresAt, o.LastSentAt, o.Intent = prev.CodeHash, prev.ExpiresAt, prev.LastSentAt, prev.Intent
		}
		sess.OTP = &o
		return tx.PutSession(sess)
	})
}

// ConfirmCode checks an SMS code in constant time and, when it is right,
// signs the contract for the session's party. A wrong code is a
// *WrongCodeError; the fifth closes the session as EXPIRED (the contract is
// unaffected) and is ErrTooManyWrong.
func (s *Service) ConfirmCode(token, code string, actor Actor) (*SessionResult, error) {
	return s.checkCode(token, code, "", actor, func(tx Tx, sess *SignSession, c *Contract, now time.Time) error {
		return s.completeSignature(tx, sess, c, actor, now, nil)
	})
}

// checkCode checks the SMS code of an OTP_SMS session, sent for intent,
// and, when it is right, runs done (a signature or a rejection) in the
// same transaction. A code sent for the other act is refused uncounted:
// it says nothing of the code.
func (s *Service) checkCode(token, code, intent string, actor Actor, done func(Tx, *SignSession, *Contract, time.Time) error) (*SessionResult, error) {
	if code = strings.TrimSpace(code); !isDigits(code, CodeDigits) {
		return nil, ErrCodeFormat
	}
	now := s.opt.Now()
	var (
		out     *SessionResult
		refusal error
	)
	err := s.store.Update(func(tx Tx) error {
		out, refusal = nil, nil
		sess, c, err := liveSession(tx, token, now)
		if err != nil {
			return err
		}
		if sess.Method != MethodOTP {
			return ErrNotOTP
		}
		o := sess.OTP
		if o == nil || o.CodeHash == nil {
			return ErrNoCode
		}
		if !now.Before(o.ExpiresAt) {
			return ErrCodeExpired
		}
		if o.Intent != intent {
			return ErrCodeIntent
		}
		// The count checked is the count written (one read: on PostgreSQL
		// a second read may see a newer record than the check did).
		login, party, err := s.partyGate(tx, c.CreatorIN, sess.SignerIN, now)
		if err != nil {
			return err
		}
		if hmac.Equal(o.CodeHash, s.codeMAC(sess.ID, code)) {
			out = &SessionResult{Session: sess, Contract: c}
			return done(tx, sess, c, now)
		}
		// A wrong code is committed, then refused.
		o.Wrong++
		party.Wrong++
		if err := putLogin(tx, login); err != nil {
			return err
		}
		actor.IN = sess.SignerIN
		left := MaxWrongCodes - o.Wrong
		if err := s.auditSession(tx, c, sess, AuditCodeWrong, actor, fmt.Sprintf("%d attempt(s) left", max(left, 0))); err != nil {
			return err
		}
		refusal = &WrongCodeError{Left: left}
		if left <= 0 {
			closeSession(sess, SessionExpired, now)
			refusal = ErrTooManyWrong
			if err := s.auditSession(tx, c, sess, AuditSessionClosed, actor, "closed after 5 wrong codes"); err != nil {
				return err
			}
		}
		return tx.PutSession(sess)
	})
	if err != nil {
		return nil, err
	}
	if refusal != nil {
		return nil, refusal
	}
	return out, nil
}

// codeState describes the code in force of a session at now, or nil.
func codeState(sess *SignSession, now time.Time) *CodeSent {
	o := sess.OTP
	if o == nil || o.CodeHash == nil || !now.Before(o.ExpiresAt) {
		return nil
	}
	return &CodeSent{ExpiresIn: o.ExpiresAt.Sub(now), ResendIn: max(o.LastSentAt.Add(ResendAfter).Sub(now), 0),
		SendsLeft: MaxCodeSends - o.Sends, Intent: o.Intent}
}

func (s *Service) codeMAC(sessionID, code string) []byte { return s.mac("otp", sessionID, code) }

// newCode returns CodeDigits uniformly random digits from crypto/rand.
func newCode() string {
	n, err := rand.Int(rand.Reader, big.NewInt(100000))
	if err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return fmt.Sprintf("%05d", n.Int64())
}

// MaskPhone hides the middle of a phone number: "+99890*****67".
func MaskPhone(phone string) string {
	if len(phone) < 7 {
		return strings.Repeat("*", len(phone))
	}
	return "+" + phone[:5] + strings.Repeat("*", len(phone)-7) + phone[len(phone)-2:]
}
