package signflow

import (
	"slices"
	"time"
)

// Kinds of the ledger's items.
const (
	ItemInitial   = "INITIAL"
	ItemScheduled = "SCHEDULED"
)

// Statuses of the ledger's items.
const (
	ItemPending = "PENDING"
	ItemPartial = "PARTIAL"
	ItemPaid    = "PAID"
	ItemOverdue = "OVERDUE"
)

// How a receipt was paid. The first two come from the providers; the
// others are recorded by the seller.
const (
	PayPayme = "PAYME"
	PayClick = "CLICK"
	PayCash  = "CASH"
	PayBank  = "BANK"
	PayCard  = "CARD"
)

// RecordedMethods are the methods a seller may record by hand.
var RecordedMethods = []string{PayCash, PayBank, PayCard}

// Receipt is money received against a contract, in minor units.
// CancelledAt is set when the provider cancelled the payment after it was
// performed: the receipt stays in the ledger but pays nothing.
type Receipt struct {
	ID          string     `json:"id"`
	ContractID  string     `json:"contractId"`
	Amount      int64      `json:"amount"`
	PaidAt      time.Time  `json:"paidAt"`
	Method      string     `json:"method"`
	Reference   string     `json:"reference"`
	RecordedBy  string     `json:"recordedBy"`
	CancelledAt *time.Time `json:"cancelledAt,omitempty"`
	CreatedAt   time.Time  `json:"createdAt"`
}

// Counts reports whether the receipt pays anything.
func (r *Receipt) Counts() bool { return r.CancelledAt == nil }

// Ledger is what a contract owes and what was paid against it.
type Ledger struct {
	Currency string
	Total    int64
	Paid     int64
	Balance  int64
	Items    []LedgerItem
	Receipts []*Receipt
}

// LedgerItem is one payment the contract owes. Due is nil while the
// contract is not yet in force and the item falls due at activation.
type LedgerItem struct {
	N      int
	Kind   string
	Amount int64
	Due    *time.Time
	Paid   int64
	Status string
}

// ActivatedAt is when the contract came into force: its last signature;
// nil while it is not ACTIVE or COMPLETED.
func (c *Contract) ActivatedAt() *time.Time {
	if c.Status != StatusActive && c.Status != StatusCompleted {
		return nil
	}
	var at time.Time
	for _, s := range c.Signatures {
		if s != nil && s.At.After(at) {
			at = s.At
		}
	}
	if at.IsZero() {
		at = c.UpdatedAt
	}
	return &at
}

// plan lists what the contract owes, oldest first: the initial payment
// due at activation, then each scheduled payment on its date; with no
// schedule, the price less the initial payment due at activation.
func plan(c *Contract) []LedgerItem {
	active := c.ActivatedAt()
	var items []LedgerItem
	add := func(kind string, amount int64, due *time.Time) {
		if amount > 0 {
			items = append(items, LedgerItem{N: len(items) + 1, Kind: kind, Amount: amount, Due: due})
		}
	}
	add(ItemInitial, c.InitialPayment, active)
	if len(c.Payments) == 0 {
		add(ItemScheduled, c.Price-c.InitialPayment, active)
		return items
	}
	sched := slices.Clone(c.Payments)
	slices.SortStableFunc(sched, func(a, b Payment) int { return a.PaymentDate.Compare(b.PaymentDate) })
	for _, p := range sched {
		due := p.PaymentDate
		add(ItemScheduled, p.Amount, &due)
	}
	return items
}

// BuildLedger applies the receipts that count to the plan, oldest items
// first. An item is OVERDUE once the UTC day of its due date has passed
// and it is not paid in full.
func BuildLedger(c *Contract, receipts []*Receipt, now time.Time) *Ledger {
	l := &Ledger{Currency: c.Currency, Items: plan(c), Receipts: receipts}
	if l.Receipts == nil {
		l.Receipts = []*Receipt{}
	}
	for _, r := range receipts {
		if r.Counts() {
			l.Paid += r.Amount
		}
	}
	left := l.Paid
	for i := range l.Items {
		it := &l.Items[i]
		l.Total += it.Amount
		it.Paid = min(left, it.Amount)
		left -= it.Paid
		switch {
		case it.Paid == it.Amount:
			it.Status = ItemPaid
		case it.Due != nil && !now.Before(it.Due.UTC().Truncate(24*time.Hour).Add(24*time.Hour)):
			it.Status = ItemOverdue
		case it.Paid > 0:
			it.Status = ItemPartial
		default:
			it.Status = ItemPending
		}
	}
	l.Balance = max(l.Total-l.Paid, 0)
	return l
}

// NextOpen is the first item not paid in full, or nil.
func (l *Ledger) NextOpen() *LedgerItem {
	for i := range l.Items {
		if l.Items[i].Paid < l.Items[i].Amount {
			return &l.Items[i]
		}
	}
	return nil
}
