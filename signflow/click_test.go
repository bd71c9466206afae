package signflow_test

import (
	"crypto/md5"
	"encoding/hex"
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// Click's Prepare and Complete as Click calls them (answers, amounts, two
// owners' services apart) are checked by server/payments/click_test.go
// (TestClickAnswers, TestClickMerchantsApart) and internal/e2e's
// payments_test.go; here, click.go's first rule: nothing is looked at
// before the call's signature is right for the service's secret.
func TestClickSignatureFirst(t *testing.T) {
	w := fixture.NewStandard(t)
	if _, err := w.Service.SetMerchant(fixture.OwnerIN, &signflow.MerchantInput{
		Click: &signflow.ClickInput{ServiceID: "111", MerchantID: "222", SecretKey: "click-secret"}}); err != nil {
		t.Fatal(err)
	}
	call := func(secret, service string) *signflow.ClickAnswer {
		t.Helper()
		c := &signflow.ClickCall{ClickTransID: "9001", ServiceID: service, MerchantTransID: "2026-999999", Amount: "1000.00",
			Action: "0", SignTime: "2026-11-22 09:00:00"}
		sum := md5.Sum([]byte(c.ClickTransID + c.ServiceID + secret + c.MerchantTransID + c.Amount + c.Action + c.SignTime))
		c.SignString = hex.EncodeToString(sum[:])
		a, err := w.Service.Click(c, false)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	for name, a := range map[string]*signflow.ClickAnswer{"wrong secret": call("other", "111"), "unknown service": call("click-secret", "112")} {
		if a.Error != signflow.ClickSignFailed || a.ErrorNote != "SIGN CHECK FAILED!" {
			t.Errorf("%s: %+v, want the signature refused", name, a)
		}
	}
	// Signed right, the call reaches the contract, which does not exist.
	if a := call("click-secret", "111"); a.Error != signflow.ClickNoUser {
		t.Errorf("signed right, for no contract: %+v, want ClickNoUser", a)
	}
}
