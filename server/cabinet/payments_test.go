package cabinet_test

import (
	"encoding/base64"
	"html"
	"regexp"
	"strings"
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
)

var payLinkRE = regexp.MustCompile(`<a class="btn btn-primary" href="([^"]+)"[^>]*>Pay with Payme</a>`)

// The buyer's page of an ACTIVE contract shows the ledger and a Pay with
// Payme link where the seller takes Payme (and no Click link where it
// does not); once paid in full, no link is offered.
func TestCabinetLedgerAndPayLinks(t *testing.T) {
	e := newEnv(t, options{})
	id := e.create(t, map[string]any{"buyerIn": fixture.CustomerIN, "price": 150000, "currency": "UZS", "initialPayment": 50000})
	fixture.Must(t, func() error {
		return e.DB.Update(func(tx signflow.Tx) error {
			c, err := tx.Contract(id)
			if err != nil {
				return err
			}
			for _, in := range []string{c.SellerIN, c.BuyerIN} {
				if _, err := c.Sign(in, signflow.Signature{Method: signflow.MethodOTP, At: e.Clock.Now()}, e.Clock.Now()); err != nil {
					return err
				}
			}
			return tx.PutContract(c)
		})
	})
	if _, err := e.svc.SetMerchant(peerIN, &signflow.MerchantInput{Payme: &signflow.PaymeInput{MerchantID: "peer-cashbox", Key: "k"}}); err != nil {
		t.Fatal(err)
	}
	b := e.browser(t)
	b.login(fixture.CustomerIN, custPhone)
	r := b.get("/cabinet/contracts/" + id + "?lang=en")
	if r.Status != 200 || !strings.Contains(r.Body, ">Payments</h2>") || !strings.Contains(r.Body, "Initial payment · ") {
		t.Fatalf("the contract page: %d\n%s", r.Status, r.Body)
	}
	m := payLinkRE.FindStringSubmatch(r.Body)
	if m == nil || strings.Contains(r.Body, "Pay with Click") {
		t.Fatalf("pay links on the page:\n%s", r.Body)
	}
	enc, _ := strings.CutPrefix(html.UnescapeString(m[1]), "https://checkout.paycom.uz/")
	params, _ := base64.StdEncoding.DecodeString(enc)
	c := e.StoredContract(t, id)
	if string(params) != "m=peer-cashbox;ac.contract="+c.Number+";a=50000" {
		t.Fatalf("the Payme link says %q", params)
	}
	peer := &signflow.Access{Interface: signflow.KeyInterface, OwnerIN: peerIN, Scopes: signflow.KeyScopes, AllTemplates: true}
	if _, err := e.svc.RecordPayment(peer, id, signflow.PaymentInput{Amount: 150000, PaidAt: e.Clock.Now(), Method: signflow.PayCash}, signflow.Actor{}); err != nil {
		t.Fatal(err)
	}
	if r := b.get("/cabinet/contracts/" + id + "?lang=en"); strings.Contains(r.Body, "Pay with Payme") || strings.Count(r.Body, "badge-paid") != 2 {
		t.Fatalf("paid in full, the page still offers to pay:\n%s", r.Body)
	}
}
