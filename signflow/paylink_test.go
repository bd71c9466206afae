package signflow

import (
	"encoding/base64"
	"net/url"
	"testing"
)

// Pay links asked through the interfaces (which contracts get one, the
// amount left, each provider's account) are checked by
// server/payments/payments_test.go (TestPayLinks); here, the link
// paylink.go builds for each provider, on its default page and another.
func TestPayLinkURL(t *testing.T) {
	m := &Merchant{Payme: &PaymeAccount{MerchantID: "pm1"}, Click: &ClickAccount{ServiceID: "s7", MerchantID: "cm2"}}
	for _, tc := range []struct {
		hosts PayLinkHosts
		in    PayLinkInput
		want  string
	}{
		{PayLinkHosts{}, PayLinkInput{Provider: ProviderPayme, Amount: 150050},
			"https://checkout.paycom.uz/" + base64.StdEncoding.EncodeToString([]byte("m=pm1;ac.contract=2026-000001;a=150050"))},
		{PayLinkHosts{Payme: "https://test.paycom.uz"}, PayLinkInput{Provider: ProviderPayme, Amount: 5, ReturnURL: "https://shop.example/done"},
			"https://test.paycom.uz/" + base64.StdEncoding.EncodeToString([]byte("m=pm1;ac.contract=2026-000001;a=5;c=https://shop.example/done"))},
		{PayLinkHosts{}, PayLinkInput{Provider: ProviderClick, Amount: 150005},
			"https://my.click.uz/services/pay?" + url.Values{"service_id": {"s7"}, "merchant_id": {"cm2"}, "amount": {"1500.05"},
				"transaction_param": {"2026-000001"}}.Encode()},
		{PayLinkHosts{Click: "https://pay.example/click"}, PayLinkInput{Provider: ProviderClick, Amount: 100, ReturnURL: "https://shop.example/done"},
			"https://pay.example/click?" + url.Values{"service_id": {"s7"}, "merchant_id": {"cm2"}, "amount": {"1.00"},
				"transaction_param": {"2026-000001"}, "return_url": {"https://shop.example/done"}}.Encode()},
	} {
		s := &Service{opt: Options{PayLinks: tc.hosts}}
		if got := s.payLinkURL(tc.in, m, "2026-000001", tc.in.Amount); got != tc.want {
			t.Errorf("%s %+v:\n got %s\nwant %s", tc.in.Provider, tc.hosts, got, tc.want)
		}
	}
}
