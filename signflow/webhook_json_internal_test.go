package signflow

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"
)

// marshalWebhookBody writes json.Marshal's bytes, and fails where it
// fails, for bodies of every shape: strings that need escaping, optional
// fields set or not, numbers plain and not, a payment.
func TestWebhookBodyIsJSONMarshal(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	strs := []string{"", "CONTRACT_CREATED", "019ac5e1-7d2b-7c4e-9f00-1a2b3c4d5e6f", "<b>&\"\\\n\u2028 é \xff", "12345678901234"}
	nums := []json.Number{"", "0", "-0", "12", "12.50", "-7.05", "0.5", "012", "1.", ".5", "1e3", "-", "1.2.3", "x", "9999999999999999999.99"}
	pick := func(s []string) string { return s[r.IntN(len(s))] }
	for i := range 3000 {
		b := &WebhookBody{Event: pick(strs), ContractID: pick(strs), ContractNumber: pick(strs), Status: pick(strs),
			TemplateID: pick(strs), BuyerIN: pick(strs), SellerIN: pick(strs), CreatorIN: pick(strs), ActorIN: pick(strs),
			Amount: nums[r.IntN(len(nums))], Currency: pick(strs), OccurredAt: pick(strs), Reason: pick(strs)}
		if i%3 == 0 {
			b.Balance = nums[r.IntN(len(nums))]
		}
		if i%50 == 0 {
			b.Payment = &WebhookPayment{}
		}
		want, werr := json.Marshal(b)
		got, err := marshalWebhookBody(b)
		if (err != nil) != (werr != nil) || !bytes.Equal(got, want) {
			t.Fatalf("%+v:\n got %s (%v)\nwant %s (%v)", b, got, err, want, werr)
		}
	}
}

// The bodies the service writes take the hand path, not json.Marshal's.
func TestMoneyNumbersArePlain(t *testing.T) {
	for _, n := range []json.Number{MinorNumber(0), MinorNumber(1250), MajorNumber(1250), MajorNumber(-5), MajorNumber(100000000)} {
		if !plainJSONNumber(string(n)) {
			t.Errorf("%q is not plain", n)
		}
	}
}
