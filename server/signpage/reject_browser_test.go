package signpage_test

import (
	"testing"

	"contracts/internal/browsertest"
	"contracts/internal/fixture"
	"contracts/server/i18n"
	"contracts/signflow"

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
