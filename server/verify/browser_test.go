package verify

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"contracts/internal/browsertest"
	"contracts/server/i18n"

	"github.com/chromedp/chromedp"
)

// TestBrowserUpload: in each language a person picks a sealed PDF, presses
// the check button and reads the verdict; an edited file is called
// changed. With CONTRACTS_SCREENSHOTS set, each page is saved at desktop
// and phone width.
func TestBrowserUpload(t *testing.T) {
	u := newUploadEnv(t)
	ctx := browsertest.Start(t)
	dir := t.TempDir()
	good := filepath.Join(dir, "contract.pdf")
	if err := os.WriteFile(good, u.sealed(t, "en"), 0o600); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(good)
	data = bytes.Clone(data)
	data[100] ^= 0x20
	edited := filepath.Join(dir, "edited.pdf")
	if err := os.WriteFile(edited, data, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"uz", "ru", "en"} {
		c := i18n.Verify.For(lang)
		for _, f := range []struct{ name, path, verdict string }{{"intact", good, c["verdict.INTACT"]}, {"edited", edited, c["verdict.MODIFIED"]}} {
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(820, 900), chromedp.Navigate(u.srv.URL+"/verify?lang="+lang)); err != nil {
				t.Fatal(err)
			}
			browsertest.WaitText(t, ctx, c["checkIntro"])
			if f.name == "intact" {
				browsertest.Screenshot(t, ctx, "verify-"+lang+"-form", 1280)
			}
			if err := chromedp.Do(ctx, chromedp.SetUploadFiles(`input[name="file"]`, []string{f.path})); err != nil {
				t.Fatal(err)
			}
			browsertest.Click(t, ctx, "button", c["checkButton"])
			browsertest.WaitText(t, ctx, f.verdict)
			browsertest.Screenshot(t, ctx, "verify-"+lang+"-"+f.name, 1280)
			browsertest.Screenshot(t, ctx, "verify-"+lang+"-"+f.name+"-phone", 390)
		}
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(820, 900), chromedp.Navigate(u.srv.URL+"/verify/"+u.c.ID+"?h="+u.c.Hash[:16]+"&lang="+lang)); err != nil {
			t.Fatal(err)
		}
		browsertest.WaitText(t, ctx, c["seal"])
		browsertest.Screenshot(t, ctx, "verify-"+lang+"-contract", 1280)
		browsertest.Screenshot(t, ctx, "verify-"+lang+"-contract-phone", 390)
	}
}
