package console

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"contracts/server"
	"contracts/server/document"
	"contracts/server/i18n"
	"contracts/server/wire"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// ledgerView is the contract page's ledger and its Record payment form.
type ledgerView struct {
	Total, Paid, Balance string
	Items                []ledgerItemView
	Receipts             []receiptView
	CanRecord            bool // ACTIVE with a balance left
	RecordURL            string
	Methods              []option
	Today                string
}

type ledgerItemView struct {
	N                               int
	Kind, Amount, Due, Paid, Status string
	StatusClass                     string
}

type receiptView struct {
	Amount, PaidAt, Method, Reference, RecordedBy string
	Cancelled                                     bool
}

// ledgerOf shows the contract's ledger in the page's words.
func ledgerOf(t i18n.Dict, c *signflow.Contract, l *signflow.Ledger, today string) *ledgerView {
	money := func(minor int64) string { return document.Money(minor, l.Currency) }
	v := &ledgerView{Total: money(l.Total), Paid: money(l.Paid), Balance: money(l.Balance), Today: today,
		CanRecord: c.Status == signflow.StatusActive && l.Balance > 0, RecordURL: "/console/contracts/" + c.ID + "/payments"}
	for _, it := range l.Items {
		due := t["payment.dueAtActivation"]
		if it.Due != nil {
			due = document.Date(*it.Due)
		}
		v.Items = append(v.Items, ledgerItemView{N: it.N, Kind: t.Or("payment.kind."+it.Kind, it.Kind), Amount: money(it.Amount),
			Due: due, Paid: money(it.Paid), Status: t.Or("payment.status."+it.Status, it.Status), StatusClass: strings.ToLower(it.Status)})
	}
	for _, r := range l.Receipts {
		v.Receipts = append(v.Receipts, receiptView{Amount: money(r.Amount), PaidAt: document.Date(r.PaidAt),
			Method: t.Or("payment.method."+r.Method, r.Method), Reference: r.Reference, RecordedBy: r.RecordedBy, Cancelled: !r.Counts()})
	}
	for _, m := range signflow.RecordedMethods {
		v.Methods = append(v.Methods, option{Value: m, Label: t.Or("payment.method."+m, m)})
	}
	return v
}

// recordPayment is POST /console/contracts/{id}/payments: the
// administrator records money the seller received (amount in major units,
// the day it was paid, how, and a reference).
func (h *handler) recordPayment(c echo.Context) error {
	amount, err := signflow.MinorFromMajor(json.Number(strings.TrimSpace(c.FormValue("amount"))), "amount")
	var paidAt *time.Time
	if err == nil {
		paidAt, err = wire.ParseDateTime(c.FormValue("paidAt"), "paidAt")
		if err == nil && paidAt == nil {
			err = signflow.Errorf(signflow.EINVALID, "paidAt: is required")
		}
	}
	if err == nil {
		in := signflow.PaymentInput{Amount: amount, PaidAt: *paidAt, Method: c.FormValue("method"), Reference: strings.TrimSpace(c.FormValue("reference"))}
		_, err = h.svc.AdminRecordPayment(c.Param("id"), in, server.Actor(c))
	}
	if refused(err) {
		d := h.start(c, "/console/contracts", "nav.contracts")
		return h.contractPage(c, d.withError(refusalText(d.T, err)), http.StatusBadRequest)
	} else if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/console/contracts/"+c.Param("id")+"?paid=1")
}
