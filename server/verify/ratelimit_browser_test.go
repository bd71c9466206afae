package verify

import (
	"os"
	"path/filepath"
	"testing"

	"contracts/internal/browsertest"
	"contracts/internal/fixture"
	"contracts/server/i18n"

	"github.com/chromedp/chromedp"
)

// TestBrowserUploadLimited: a person who checks more files than the limit
// allows reads, in each language, that they should try again in a minute,
// with the form to do so. With CONTRACTS_SCREENSHOTS set, the page is saved
// at desktop and phone width.
func TestBrowserUploadLimited(t *testing.T) {
	u := newUploadEnv(t)
	srv := limitedServer(t, u, 1, fixture.NewClock())
	ctx := browsertest.Start(t)
	file := filepath.Join(t.TempDir(), "contract.pdf")
	if err := os.WriteFile(file, u.sealed(t, "en"), 0o600); err != nil {
		t.Fatal(err)
	}
	for i, lang := range []string{"uz", "ru", "en"} {
		c := i18n.Verify.For(lang)
		for _, want := range []string{c["verdict.INTACT"], c["tooMany"]} {
			if i > 0 && want == c["verdict.INTACT"] {
				continue // the one check of the minute is spent
			}
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(820, 900), chromedp.Navigate(srv.URL+"/verify?lang="+lang)); err != nil {
				t.Fatal(err)
			}
			browsertest.WaitText(t, ctx, c["checkIntro"])
			if err := chromedp.Do(ctx, chromedp.SetUploadFiles(`input[name="file"]`, []string{file})); err != nil {
				t.Fatal(err)
			}
			browsertest.Click(t, ctx, "button", c["checkButton"])
			browsertest.WaitText(t, ctx, want)
		}
		browsertest.Screenshot(t, ctx, "verify-"+lang+"-limited", 1280)
		browsertest.Screenshot(t, ctx, "verify-"+lang+"-limited-phone", 390)
	}
}
