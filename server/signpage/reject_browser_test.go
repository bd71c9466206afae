package signpage_test

import (
	"encoding/base64"
	"fmt"
	"testing"

	"contracts/internal/browsertest"
	"contracts/internal/fixture"
	"contracts/server/i18n"
	"contracts/signflow"
	"contracts/signflow/eimzo/eimzotest"

	"github.com/chromedp/chromedp"
)

// The reject confirmation in each language: the reject panel says how the
// rejection is confirmed, Confirm sends the code and opens the code panel
// titled for the rejection (photographed at 1280 and 390 pixels with
// CONTRACTS_SCREENSHOTS set).
func TestBrowserRejectConfirmationInEachLanguage(t *testing.T) {
	e := newEnv(t, 0, "")
	ctx := browsertest.Start(t)
	for _, lang := range signflow.Languages {
		t.Run(lang, func(t *testing.T) {
			w := i18n.Sign.For(lang)
			c := e.contract(t)
			_, url := e.open(t, c.ID, signflow.SessionRequest{SignerIN: fixture.CustomerIN, Lang: lang})
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(820, 900), chromedp.Navigate(url)); err != nil {
				t.Fatal(err)
			}
			browsertest.Click(t, ctx, "button", w["reject"])
			browsertest.WaitText(t, ctx, w["reject.how.otp"])
			browsertest.Screenshot(t, ctx, "reject-"+lang+"-panel", 1280)
			browsertest.Screenshot(t, ctx, "reject-"+lang+"-panel-phone", 390)
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(820, 900)); err != nil {
				t.Fatal(err)
			}
			browsertest.Click(t, ctx, "button", w["confirm"])
			browsertest.WaitText(t, ctx, w["reject.codeTitle"])
			browsertest.Screenshot(t, ctx, "reject-"+lang+"-code", 1280)
			browsertest.Screenshot(t, ctx, "reject-"+lang+"-code-phone", 390)
			if got := e.StoredContract(t, c.ID); got.Status != signflow.StatusCreated || e.SMS.Count() == 0 {
				t.Fatalf("before the code: %s, %d texts", got.Status, e.SMS.Count())
			}
		})
	}
}

// E_IMZO's Reject in Chromium, the local client stood in for by
// window.ContractsEIMZO (which signs only the rejection's content): Reject,
// Confirm, the key panel titled for the rejection, and the signer's key
// rejects through the (fake) E-IMZO server; the trail names E_IMZO.
func TestBrowserEIMZORejects(t *testing.T) {
	e := newEnvWith(t, envOptions{outside: true})
	ctx := browsertest.Start(t)
	p := newParent(t, e.base+"/sdk.js")
	c, sess, page := e.openCompany(t, signflow.SessionRequest{Lang: "en", ParentOrigin: p.origin()})
	if err := chromedp.Do(ctx, chromedp.Navigate(p.page(page))); err != nil {
		t.Fatal(err)
	}
	waitMessage(t, ctx, "READY")
	f := browsertest.Frame(t, ctx, page)
	reject := signflow.RejectContent(c.Hash)
	fake := fmt.Sprintf(`window.ContractsEIMZO = {
	  listKeys: function () { return Promise.resolve([{id: 'alpha', name: 'ALPHA SAVDO MCHJ', tin: %s}]); },
	  sign: function (id, data64) {
	    if (data64 !== %s) return Promise.reject(new Error('asked to sign ' + data64));
	    return Promise.resolve(%s);
	  }
	}; true`, jsString(fixture.OwnerIN), jsString(base64.StdEncoding.EncodeToString([]byte(reject))),
		jsString(eimzotest.Sign(reject, eimzotest.Key{TIN: fixture.OwnerIN, CN: "ALPHA SAVDO MCHJ"})))
	if _, err := chromedp.Run(f, chromedp.Evaluate[bool](fake)); err != nil {
		t.Fatal(err)
	}
	browsertest.Click(t, f, "button", "Reject")
	browsertest.WaitText(t, f, "To confirm, you will sign the rejection with your E-IMZO key.")
	browsertest.Click(t, f, "button", "Confirm")
	browsertest.WaitText(t, f, "Sign the rejection with your E-IMZO key")
	browsertest.WaitText(t, f, "Choose your key.")
	browsertest.Screenshot(t, ctx, "reject-en-eimzo-in-parent", 1100)
	browsertest.Click(t, f, "button", "Confirm")
	waitMessage(t, ctx, "REJECTED")
	browsertest.WaitText(t, f, "Contract cancelled")
	after := e.snap(t, c.ID, sess.ID, fixture.OwnerIN)
	if after.contract != signflow.StatusCancelled || after.sess != signflow.SessionRejected {
		t.Fatalf("after the E-IMZO rejection %+v", after)
	}
	trail, err := e.Service.AuditTrail(c.ID)
	if err != nil || trail[len(trail)-1].Method != signflow.MethodEIMZO {
		t.Fatalf("the rejection's audit event names no E-IMZO signature: %v", err)
	}
}

// MY_ID's Reject in Chromium: Confirm opens the MyID popup (the fake
// provider approves at once), whose callback rejects; REJECTED reaches the
// parent and the trail names MY_ID.
func TestBrowserMyIDRejects(t *testing.T) {
	e := newEnvWith(t, envOptions{outside: true})
	ctx := browsertest.Start(t)
	p := newParent(t, e.base+"/sdk.js")
	c := e.contractOf(t, e.myidT)
	sess, page := e.open(t, c.ID, signflow.SessionRequest{SignerIN: fixture.CustomerIN, Lang: "en", ParentOrigin: p.origin()})
	if err := chromedp.Do(ctx, chromedp.Navigate(p.page(page))); err != nil {
		t.Fatal(err)
	}
	waitMessage(t, ctx, "READY")
	f := browsertest.Frame(t, ctx, page)
	browsertest.Click(t, f, "button", "Reject")
	browsertest.WaitText(t, f, "To confirm, you will pass the MyID check, as for signing.")
	browsertest.Click(t, f, "button", "Confirm")
	waitMessage(t, ctx, "REJECTED")
	browsertest.WaitText(t, f, "Contract rejected")
	onlyTab(t, ctx)
	if got := e.StoredContract(t, c.ID); got.Status != signflow.StatusRejected || e.StoredSession(t, sess.ID).Status != signflow.SessionRejected {
		t.Fatalf("after the MyID rejection: %s", got.Status)
	}
	trail, err := e.Service.AuditTrail(c.ID)
	if err != nil || trail[len(trail)-1].Method != signflow.MethodMyID {
		t.Fatalf("the rejection's audit event names no identity check: %v", err)
	}
}
