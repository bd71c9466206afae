package signflow

import (
	"slices"
	"time"
)

// NotifySMS is the one way of telling a signer there is something to
// sign: a text with the link.
const NotifySMS = "SMS"

// Audit-only events of the texts the service sends of itself.
const (
	// AuditLinkSent: a signing link, or an invitation to the cabinet,
	// texted to a signer.
	AuditLinkSent = "LINK_SENT"
	// AuditReminderSent: a reminder texted to a signer who has not signed.
	AuditReminderSent = "REMINDER_SENT"
)

func checkNotify(notify string) error {
	if notify != "" && notify != NotifySMS {
		return Errorf(EINVALID, "notify: must be SMS")
	}
	return nil
}

// signerPhone is the phone the contract's creator's tenant holds for the
// party; "" when it holds none.
func signerPhone(tx Tx, c *Contract, in string) (string, error) {
	rec, err := partyRecord(tx, c, in)
	if err != nil || rec == nil {
		return "", err
	}
	return rec.Phone, nil
}

// invitees are the signers a contract created with notify is texted to:
// every party and witness but the creating key's owner.
func invitees(c *Contract, owner string) []string {
	var out []string
	signers := []string{c.SellerIN, c.BuyerIN}
	for _, w := range c.Witnesses {
		signers = append(signers, w.IN)
	}
	for _, in := range signers {
		if in != owner && !slices.Contains(out, in) {
			out = append(out, in)
		}
	}
	return out
}

// noticeSent records, in the caller's transaction, a first text to a
// signer, and sets the reminder that follows it when reminders are on.
func (s *Service) noticeSent(tx Tx, c *Contract, tm Timer, actor Actor, what string, now time.Time) error {
	err := tx.AddAudit(&AuditEvent{ID: NewID(), ContractID: c.ID, Type: AuditLinkSent, ActorIN: actor.IN, At: now,
		IP: actor.IP, UserAgent: actor.UserAgent, Hash: c.Hash, SessionID: tm.SessionID, Detail: what + " to " + tm.SignerIN + " by SMS"})
	if err != nil || s.opt.Reminders <= 0 || s.opt.RemindEvery <= 0 {
		return err
	}
	tm.Kind, tm.Subject, tm.ContractID, tm.At = TimerReminder, reminderSubject(c.ID, tm.SignerIN), c.ID, now.Add(s.opt.RemindEvery)
	return tx.PutTimer(&tm)
}

// invite texts, in the creating transaction, an invitation to the cabinet
// to every invitee with a known phone; the texts are returned to send
// once it commits.
func (s *Service) invite(tx Tx, c *Contract, in *ContractInput, actor Actor, now time.Time) ([]queuedText, error) {
	if in.Notify != NotifySMS {
		return nil, nil
	}
	owner, err := tx.Owner(c.CreatorIN)
	if ErrorCode(err) == ENOTFOUND {
		owner = &Client{LegalName: c.CreatorIN, Type: ClientCompany}
	} else if err != nil {
		return nil, err
	}
	link := in.CabinetURL + "?lang=" + in.Lang
	var out []queuedText
	for _, party := range invitees(c, c.CreatorIN) {
		phone, err := signerPhone(tx, c, party)
		if err != nil {
			return nil, err
		} else if phone == "" {
			continue
		}
		text := s.opt.Texts.Render(SMSCabinetInvite, in.Lang, map[string]string{"owner": owner.Name(), "number": c.Number, "url": link})
		out = append(out, queuedText{phone, text})
		if err := s.noticeSent(tx, c, Timer{SignerIN: party, Lang: in.Lang, Link: link}, actor, "cabinet invitation", now); err != nil {
			return nil, err
		}
	}
	return out, nil
}
