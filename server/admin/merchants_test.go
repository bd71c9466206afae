package admin_test

import (
	"strings"
	"testing"
)

// POST /admin/v1/owners/{in}/payments: behind the admin token; the answer
// names the accounts and never a secret; bad bodies and unknown owners
// are refused and change nothing.
func TestSetMerchantRoute(t *testing.T) {
	a := newAdminServer(t)
	a.ok(t, "POST", "/admin/v1/owners", "application/json", ownerJSON, 200, nil)
	body := `{"payme": {"merchantId": "5e730e8e0b852a417aa49ceb", "key": "SeCrEt-PaYmE"},
		"click": {"serviceId": "1234", "merchantId": "5678", "secretKey": "SeCrEt-ClIcK"}}`
	if status, _, _ := a.call(t, "POST", "/admin/v1/owners/301234567/payments", "application/json", body, "Bearer wrong"); status != 401 {
		t.Fatalf("a wrong token: %d", status)
	}
	refusals := []struct {
		name, path, body string
		status           int
		want             string
	}{
		{"nothing to set", "/admin/v1/owners/301234567/payments", `{}`, 400, "payme or click"},
		{"Payme without a key", "/admin/v1/owners/301234567/payments", `{"payme": {"merchantId": "m"}}`, 400, "payme.key"},
		{"Click service not a number", "/admin/v1/owners/301234567/payments", `{"click": {"serviceId": "x", "merchantId": "1", "secretKey": "s"}}`, 400, "click.serviceId"},
		{"malformed", "/admin/v1/owners/301234567/payments", `{"payme":`, 400, "Malformed"},
		{"unknown owner", "/admin/v1/owners/309999999/payments", body, 404, "Owner not found"},
	}
	for _, r := range refusals {
		status, _, data := a.call(t, "POST", r.path, "application/json", r.body, "default")
		if status != r.status || !strings.Contains(string(data), r.want) {
			t.Errorf("%s: %d %s", r.name, status, data)
		}
	}
	if _, err := a.Service.Merchant("301234567"); err == nil {
		t.Fatal("a refused call stored accounts")
	}
	var out struct {
		OwnerIN string
		Payme   struct{ MerchantID string }
		Click   struct{ ServiceID, MerchantID string }
	}
	a.ok(t, "POST", "/admin/v1/owners/301234567/payments", "application/json", body, 200, &out)
	_, _, data := a.call(t, "POST", "/admin/v1/owners/301234567/payments", "application/json", body, "default")
	if out.OwnerIN != "301234567" || out.Payme.MerchantID != "5e730e8e0b852a417aa49ceb" || out.Click.ServiceID != "1234" ||
		strings.Contains(strings.ToLower(string(data)), "secret") {
		t.Fatalf("answer %+v %s", out, data)
	}
}
