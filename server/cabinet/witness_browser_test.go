package cabinet_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"contracts/internal/browsertest"
	"contracts/internal/fixture"
	"contracts/signflow"

	"github.com/chromedp/chromedp"
)

// A witness in real Chromium: it logs into the cabinet with the phone the
// contract's creator holds for it, finds the contract under "As a
// witness", reads its role, has no Reject, and signs with an SMS code.
// The list and the contract page are photographed in uz, ru and en at
// 1280 and 390 pixels (CONTRACTS_SCREENSHOTS).
func TestBrowserWitnessSignsInTheCabinet(t *testing.T) {
	e := newEnv(t, options{})
	tpl := fixture.MustTemplate(t, e.svc, fixture.TemplateYAML+"witnessEnabled: true\nwitnessCount: 2\n")
	const witIN, witPhone = "41111111111131", "998907000031"
	ids := []string{
		fixture.MustClaim(t, e.svc, peerIN, &signflow.Client{IN: witIN, FirstName: "Guli", LastName: "Saidova", Phone: witPhone}).ID,
		fixture.MustClaim(t, e.svc, peerIN, &signflow.Client{IN: "41111111111132", FirstName: "Bobur", LastName: "Aliyev", Phone: "998907000032"}).ID,
	}
	id := e.create(t, map[string]any{"templateId": tpl.ID, "buyerIn": fixture.CustomerIN, "witnessIds": ids,
		"values": []map[string]any{{"keyName": "deliveryAddress", "value": "Toshkent, Chilonzor 7"}}})
	ctx := browsertest.Start(t)

	login(t, ctx, e, e.srv.URL+"/cabinet?lang=en", witIN, witPhone)
	browsertest.WaitText(t, ctx, "AS A WITNESS") // list headings are in capitals
	browsertest.WaitText(t, ctx, "Awaiting your signature")
	for _, lang := range signflow.Languages {
		navigate(t, ctx, e.srv.URL+"/cabinet?lang="+lang)
		browsertest.WaitText(t, ctx, strings.ToUpper(map[string]string{"uz": "Guvoh sifatida", "ru": "Как свидетель", "en": "As a witness"}[lang]))
		browsertest.Screenshot(t, ctx, "witness-cabinet-list-"+lang+"-1280", 1280)
		browsertest.Screenshot(t, ctx, "witness-cabinet-list-"+lang+"-390", 390)
		navigate(t, ctx, e.srv.URL+"/cabinet/contracts/"+id+"?lang="+lang)
		browsertest.WaitText(t, ctx, map[string]string{"uz": "Guvoh", "ru": "Свидетель", "en": "Witness"}[lang])
		browsertest.Screenshot(t, ctx, "witness-cabinet-contract-"+lang+"-1280", 1280)
		browsertest.Screenshot(t, ctx, "witness-cabinet-contract-"+lang+"-390", 390)
	}
	navigate(t, ctx, e.srv.URL+"/cabinet/contracts/"+id+"?lang=en")
	browsertest.WaitText(t, ctx, "You sign this contract as a witness.")
	rejects, err := chromedp.Run(browsertest.Within(t, ctx, 5*time.Second),
		chromedp.Evaluate[int](`document.querySelectorAll('[data-action="reject"]').length`))
	if err != nil {
		t.Fatal(err)
	}
	if rejects != 0 {
		t.Fatalf("the witness is offered %d Reject buttons", rejects)
	}
	if err := chromedp.Do(browsertest.Within(t, ctx, 5*time.Second), chromedp.EmulateViewport(1100, 2400)); err != nil {
		t.Fatal(err)
	}
	browsertest.SignWithSMS(t, ctx, "+99890*****31", func() string { return lastCode(t, e.SMS, witPhone) })
	browsertest.WaitText(t, ctx, "Contract signed")
	browsertest.WaitText(t, ctx, "The contract comes into force once every party and witness has signed.")
	browsertest.Screenshot(t, ctx, "witness-cabinet-signed-en-1280", 1280)
	got := e.StoredContract(t, id)
	if w := got.Witness(witIN); w == nil || w.Status != signflow.PartyAccepted || got.Status != signflow.StatusCreated ||
		got.Signatures[witIN] == nil || got.Signatures[witIN].Method != signflow.MethodOTP {
		t.Fatalf("after the witness signed: %s %+v", got.Status, w)
	}
}

func navigate(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	if err := chromedp.Do(browsertest.Within(t, ctx, 10*time.Second), chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
}
