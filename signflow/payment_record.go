package signflow

import (
	"encoding/json"
	"slices"
	"time"

	"github.com/google/uuid"
)

// WebhookPayment is the receipt a PAYMENT_ACCEPTED body carries; Amount
// is in the target interface's unit.
type WebhookPayment struct {
	ID        string      `json:"id"`
	Amount    json.Number `json:"amount"`
	PaidAt    string      `json:"paidAt"`
	Method    string      `json:"method"`
	Reference string      `json:"reference"`
}

// PaymentInput is a payment the seller records by hand; Amount in minor units.
type PaymentInput struct {
	Amount    int64
	PaidAt    time.Time
	Method    string
	Reference string
}

// maxReference bounds a receipt's reference.
const maxReference = 200

// Ledger returns the ledger of a contract the caller may read.
func (s *Service) Ledger(a *Access, id string) (*Ledger, error) {
	if err := mayRead(a, id); err != nil {
		return nil, err
	}
	var l *Ledger
	err := s.store.View(func(tx Tx) error {
		c, err := reachable(tx, a, id)
		if err != nil {
			return err
		}
		l, err = ledgerOf(tx, c, s.opt.Now())
		return err
	})
	return l, err
}

func ledgerOf(tx Tx, c *Contract, now time.Time) (*Ledger, error) {
	receipts, err := tx.Receipts(c.ID)
	if err != nil {
		return nil, err
	}
	return BuildLedger(c, receipts, now), nil
}

// RecordPayment records money the seller received. The same reference
// again answers the first receipt.
func (s *Service) RecordPayment(a *Access, id string, in PaymentInput, actor Actor) (*Receipt, error) {
	if err := a.Require(ScopeContractsWrite); err != nil {
		return nil, err
	}
	if a.Interface != Embedded && a.Interface != KeyInterface {
		return nil, Errorf(EFORBIDDEN, "Only the seller's apps and keys record payments.")
	}
	actor.IN = a.OwnerIN
	return s.recordPayment(id, in, actor, "", a.OwnerIN, func(tx Tx, c *Contract) error {
		if err := canReach(tx, a, c); err != nil {
			return err
		}
		if c.SellerIN != a.OwnerIN {
			return Errorf(EFORBIDDEN, "Only the seller records payments received.")
		}
		return nil
	})
}

// AdminRecordPayment records, from the console, money the seller
// received; the receipt and the audit trail name the administrator.
func (s *Service) AdminRecordPayment(id string, in PaymentInput, actor Actor) (*Receipt, error) {
	actor.IN = ""
	return s.recordPayment(id, in, actor, ConfirmAdmin, RecordedByAdmin, func(Tx, *Contract) error { return nil })
}

// RecordedByAdmin is the recordedBy of a receipt the administrator recorded.
const RecordedByAdmin = "ADMIN"

func (s *Service) recordPayment(id string, in PaymentInput, actor Actor, method, recordedBy string, may func(Tx, *Contract) error) (*Receipt, error) {
	if uuid.Validate(id) != nil {
		return nil, Errorf(ENOTFOUND, "Contract not found.")
	}
	now := UTC(s.opt.Now())
	if err := in.check(now); err != nil {
		return nil, err
	}
	var r *Receipt
	err := s.store.Update(func(tx Tx) error {
		r = nil
		c, err := tx.Contract(id)
		if err != nil {
			return notFound(err, "Contract not found.")
		}
		if err := may(tx, c); err != nil {
			return err
		}
		if in.Reference != "" {
			if r, err = receiptByReference(tx, c.ID, in.Reference); r != nil || err != nil {
				return err
			}
		}
		r = &Receipt{ID: newOrderedID(), ContractID: c.ID, Amount: in.Amount, PaidAt: UTC(in.PaidAt), Method: in.Method,
			Reference: in.Reference, RecordedBy: recordedBy, CreatedAt: now}
		_, err = s.accept(tx, c, r, actor, method)
		return err
	})
	if err != nil {
		return nil, err
	}
	return r, nil
}

// AdminLedger returns the ledger of any contract.
func (s *Service) AdminLedger(id string) (*Ledger, error) {
	if uuid.Validate(id) != nil {
		return nil, Errorf(ENOTFOUND, "Contract not found.")
	}
	var l *Ledger
	err := s.store.View(func(tx Tx) error {
		c, err := tx.Contract(id)
		if err != nil {
			return notFound(err, "Contract not found.")
		}
		l, err = ledgerOf(tx, c, s.opt.Now())
		return err
	})
	return l, err
}

func (in *PaymentInput) check(now time.Time) error {
	switch {
	case in.Amount <= 0:
		return Errorf(EINVALID, "amount: must be above 0")
	case in.Amount > MaxMoney:
		return Errorf(EINVALID, "amount: must not exceed %d", MaxMoney)
	case !slices.Contains(RecordedMethods, in.Method):
		return Errorf(EINVALID, "method: must be one of CASH, BANK, CARD")
	case in.PaidAt.IsZero():
		return Errorf(EINVALID, "paidAt: is required")
	case in.PaidAt.After(now):
		return Errorf(EINVALID, "paidAt: must not be in the future")
	case len(in.Reference) > maxReference:
		return Errorf(EINVALID, "reference: must be at most %d bytes", maxReference)
	}
	return nil
}

func receiptByReference(tx Tx, contractID, ref string) (*Receipt, error) {
	receipts, err := tx.Receipts(contractID)
	if err != nil {
		return nil, err
	}
	for _, r := range receipts {
		if r.Reference == ref {
			return r, nil
		}
	}
	return nil, nil
}

// accept writes a receipt against the contract c read in tx, in that
// transaction: it refuses a contract not ACTIVE and an amount above the
// balance, moves the contract's version on (so that two receipts at once
// are serialised by the contract), completes the contract when the
// balance reaches 0 and its template says completeWhenPaid, and records
// PAYMENT_ACCEPTED. It returns the ledger after the receipt.
func (s *Service) accept(tx Tx, c *Contract, r *Receipt, actor Actor, method string) (*Ledger, error) {
	if c.Status != StatusActive {
		return nil, Errorf(EINVALID, "The contract is %s; payments are taken only on an ACTIVE contract.", c.Status)
	}
	now := UTC(s.opt.Now())
	l, err := ledgerOf(tx, c, now)
	if err != nil {
		return nil, err
	}
	if r.Amount <= 0 || r.Amount > l.Balance {
		return nil, Errorf(EINVALID, "amount: must be above 0 and at most the balance, %d minor units", l.Balance)
	}
	if err := tx.PutReceipt(r); err != nil {
		return nil, err
	}
	l = BuildLedger(c, append(l.Receipts, r), now)
	events := []string{EventPaymentAccepted}
	if l.Balance == 0 {
		t, err := tx.Template(c.TemplateID)
		if err != nil {
			return nil, err
		}
		if t.CompleteWhenPaid {
			events = append(events, c.completePaid()...)
		}
	}
	c.touch(now)
	if err := putChange(tx, c); err != nil {
		return nil, err
	}
	add := func(b *WebhookBody, embedded bool) {
		if b.Event != EventPaymentAccepted {
			return
		}
		money := MinorNumber
		if embedded {
			money = MajorNumber
		}
		b.Payment = &WebhookPayment{ID: r.ID, Amount: money(r.Amount), PaidAt: r.PaidAt.UTC().Format(time.RFC3339),
			Method: r.Method, Reference: r.Reference}
		b.Balance = money(l.Balance)
	}
	return l, s.recordWhy(tx, c, events, actor, method, "", why{add: add})
}
