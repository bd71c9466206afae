package console_test

import (
	"net/http"
	"net/url"
	"testing"

	"contracts/internal/apitest"
	"contracts/internal/fixture"
	"contracts/signflow"
)

// The contract page of an ACTIVE contract shows its ledger and records a
// payment by hand: the receipt names the administrator, the audit event
// its confirmation, and a refused amount records nothing.
func TestConsoleRecordPayment(t *testing.T) {
	e := newEnv(t)
	c := e.contract(t)
	fixture.Must(t, func() error {
		return e.DB.Update(func(tx signflow.Tx) error {
			got, err := tx.Contract(c.ID)
			if err != nil {
				return err
			}
			for _, in := range []string{got.SellerIN, got.BuyerIN} {
				if _, err := got.Sign(in, signflow.Signature{Method: signflow.MethodOTP, At: e.Clock.Now()}, e.Clock.Now()); err != nil {
					return err
				}
			}
			return tx.PutContract(got)
		})
	})
	b := e.loggedIn(t)
	page := "/console/contracts/" + c.ID
	apitest.Run(t, b.api, []apitest.Scenario{
		{Name: "the ledger", Path: page, Status: 200, Want: []string{">Payments</h2>", "Balance: <strong>1", "500.00\u00a0UZS</strong>", "No payments yet.",
			">Record payment</button>", `name="paidAt" type="date"`}},
		{Name: "above the balance", Method: "POST", Path: page + "/payments", As: pageToken,
			Body: url.Values{"amount": {"1500.01"}, "paidAt": {"2026-11-22"}, "method": {"CASH"}}, Status: http.StatusBadRequest,
			Want: []string{"at most the balance"}},
		{Name: "record", Method: "POST", Path: page + "/payments", As: pageToken,
			Body: url.Values{"amount": {"1000.5"}, "paidAt": {"2026-11-22"}, "method": {"BANK"}, "reference": {"PP-9"}}, Status: http.StatusSeeOther,
			WantHeader: map[string]string{"Location": page + "?paid=1"}},
		{Name: "recorded", Path: page + "?paid=1", Status: 200, Want: []string{"The payment was recorded.", "Bank transfer", "PP-9",
			"Balance: <strong>499.50\u00a0UZS</strong>"}},
	})
	l, err := e.Service.AdminLedger(c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Receipts) != 1 || l.Receipts[0].Amount != 100050 || l.Receipts[0].RecordedBy != signflow.RecordedByAdmin {
		t.Fatalf("receipts %+v", l.Receipts)
	}
	audit, _ := e.Service.AuditTrail(c.ID)
	last := audit[len(audit)-1]
	if last.Type != signflow.EventPaymentAccepted || last.Method != signflow.ConfirmAdmin || last.ActorIN != "" {
		t.Fatalf("the audit event %+v", last)
	}
	// Without the page's CSRF token the form is refused.
	if r := b.api.Do(t, "POST", page+"/payments", "", url.Values{"amount": {"1"}, "paidAt": {"2026-11-22"}, "method": {"CASH"}}); r.Status != http.StatusForbidden {
		t.Fatalf("without the CSRF token: %d", r.Status)
	}
}

// The owners page sets an owner's payment accounts: the list shows their
// ids and never a key; an incomplete account is refused and stores nothing.
func TestConsoleMerchantAccounts(t *testing.T) {
	e := newEnv(t)
	b := e.loggedIn(t)
	apitest.Run(t, b.api, []apitest.Scenario{
		{Name: "the form", Path: "/console/owners", Status: 200, Want: []string{">Payment accounts</h2>", `name="paymeKey" type="password"`}},
		{Name: "Payme without a key", Method: "POST", Path: "/console/owners/payments", As: pageToken,
			Body: url.Values{"owner": {fixture.OtherIN}, "paymeMerchantId": {"m2"}}, Status: http.StatusBadRequest, Want: []string{"payme.key"}},
		{Name: "save", Method: "POST", Path: "/console/owners/payments", As: pageToken,
			Body: url.Values{"owner": {fixture.OwnerIN}, "paymeMerchantId": {"cashbox-1"}, "paymeKey": {"PaYmE-SeCrEt"},
				"clickServiceId": {"77"}, "clickMerchantId": {"88"}, "clickSecretKey": {"ClIcK-SeCrEt"}},
			Status: http.StatusSeeOther, WantHeader: map[string]string{"Location": "/console/owners?payments=" + fixture.OwnerIN}},
		{Name: "saved", Path: "/console/owners?payments=" + fixture.OwnerIN, Status: 200,
			Want: []string{"Payment accounts of owner " + fixture.OwnerIN + " saved.", "Payme cashbox-1 · Click 77"}, Not: []string{"PaYmE-SeCrEt", "ClIcK-SeCrEt"}},
	})
	if _, err := e.Service.Merchant(fixture.OtherIN); signflow.ErrorCode(err) != signflow.ENOTFOUND {
		t.Fatalf("the refused account was stored: %v", err)
	}
	if m, err := e.Service.Merchant(fixture.OwnerIN); err != nil || m.Payme.MerchantID != "cashbox-1" || m.Click.ServiceID != "77" {
		t.Fatalf("stored %+v %v", m, err)
	}
}
