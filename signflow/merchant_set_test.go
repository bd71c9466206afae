package signflow

import (
	"strings"
	"testing"
)

// Setting accounts through the admin API and the console (secrets sealed,
// an account another owner holds refused) is checked by
// server/admin/merchants_test.go (TestSetMerchantRoute) and
// server/payments/payments_test.go (TestSetMerchant,
// TestPaymeMerchantsApart); here, merchant_set.go's input rules.
func TestMerchantInputCheck(t *testing.T) {
	good := MerchantInput{Payme: &PaymeInput{MerchantID: "5e730e8e0b852a417aa49ceb", Key: "k"},
		Click: &ClickInput{ServiceID: "12345", MerchantID: "678", SecretKey: "s"}}
	if err := good.check(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		in   MerchantInput
		want string
	}{
		{MerchantInput{}, "payme or click is required"},
		{MerchantInput{Payme: &PaymeInput{MerchantID: "a b", Key: "k"}}, "payme.merchantId"},
		{MerchantInput{Payme: &PaymeInput{MerchantID: strings.Repeat("a", 65), Key: "k"}}, "payme.merchantId"},
		{MerchantInput{Payme: &PaymeInput{MerchantID: "m", Key: strings.Repeat("k", 201)}}, "payme.key"},
		{MerchantInput{Click: &ClickInput{ServiceID: "x1", MerchantID: "1", SecretKey: "s"}}, "click.serviceId"},
		{MerchantInput{Click: &ClickInput{ServiceID: "1", MerchantID: strings.Repeat("9", 19), SecretKey: "s"}}, "click.merchantId"},
		{MerchantInput{Click: &ClickInput{ServiceID: "1", MerchantID: "1"}}, "click.secretKey"},
	} {
		if err := tc.in.check(); ErrorCode(err) != EINVALID || !strings.HasPrefix(ErrorMessage(err), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.in, err, tc.want)
		}
	}
}
