package signflow

import (
	"errors"
	"fmt"
	"strconv"
	"time"
)

// AuditPaymentReminderSent: the buyer texted before an item of the
// schedule falls due.
const AuditPaymentReminderSent = "PAYMENT_REMINDER_SENT"

// schedulePaymentReminders sets, in the transaction that makes the
// contract ACTIVE, one reminder per item of its ledger that falls due
// later: PaymentRemindBefore ahead of it, or at once when that is past.
// Items due at activation are not reminded of: the buyer has just signed.
func (s *Service) schedulePaymentReminders(tx Tx, c *Contract, now time.Time) error {
	if s.opt.PaymentRemindBefore <= 0 {
		return nil
	}
	lang, err := buyerLang(tx, c)
	if err != nil {
		return err
	}
	for _, it := range plan(c) {
		if it.Due == nil || !it.Due.After(now) {
			continue
		}
		at := it.Due.Add(-s.opt.PaymentRemindBefore)
		if at.Before(now) {
			at = now
		}
		err := tx.PutTimer(&Timer{Kind: TimerPayment, Subject: c.ID + "/" + strconv.Itoa(it.N), ContractID: c.ID,
			At: at, Item: it.N, Lang: lang})
		if err != nil {
			return err
		}
	}
	return nil
}

// buyerLang is the language the buyer signed in, by the session of the
// buyer's signature; uz when it is not known.
func buyerLang(tx Tx, c *Contract) (string, error) {
	sig := c.Signatures[c.BuyerIN]
	if sig == nil || sig.SessionID == "" {
		return "uz", nil
	}
	sess, err := tx.Session(sig.SessionID)
	if ErrorCode(err) == ENOTFOUND {
		return "uz", nil
	} else if err != nil {
		return "", err
	}
	return or(sess.Lang, "uz"), nil
}

// remindPayment texts the buyer what is left of the timer's item, once,
// in the timer's transaction. Nothing is sent for an item already paid or
// past its day, for a contract no longer ACTIVE, or to a buyer whose
// phone the creator's tenant does not hold.
func (s *Service) remindPayment(tx Tx, tm *Timer, now time.Time) (*queuedText, error) {
	done := tx.DeleteTimer(tm.Kind, tm.Subject)
	c, err := tx.Contract(tm.ContractID)
	if err != nil && ErrorCode(err) != ENOTFOUND {
		return nil, err
	}
	if err != nil || c.Status != StatusActive || s.opt.PaymentRemindBefore <= 0 {
		return nil, done
	}
	l, err := ledgerOf(tx, c, now)
	if err != nil {
		return nil, err
	}
	var item *LedgerItem
	for i := range l.Items {
		if l.Items[i].N == tm.Item {
			item = &l.Items[i]
		}
	}
	if item == nil || item.Due == nil || item.Paid >= item.Amount || item.Status == ItemOverdue {
		return nil, done
	}
	phone, err := signerPhone(tx, c, c.BuyerIN)
	if err != nil || phone == "" {
		return nil, errors.Join(err, done)
	}
	left := item.Amount - item.Paid
	link, err := s.reminderLink(tx, c, tm.Lang, left)
	if err != nil {
		return nil, err
	}
	err = tx.AddAudit(&AuditEvent{ID: NewID(), ContractID: c.ID, Type: AuditPaymentReminderSent, At: now, Hash: c.Hash,
		Detail: fmt.Sprintf("payment %d of %d minor units due %s, to %s by SMS", item.N, left, item.Due.UTC().Format(time.DateOnly), c.BuyerIN)})
	if err != nil {
		return nil, err
	}
	text := s.opt.Texts.Render(SMSPaymentReminder, tm.Lang, map[string]string{"amount": s.opt.Money(left, c.Currency),
		"date": item.Due.UTC().Format("02.01.2006"), "number": c.Number, "url": link})
	return &queuedText{phone, text}, done
}

// reminderLink is where a payment reminder leads: a pay link for the
// amount when the seller takes payments through Payme (first) or Click,
// else the cabinet.
func (s *Service) reminderLink(tx Tx, c *Contract, lang string, amount int64) (string, error) {
	m, err := tx.Merchant(c.SellerIN)
	if err != nil && ErrorCode(err) != ENOTFOUND {
		return "", err
	}
	if m != nil && c.Currency == "UZS" {
		switch {
		case m.Payme != nil:
			return s.payLinkURL(PayLinkInput{Provider: ProviderPayme}, m, c.Number, amount), nil
		case m.Click != nil:
			return s.payLinkURL(PayLinkInput{Provider: ProviderClick}, m, c.Number, amount), nil
		}
	}
	return s.opt.CabinetURL + "?lang=" + lang, nil
}
