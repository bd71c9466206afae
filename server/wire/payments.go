package wire

import (
	"encoding/json"
	"net/http"

	"contracts/server"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// Ledger is the answer of GET /v1/contracts/{id}/payments; money in the
// interface's unit.
type Ledger struct {
	Currency string        `json:"currency"`
	Total    json.Number   `json:"total"`
	Paid     json.Number   `json:"paid"`
	Balance  json.Number   `json:"balance"`
	Items    []LedgerItem  `json:"items"`
	Receipts []ReceiptJSON `json:"receipts"`
}

// LedgerItem is one payment the contract owes; dueDate is null while the
// contract is not in force and the item falls due at activation.
type LedgerItem struct {
	N       int         `json:"n"`
	Kind    string      `json:"kind"`
	Amount  json.Number `json:"amount"`
	DueDate *Time       `json:"dueDate"`
	Paid    json.Number `json:"paid"`
	Status  string      `json:"status"`
}

// ReceiptJSON is one receipt; cancelledAt is set on a provider's payment
// cancelled after it was performed, which then pays nothing.
type ReceiptJSON struct {
	ID          string      `json:"id"`
	Amount      json.Number `json:"amount"`
	PaidAt      Time        `json:"paidAt"`
	Method      string      `json:"method"`
	Reference   string      `json:"reference"`
	RecordedBy  string      `json:"recordedBy"`
	CancelledAt *Time       `json:"cancelledAt,omitempty"`
}

// PaymentRequest is the body of POST /v1/contracts/{id}/payments.
type PaymentRequest struct {
	Amount    Amount `json:"amount"`
	PaidAt    string `json:"paidAt"`
	Method    string `json:"method"`
	Reference string `json:"reference"`
}

// money renders minor units in the unit.
func (u Unit) money(minor int64) json.Number {
	if u == Minor {
		return signflow.MinorNumber(minor)
	}
	return signflow.MajorNumber(minor)
}

// LedgerOf renders a ledger in the unit.
func LedgerOf(l *signflow.Ledger, u Unit) *Ledger {
	out := &Ledger{Currency: l.Currency, Total: u.money(l.Total), Paid: u.money(l.Paid), Balance: u.money(l.Balance),
		Items: []LedgerItem{}, Receipts: []ReceiptJSON{}}
	for _, it := range l.Items {
		out.Items = append(out.Items, LedgerItem{N: it.N, Kind: it.Kind, Amount: u.money(it.Amount), DueDate: OptTime(it.Due),
			Paid: u.money(it.Paid), Status: it.Status})
	}
	for _, r := range l.Receipts {
		out.Receipts = append(out.Receipts, ReceiptOf(r, u))
	}
	return out
}

// ReceiptOf renders a receipt in the unit.
func ReceiptOf(r *signflow.Receipt, u Unit) ReceiptJSON {
	return ReceiptJSON{ID: r.ID, Amount: u.money(r.Amount), PaidAt: Time(r.PaidAt), Method: r.Method, Reference: r.Reference,
		RecordedBy: r.RecordedBy, CancelledAt: OptTime(r.CancelledAt)}
}

// LedgerAnswer serves GET /v1/contracts/{id}/payments for the caller.
func LedgerAnswer(c echo.Context, svc *signflow.Service, a *signflow.Access, u Unit) error {
	l, err := svc.Ledger(a, c.Param("id"))
	if err != nil {
		return err
	}
	return server.JSON(c, http.StatusOK, LedgerOf(l, u))
}

// RecordPayment serves POST /v1/contracts/{id}/payments: the new receipt,
// or the first one when its reference was recorded before.
func RecordPayment(c echo.Context, svc *signflow.Service, a *signflow.Access, u Unit) error {
	var req PaymentRequest
	if err := server.Bind(c, &req); err != nil {
		return err
	}
	if req.Amount == "" {
		return signflow.Errorf(signflow.EINVALID, "amount: is required")
	}
	amount, err := req.Amount.In(u, "amount")
	if err != nil {
		return err
	}
	paidAt, err := ParseDateTime(req.PaidAt, "paidAt")
	if err != nil {
		return err
	}
	if paidAt == nil {
		return signflow.Errorf(signflow.EINVALID, "paidAt: is required")
	}
	in := signflow.PaymentInput{Amount: amount, PaidAt: *paidAt, Method: req.Method, Reference: req.Reference}
	r, err := svc.RecordPayment(a, c.Param("id"), in, server.Actor(c))
	if err != nil {
		return err
	}
	return server.JSON(c, http.StatusOK, ReceiptOf(r, u))
}

// PayLinkRequest is the body of POST /v1/contracts/{id}/payment-links.
type PayLinkRequest struct {
	Provider  string `json:"provider"`
	Amount    Amount `json:"amount"`
	ReturnURL string `json:"returnUrl"`
}

// PayLink serves POST /v1/contracts/{id}/payment-links: {url}.
func PayLink(c echo.Context, svc *signflow.Service, a *signflow.Access, u Unit) error {
	var req PayLinkRequest
	if err := server.Bind(c, &req); err != nil {
		return err
	}
	var amount int64
	if req.Amount != "" {
		var err error
		if amount, err = req.Amount.In(u, "amount"); err != nil {
			return err
		}
		if amount <= 0 {
			return signflow.Errorf(signflow.EINVALID, "amount: must be above 0")
		}
	}
	link, err := svc.PayLink(a, c.Param("id"), signflow.PayLinkInput{Provider: req.Provider, Amount: amount, ReturnURL: req.ReturnURL})
	if err != nil {
		return err
	}
	return server.JSON(c, http.StatusOK, map[string]string{"url": link})
}
