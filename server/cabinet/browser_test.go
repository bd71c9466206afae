package cabinet_test

import (
	"context"
	"testing"
	"time"

	"contracts/internal/browsertest"
	"contracts/internal/fixture"
	"contracts/server/document"
	"contracts/signflow"

	"github.com/chromedp/chromedp"
)

// The spec's key-interface flow in real Chromium: a back office creates a
// contract with its API key; the counterparty logs into the cabinet and
// signs (a wrong code first); the key's owner logs in and signs too. The
// contract is ACTIVE and the key's webhook rows are queued.
func TestBrowserBothPartiesSignInTheCabinet(t *testing.T) {
	e := newEnv(t, options{})
	ctx := browsertest.Start(t)
	id := e.create(t, map[string]any{"buyerIn": fixture.CustomerIN, "initialPayment": 20000000,
		"values":   []map[string]any{{"keyName": "deliveryAddress", "value": "Toshkent, Chilonzor 7"}, {"keyName": "warrantyMonths", "value": "12"}},
		"products": []map[string]any{{"name": "Smartphone Nova X", "quantity": 1, "price": 140000000}, {"name": "Silicone case", "quantity": 2, "price": 5000000}},
		"payments": []map[string]any{{"amount": 65000000, "paymentDate": "2026-12-22T00:00:00Z"}, {"amount": 65000000, "paymentDate": "2027-01-22T00:00:00Z"}},
	})

	// The counterparty.
	login(t, ctx, e, e.srv.URL+"/cabinet?lang=en", fixture.CustomerIN, custPhone)
	browsertest.WaitText(t, ctx, "Awaiting your signature")
	browsertest.Screenshot(t, ctx, "cabinet-en-list", 1100)
	browsertest.Screenshot(t, ctx, "cabinet-en-list-phone", 390)
	openContract(t, ctx, id)
	browsertest.WaitText(t, ctx, "Ready to sign?")
	browsertest.Screenshot(t, ctx, "cabinet-en-contract", 1100)
	browsertest.Screenshot(t, ctx, "cabinet-en-contract-phone", 390)
	if err := chromedp.Do(browsertest.Within(t, ctx, 5*time.Second), chromedp.EmulateViewport(1100, 2400)); err != nil {
		t.Fatal(err)
	}
	browsertest.SignWithSMS(t, ctx, "+99890*****67", func() string { return lastCode(t, e.SMS, custPhone) })
	browsertest.WaitText(t, ctx, "Contract signed")
	browsertest.Screenshot(t, ctx, "cabinet-en-signed", 1100)
	if got := e.StoredContract(t, id); got.BuyerStatus != signflow.PartyAccepted || got.Status != signflow.StatusCreated {
		t.Fatalf("after the counterparty: %s buyer %s", got.Status, got.BuyerStatus)
	}
	browsertest.Click(t, ctx, "button", "Log out")
	browsertest.WaitText(t, ctx, "Log in to your cabinet")

	// The owner of the key, who created the contract: Sign and Cancel contract.
	login(t, ctx, e, e.srv.URL+"/cabinet", peerIN, peerPhone)
	openContract(t, ctx, id)
	waitButton(t, ctx, "Cancel contract")
	browsertest.Click(t, ctx, "button", "Sign")
	browsertest.WaitText(t, ctx, "We sent a 5-digit code to +99890*****11")
	browsertest.Type(t, ctx, "SMS code", lastCode(t, e.SMS, peerPhone))
	browsertest.Click(t, ctx, "button", "Confirm")
	browsertest.WaitText(t, ctx, "Both parties have signed: the contract is now in force.")
	browsertest.WaitText(t, ctx, "In force")
	browsertest.Screenshot(t, ctx, "cabinet-en-active", 1100)

	if got := e.StoredContract(t, id); got.Status != signflow.StatusActive || got.BuyerStatus != signflow.PartyAccepted || got.SellerStatus != signflow.PartyAccepted {
		t.Fatalf("after both: %s %s/%s", got.Status, got.BuyerStatus, got.SellerStatus)
	}
	if events := deliveries(t, e, id); events != "CONTRACT_CREATED CONTRACT_SIGNED CONTRACT_SIGNED CONTRACT_ACTIVE " {
		t.Fatalf("the key's webhook rows: %q", events)
	}
	signed := map[string]bool{}
	ds, _ := e.Service.Deliveries(signflow.DeliveryFilter{ContractID: id})
	for _, d := range ds {
		if d.Event == signflow.EventSigned && d.Status == signflow.DeliveryPending {
			signed[string(d.Body)] = true
		}
	}
	if len(signed) != 2 {
		t.Fatalf("two CONTRACT_SIGNED bodies expected (one per actor), got %d", len(signed))
	}

	// Back in the list, in Russian, the contract is decided.
	if err := chromedp.Do(browsertest.Within(t, ctx, 10*time.Second), chromedp.Navigate(e.srv.URL+"/cabinet?lang=ru")); err != nil {
		t.Fatal(err)
	}
	browsertest.WaitText(t, ctx, "Мои договоры")
	browsertest.WaitText(t, ctx, "Действует")
	browsertest.Screenshot(t, ctx, "cabinet-ru-list", 1100)
}

// Reject (the counterparty) and Cancel contract (the creator), each
// confirmed, in the browser.
func TestBrowserRejectAndCancel(t *testing.T) {
	e := newEnv(t, options{})
	ctx := browsertest.Start(t)
	rejected := e.create(t, map[string]any{"buyerIn": fixture.CustomerIN})
	cancelled := e.create(t, map[string]any{"buyerIn": fixture.CustomerIN})

	login(t, ctx, e, e.srv.URL+"/cabinet?lang=en", fixture.CustomerIN, custPhone)
	openContract(t, ctx, rejected)
	browsertest.Click(t, ctx, "button", "Reject")
	browsertest.WaitText(t, ctx, "Reject this contract?")
	browsertest.Click(t, ctx, "button", "Confirm")
	browsertest.WaitText(t, ctx, "Contract rejected")
	browsertest.Click(t, ctx, "button", "Log out")
	browsertest.WaitText(t, ctx, "Log in to your cabinet")

	login(t, ctx, e, e.srv.URL+"/cabinet", peerIN, peerPhone)
	openContract(t, ctx, cancelled)
	browsertest.Click(t, ctx, "button", "Cancel contract")
	browsertest.WaitText(t, ctx, "Cancel this contract?")
	browsertest.Click(t, ctx, "button", "Confirm")
	browsertest.WaitText(t, ctx, "Contract cancelled")
	browsertest.Screenshot(t, ctx, "cabinet-en-cancelled", 1100)

	if a, b := e.StoredContract(t, rejected), e.StoredContract(t, cancelled); a.Status != signflow.StatusRejected || b.Status != signflow.StatusCancelled {
		t.Fatalf("statuses %s and %s", a.Status, b.Status)
	}
	if events := deliveries(t, e, rejected) + "| " + deliveries(t, e, cancelled); events != "CONTRACT_CREATED CONTRACT_REJECTED | CONTRACT_CREATED CONTRACT_CANCELLED " {
		t.Fatalf("webhook rows %q", events)
	}
}

// login logs a party in through the login form.
func login(t *testing.T, ctx context.Context, e *env, url, in, phone string) {
	t.Helper()
	if err := chromedp.Do(browsertest.Within(t, ctx, 10*time.Second), chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	browsertest.Type(t, ctx, "Number", in)
	browsertest.Click(t, ctx, "button", "Send code")
	browsertest.WaitText(t, ctx, "we have texted a 5-digit code")
	browsertest.Screenshot(t, ctx, "cabinet-en-login", 1100)
	browsertest.Screenshot(t, ctx, "cabinet-en-login-phone", 390)
	browsertest.Type(t, ctx, "SMS code", lastCode(t, e.SMS, phone))
	browsertest.Click(t, ctx, "button", "Log in")
	browsertest.WaitText(t, ctx, "My contracts")
}

// openContract follows the contract's link in the list.
func openContract(t *testing.T, ctx context.Context, id string) {
	t.Helper()
	sel := `a.citem[href="/cabinet/contracts/` + id + `"]`
	if err := chromedp.Do(browsertest.Within(t, ctx, 10*time.Second), chromedp.Click(sel)); err != nil {
		t.Fatalf("open contract %s: %v", id, err)
	}
	browsertest.WaitText(t, ctx, "All contracts")
}

// waitButton waits until a button with the accessible name is shown.
func waitButton(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	if err := chromedp.Do(browsertest.Within(t, ctx, 10*time.Second), chromedp.WaitVisible("button "+name, browsertest.ByName("button", name))); err != nil {
		t.Fatalf("button %q: %v", name, err)
	}
}

// The contract page and the list in each language, at desktop and phone
// width: the document card, its audit trail and the actions, all in the
// page's language (with CONTRACTS_SCREENSHOTS set, screenshots to look at).
func TestBrowserContractInEachLanguage(t *testing.T) {
	e := newEnv(t, options{})
	ctx := browsertest.Start(t)
	id := e.create(t, map[string]any{"buyerIn": fixture.CustomerIN, "initialPayment": 20000000,
		"values": []map[string]any{{"keyName": "deliveryAddress", "value": "Toshkent, Chilonzor 7"}, {"keyName": "warrantyMonths", "value": "12"}},
		"products": []map[string]any{{"name": "Smartphone Nova X", "quantity": 1, "price": 140000000, "unit": "DONA", "values": map[string]any{"color": "Graphite"}},
			{"name": "Silicone case", "quantity": 2, "price": 5000000, "unit": "DONA"}},
		"payments": []map[string]any{{"amount": 65000000, "paymentDate": "2026-12-22T00:00:00Z"}, {"amount": 65000000, "paymentDate": "2027-01-22T00:00:00Z"}},
	})
	login(t, ctx, e, e.srv.URL+"/cabinet?lang=en", fixture.CustomerIN, custPhone)
	for _, lang := range signflow.Languages {
		words := document.Words(lang)
		nav(t, ctx, e.srv.URL+"/cabinet?lang="+lang)
		browsertest.WaitText(t, ctx, words["status.CREATED"])
		browsertest.Screenshot(t, ctx, "cabinet-"+lang+"-list", 1280)
		browsertest.Screenshot(t, ctx, "cabinet-"+lang+"-list-phone", 390)
		nav(t, ctx, e.srv.URL+"/cabinet/contracts/"+id+"?lang="+lang)
		for _, w := range []string{words["event.CONTRACT_CREATED"], words["unit.DONA"], words["pinfl"]} {
			browsertest.WaitText(t, ctx, w)
		}
		browsertest.Screenshot(t, ctx, "cabinet-"+lang+"-contract", 1280)
		browsertest.Screenshot(t, ctx, "cabinet-"+lang+"-contract-phone", 390)
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(1100, 2400)); err != nil {
			t.Fatal(err)
		}
	}
}

// nav opens url in the tab.
func nav(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	if err := chromedp.Do(browsertest.Within(t, ctx, 10*time.Second), chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
}
