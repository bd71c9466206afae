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
	*document.Ledger
	CanRecord bool // ACTIVE with a balance left
	RecordURL string
	Methods   []option
	Today     string
}

// ledgerOf shows the contract's ledger in the page's words.
func ledgerOf(t i18n.Dict, c *signflow.Contract, l *signflow.Ledger, today string) *ledgerView {
	v := &ledgerView{Ledger: document.LedgerOf(l, t), Today: today,
		CanRecord: c.Status == signflow.StatusActive && l.Balance > 0, RecordURL: "/console/contracts/" + c.ID + "/payments"}
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
