package signpage_test

import (
	"testing"

	"contracts/internal/browsertest"
	"contracts/internal/fixture"
	"contracts/signflow"

	"github.com/chromedp/chromedp"
)

// TestBrowserSignsFullPageOnAPhone: a session with no parentOrigin (one
// whose link was texted) is signed with the page as the phone's whole tab,
// no iframe: nothing wider than the screen, the code confirmed, the
// contract signed.
func TestBrowserSignsFullPageOnAPhone(t *testing.T) {
	e := newEnv(t, 30, "")
	ctx := browsertest.Start(t)
	c := e.contract(t)
	sess, url := e.open(t, c.ID, signflow.SessionRequest{SignerIN: fixture.CustomerIN, Lang: "en"})
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(3), chromedp.EmulateMobile),
		chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	browsertest.WaitText(t, ctx, e.Template.Name.In("en"))
	fits := func(step string) {
		t.Helper()
		w, err := chromedp.Run(ctx, chromedp.Evaluate[int64](`document.documentElement.scrollWidth`))
		if err != nil || w > 390 {
			t.Fatalf("%s: the page is %d px wide on a 390 px screen (%v)", step, w, err)
		}
	}
	fits("review")
	browsertest.SignWithSMS(t, ctx, "+99890*****67", func() string { return lastCode(t, e.SMS, custPhone) })
	browsertest.WaitText(t, ctx, "Contract signed")
	fits("signed")
	browsertest.Screenshot(t, ctx, "sign-en-signed-full-page-phone", 390)
	if got := e.StoredContract(t, c.ID); got.BuyerStatus != signflow.PartyAccepted {
		t.Fatalf("after signing full-page: buyer %s", got.BuyerStatus)
	}
	if s := e.StoredSession(t, sess.ID); s.Status != signflow.SessionSigned {
		t.Fatalf("session %s", s.Status)
	}
}
