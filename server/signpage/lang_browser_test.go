package signpage_test

import (
	"testing"
	"time"

	"contracts/internal/browsertest"
	"contracts/internal/fixture"
	"contracts/signflow"

	"github.com/chromedp/chromedp"
)

// The page in each language: <html lang>, the same controls under their
// translated accessible names, and (with CONTRACTS_SCREENSHOTS set) a
// screenshot of each state to look at.
func TestBrowserPageInEachLanguage(t *testing.T) {
	e := newEnv(t, 0, "")
	ctx := browsertest.Start(t)
	c := e.contract(t)
	names := map[string][5]string{ // Sign, Reject, SMS code, Confirm, Resend code
		"en": {"Sign", "Reject", "SMS code", "Confirm", "Resend code"},
		"ru": {"Подписать", "Отклонить", "Код из SMS", "Подтвердить", "Отправить код повторно"},
		"uz": {"Imzolash", "Rad etish", "SMS kod", "Tasdiqlash", "Kodni qayta yuborish"},
	}
	for _, lang := range signflow.Languages {
		t.Run(lang, func(t *testing.T) {
			n := names[lang]
			_, url := e.open(t, c.ID, signflow.SessionRequest{SignerIN: fixture.CustomerIN, Lang: lang})
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(820, 900), chromedp.Navigate(url)); err != nil {
				t.Fatal(err)
			}
			if got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.documentElement.lang`)); err != nil || got != lang {
				t.Fatalf("html lang %q (%v)", got, err)
			}
			browsertest.WaitText(t, ctx, e.Template.Name.In(lang))
			browsertest.Screenshot(t, ctx, "sign-"+lang+"-review", 1280)
			browsertest.Screenshot(t, ctx, "sign-"+lang+"-review-phone", 390)
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(820, 900)); err != nil {
				t.Fatal(err)
			}
			browsertest.Click(t, ctx, "button", n[0])
			browsertest.Type(t, ctx, n[2], "12")
			browsertest.Click(t, ctx, "button", n[3])
			if _, err := chromedp.Run(browsertest.Within(t, ctx, 5*time.Second), chromedp.WaitVisible(n[4], browsertest.ByName("button", n[4]))); err != nil {
				t.Fatalf("%s: %v", n[4], err)
			}
			browsertest.Screenshot(t, ctx, "sign-"+lang+"-code", 1280)
			browsertest.Screenshot(t, ctx, "sign-"+lang+"-code-phone", 390)
		})
	}
}
