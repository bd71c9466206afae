package document

import (
	"strings"

	"contracts/server/i18n"
	"contracts/signflow"
)

// Ledger is a contract's ledger as people read it, in the words of t
// (the console's or the cabinet's dictionary, which hold the document's).
type Ledger struct {
	Total, Paid, Balance string
	Items                []LedgerItem
	Receipts             []Receipt
}

// LedgerItem is one payment owed.
type LedgerItem struct {
	N                               int
	Kind, Amount, Due, Paid, Status string
	StatusClass                     string // pending, partial, paid, overdue
}

// Receipt is one payment received; a cancelled one pays nothing.
type Receipt struct {
	Amount, PaidAt, Method, Reference string
	Cancelled                         bool
}

// LedgerOf words the ledger.
func LedgerOf(l *signflow.Ledger, t i18n.Dict) *Ledger {
	money := func(minor int64) string { return Money(minor, l.Currency) }
	out := &Ledger{Total: money(l.Total), Paid: money(l.Paid), Balance: money(l.Balance)}
	for _, it := range l.Items {
		due := t["payment.dueAtActivation"]
		if it.Due != nil {
			due = Date(*it.Due)
		}
		out.Items = append(out.Items, LedgerItem{N: it.N, Kind: t.Or("payment.kind."+it.Kind, it.Kind), Amount: money(it.Amount),
			Due: due, Paid: money(it.Paid), Status: t.Or("payment.status."+it.Status, it.Status), StatusClass: strings.ToLower(it.Status)})
	}
	for _, r := range l.Receipts {
		out.Receipts = append(out.Receipts, Receipt{Amount: money(r.Amount), PaidAt: Date(r.PaidAt),
			Method: t.Or("payment.method."+r.Method, r.Method), Reference: r.Reference, Cancelled: !r.Counts()})
	}
	return out
}
