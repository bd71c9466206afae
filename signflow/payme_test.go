package signflow_test

import (
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// Payme's Merchant API as Payme calls it (each method, expiry, errors and
// their messages, two nodes) is checked by server/payments/payments_test.go
// and internal/e2e's payments_test.go; here, payme.go's first rule: a call
// is some owner's only by that owner's key, compared in full.
func TestPaymeMerchantByKey(t *testing.T) {
	w := fixture.NewStandard(t)
	const key = "payme-key-of-alpha"
	if _, err := w.Service.SetMerchant(fixture.OwnerIN, &signflow.MerchantInput{
		Payme: &signflow.PaymeInput{MerchantID: "m1", Key: key}}); err != nil {
		t.Fatal(err)
	}
	if m, err := w.Service.PaymeMerchant(key); err != nil || m == nil || m.OwnerIN != fixture.OwnerIN {
		t.Fatalf("the owner's key: %+v, %v", m, err)
	}
	for _, wrong := range []string{"", "payme-key-of-alph", key + "x", "PAYME-KEY-OF-ALPHA"} {
		if m, err := w.Service.PaymeMerchant(wrong); err != nil || m != nil {
			t.Errorf("key %q: %+v, %v; want no merchant", wrong, m, err)
		}
	}
	if e := signflow.PaymeErr(-31050, "contract"); e.Code != -31050 || e.Data != "contract" || e.Error() != "payme error -31050" {
		t.Errorf("PaymeErr: %+v", e)
	}
}
