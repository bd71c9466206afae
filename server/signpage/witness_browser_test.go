package signpage_test

import (
	"testing"

	"contracts/internal/browsertest"
	"contracts/internal/fixture"
	"contracts/signflow"

	"github.com/chromedp/chromedp"
)

// A witness's signing page in real Chromium: in each language it names
// the role and offers no Reject (photographed at 1280 and 390 pixels with
// CONTRACTS_SCREENSHOTS set); in English the witness signs with the code
// sent to the phone the creator holds for it.
func TestBrowserWitnessSigningPage(t *testing.T) {
	e := newEnv(t, 0, "")
	tpl := fixture.MustTemplate(t, e.Service, fixture.TemplateYAML+"witnessEnabled: true\nwitnessCount: 2\n")
	const witIN, witPhone = "41111111111141", "998907000041"
	ids := []string{
		fixture.MustClaim(t, e.Service, peerIN, &signflow.Client{IN: witIN, FirstName: "Guli", LastName: "Saidova", Phone: witPhone}).ID,
		fixture.MustClaim(t, e.Service, peerIN, &signflow.Client{IN: "41111111111142", FirstName: "Bobur", LastName: "Aliyev", Phone: "998907000042"}).ID,
	}
	c, err := e.Service.CreateContract(e.peer, &signflow.ContractInput{TemplateID: tpl.ID, BuyerIN: fixture.CustomerIN, Price: 150000000,
		Currency: "UZS", WitnessIDs: ids, Values: []signflow.ValueInput{{KeyName: "deliveryAddress", Value: "Toshkent, Chilonzor 7"}}},
		signflow.Actor{IP: "10.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := browsertest.Start(t)
	role := map[string]string{"uz": "Guvoh", "ru": "Свидетель", "en": "Witness"}
	for _, lang := range signflow.Languages {
		_, url := e.open(t, c.ID, signflow.SessionRequest{SignerIN: witIN, Lang: lang})
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900), chromedp.Navigate(url)); err != nil {
			t.Fatal(err)
		}
		browsertest.WaitText(t, ctx, tpl.Name.In(lang))
		browsertest.WaitText(t, ctx, role[lang])
		rejects, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('[data-action="reject"]').length`))
		if err != nil || rejects != 0 {
			t.Fatalf("%s: %d Reject buttons (%v)", lang, rejects, err)
		}
		browsertest.Screenshot(t, ctx, "witness-sign-"+lang+"-1280", 1280)
		browsertest.Screenshot(t, ctx, "witness-sign-"+lang+"-390", 390)
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(820, 2400)); err != nil {
			t.Fatal(err)
		}
		if lang != "en" {
			continue
		}
		browsertest.WaitText(t, ctx, "You sign this contract as a witness.")
		browsertest.SignWithSMS(t, ctx, "+99890*****41", func() string { return lastCode(t, e.SMS, witPhone) })
		browsertest.WaitText(t, ctx, "Contract signed")
		browsertest.WaitText(t, ctx, "The contract comes into force once every party and witness has signed.")
		browsertest.Screenshot(t, ctx, "witness-sign-en-signed-1280", 1280)
	}
	got := e.StoredContract(t, c.ID)
	if w := got.Witness(witIN); w == nil || w.Status != signflow.PartyAccepted || got.Status != signflow.StatusCreated {
		t.Fatalf("after the witness signed: %s %+v", got.Status, w)
	}
}
