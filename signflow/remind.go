package signflow

import (
	"errors"
	"fmt"
	"time"
)

// remind texts a notified signer who has not signed a reminder, in the
// timer's transaction, and sets the next one; the timer ends once the
// contract leaves CREATED, the signer signs or the reminders are spent.
// Where the first text was a session's link, the reminder carries the
// link of a fresh session, which counts against the party's sessions per
// hour: past that cap the reminder waits for its next turn.
func (s *Service) remind(tx Tx, tm *Timer, now time.Time) (*queuedText, error) {
	c, err := tx.Contract(tm.ContractID)
	if err != nil && ErrorCode(err) != ENOTFOUND {
		return nil, err
	}
	if err != nil || c.Status != StatusCreated || c.PartyStatus(tm.SignerIN) != PartyPending ||
		tm.Sent >= s.opt.Reminders || s.opt.RemindEvery <= 0 {
		return nil, tx.DeleteTimer(tm.Kind, tm.Subject)
	}
	phone, err := signerPhone(tx, c, tm.SignerIN)
	if err != nil || phone == "" {
		return nil, errors.Join(err, tx.DeleteTimer(tm.Kind, tm.Subject))
	}
	link, sessionID := tm.Link, ""
	if tm.SessionID != "" {
		var capped *SessionCapError
		token, sess, err := s.reopen(tx, c, tm, now)
		if errors.As(err, &capped) {
			tm.At = now.Add(s.opt.RemindEvery)
			return nil, tx.PutTimer(tm)
		} else if code := ErrorCode(err); code == EINVALID || code == ENOTFOUND {
			return nil, tx.DeleteTimer(tm.Kind, tm.Subject) // the signer can no longer sign this way
		} else if err != nil {
			return nil, err
		}
		link, sessionID = tm.Link+token, sess.ID
	}
	tm.Sent++
	err = tx.AddAudit(&AuditEvent{ID: NewID(), ContractID: c.ID, Type: AuditReminderSent, At: now, Hash: c.Hash, SessionID: sessionID,
		Detail: fmt.Sprintf("reminder %d of %d to %s by SMS", tm.Sent, s.opt.Reminders, tm.SignerIN)})
	if err != nil {
		return nil, err
	}
	if tm.Sent >= s.opt.Reminders {
		err = tx.DeleteTimer(tm.Kind, tm.Subject)
	} else {
		tm.At = now.Add(s.opt.RemindEvery)
		err = tx.PutTimer(tm)
	}
	text := s.opt.Texts.Render(SMSReminder, tm.Lang, map[string]string{"number": c.Number, "url": link})
	return &queuedText{phone, text}, err
}

// reopen opens, for a reminder, a session like the one whose link was
// texted first, and returns it with its token.
func (s *Service) reopen(tx Tx, c *Contract, tm *Timer, now time.Time) (string, *SignSession, error) {
	first, err := tx.Session(tm.SessionID)
	if err != nil {
		return "", nil, err
	}
	method, err := s.methodFor(tx, c, tm.SignerIN)
	if err != nil {
		return "", nil, err
	}
	if err := s.capSessions(tx, c.ID, tm.SignerIN, now); err != nil {
		return "", nil, err
	}
	token := RandomToken(32)
	sess := &SignSession{ID: NewID(), TokenHash: HashSecret(token), ContractID: c.ID, SignerIN: tm.SignerIN, AppID: first.AppID,
		Lang: first.Lang, ParentOrigin: first.ParentOrigin, RedirectURL: first.RedirectURL, Method: method, Status: SessionPending,
		CreatedAt: now, ExpiresAt: s.sessionEnd(c, now), NotifiedAt: &now}
	if err := tx.PutSession(sess); err != nil {
		return "", nil, err
	}
	err = tx.AddAudit(&AuditEvent{ID: NewID(), ContractID: c.ID, Type: AuditSessionOpened, At: now, Hash: c.Hash, SessionID: sess.ID,
		Detail: "signer " + tm.SignerIN + ", to confirm with " + method + ", for a reminder"})
	return token, sess, err
}
