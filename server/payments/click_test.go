package payments_test

import (
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/url"
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
)

func click(t *testing.T, base, path string, f url.Values, secret string) map[string]any {
	t.Helper()
	text := f.Get("click_trans_id") + f.Get("service_id") + secret + f.Get("merchant_trans_id") + f.Get("merchant_prepare_id") +
		f.Get("amount") + f.Get("action") + f.Get("sign_time")
	sum := md5.Sum([]byte(text))
	f.Set("sign_string", hex.EncodeToString(sum[:]))
	resp, err := http.PostForm(base+"/payments/click"+path, f)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

func clickForm(trans, number, amount, action string) url.Values {
	return url.Values{"click_trans_id": {trans}, "service_id": {clickSvc}, "click_paydoc_id": {"5"}, "merchant_trans_id": {number},
		"amount": {amount}, "action": {action}, "error": {"0"}, "sign_time": {"2026-11-22 14:00:00"}}
}

// Click: a secret of another merchant fails the signature; amounts are
// decimals of soums, never floats; a Complete carrying Click's error
// cancels; unknown transactions and contracts answer Click's codes.
func TestClickAnswers(t *testing.T) {
	w := newWorld(t, nil)
	n := w.contract.Number
	if a := click(t, w.url, "/prepare", clickForm("1", n, "10.00", "0"), "not the secret"); a["error"] != float64(-1) {
		t.Fatalf("wrong secret: %v", a)
	}
	if a := click(t, w.url, "/prepare", clickForm("1", n, "0.001", "0"), clickSecret); a["error"] != float64(-2) {
		t.Fatalf("a thousandth of a soum: %v", a)
	}
	if a := click(t, w.url, "/prepare", clickForm("1", "2026-000999", "10", "0"), clickSecret); a["error"] != float64(-5) {
		t.Fatalf("unknown contract: %v", a)
	}
	if a := click(t, w.url, "/prepare", clickForm("1", n, "10", "1"), clickSecret); a["error"] != float64(-3) {
		t.Fatalf("complete's action on prepare: %v", a)
	}
	if a := click(t, w.url, "/prepare", clickForm("1", n, "1499.99", "0"), clickSecret); a["error"] != float64(0) || a["merchant_prepare_id"] != float64(1) {
		t.Fatalf("prepare: %v", a)
	}
	f := clickForm("1", n, "1499.99", "1")
	f.Set("merchant_prepare_id", "2")
	if a := click(t, w.url, "/complete", f, clickSecret); a["error"] != float64(-6) {
		t.Fatalf("a prepare id of no transaction: %v", a)
	}
	f.Set("merchant_prepare_id", "1")
	f.Set("error", "-5017")
	if a := click(t, w.url, "/complete", f, clickSecret); a["error"] != float64(-9) {
		t.Fatalf("complete with Click's error: %v", a)
	}
	f.Set("error", "0")
	if a := click(t, w.url, "/complete", f, clickSecret); a["error"] != float64(-9) {
		t.Fatalf("complete of a cancelled payment: %v", a)
	}
	if l := w.ledger(t); len(l.Receipts) != 0 {
		t.Fatalf("a cancelled Click payment paid: %+v", l.Receipts)
	}
	if a := click(t, w.url, "/prepare", clickForm("2", n, "1500", "0"), clickSecret); a["error"] != float64(0) {
		t.Fatalf("prepare of the whole balance: %v", a)
	}
	f = clickForm("2", n, "1500", "1")
	f.Set("merchant_prepare_id", "2")
	if a := click(t, w.url, "/complete", f, clickSecret); a["error"] != float64(0) || a["merchant_confirm_id"] != float64(2) {
		t.Fatalf("complete: %v", a)
	}
	if l := w.ledger(t); l.Balance != 0 || l.Receipts[0].Method != signflow.PayClick || l.Receipts[0].Reference != "2" {
		t.Fatalf("ledger: %+v", l)
	}
	if a := click(t, w.url, "/prepare", clickForm("3", n, "1", "0"), clickSecret); a["error"] != float64(-2) {
		t.Fatalf("a payment of a paid contract: %v", a)
	}
}

// A Click payment id of one merchant is never taken over by another's
// Prepare.
func TestClickMerchantsApart(t *testing.T) {
	w := newWorld(t, nil)
	if a := click(t, w.url, "/prepare", clickForm("900", w.contract.Number, "10", "0"), clickSecret); a["error"] != float64(0) {
		t.Fatalf("prepare: %v", a)
	}
	if _, err := w.Service.SetMerchant(fixture.OtherIN, &signflow.MerchantInput{Click: &signflow.ClickInput{ServiceID: "3333", MerchantID: "4", SecretKey: "theirs"}}); err != nil {
		t.Fatal(err)
	}
	f := clickForm("900", w.contract.Number, "10", "0")
	f.Set("service_id", "3333")
	if a := click(t, w.url, "/prepare", f, "theirs"); a["error"] != float64(-6) {
		t.Fatalf("another merchant's payment id: %v", a)
	}
	done := clickForm("900", w.contract.Number, "10", "1")
	done.Set("merchant_prepare_id", "900")
	if a := click(t, w.url, "/complete", done, clickSecret); a["error"] != float64(0) {
		t.Fatalf("the first merchant's complete: %v", a)
	}
}
