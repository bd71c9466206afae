package e2e

import (
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"contracts/internal/browsertest"
	"contracts/internal/testtools"
	"contracts/server/i18n"

	"github.com/chromedp/chromedp"
)

// TestDemoReachesActiveInABrowser is the newcomer's first hour: "serve
// --demo" on built-in defaults, then in Chromium, in each language, the
// demo page creates a contract (a POST), the buyer and then the seller
// sign by the SMS codes the console provider logs, and the contract ends
// ACTIVE with its sealed PDF and its verify page.
func TestDemoReachesActiveInABrowser(t *testing.T) {
	dir := t.TempDir()
	// The signing iframe comes from embedded.baseURL: a port known before the start.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	embedded := ln.Addr().String()
	ln.Close()
	_, port, _ := net.SplitHostPort(embedded)
	p := run(t, dir, []string{"CONTRACTS_EMBEDDED__BASEURL=http://localhost:" + port}, "serve", "--demo",
		"--embedded-listen", embedded, "--key-listen", "127.0.0.1:0", "--admin-listen", "127.0.0.1:0")
	addrs := p.listening(t)
	admin := "http://" + addrs["admin"]
	if out := p.waitStdout(t, "demo: open "); !strings.Contains(out, "demo: open "+admin+"/demo") || !strings.Contains(out, "keep them") {
		t.Fatalf("start-up output:\n%s", out)
	}
	ctx := browsertest.Start(t)
	for _, lang := range []string{"en", "ru", "uz"} {
		t.Run(lang, func(t *testing.T) { demoFlow(t, ctx, p, admin, lang) })
	}
}

func demoFlow(t *testing.T, ctx context.Context, p *proc, admin, lang string) {
	d, s := i18n.Demo.For(lang), i18n.Sign.For(lang)
	// shot saves the page at 1280 and 390 px (CONTRACTS_SCREENSHOTS), the
	// signing iframe, when there is one, laid out at that width first.
	shot := func(name string, frame context.Context) {
		for _, w := range []int64{1280, 390} {
			if frame != nil {
				frameLaidOut(t, ctx, frame, w)
			}
			browsertest.Screenshot(t, ctx, "demo-"+lang+"-"+name+"-"+strconv.FormatInt(w, 10), w)
		}
		// Back to a tall window: a click in the iframe needs it on screen.
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(1100, 2400)); err != nil {
			t.Fatal(err)
		}
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(admin+"/demo?lang="+lang)); err != nil {
		t.Fatal(err)
	}
	browsertest.WaitText(t, ctx, d["demo.startTitle"])
	shot("start", nil)
	browsertest.Click(t, ctx, "button", d["demo.create"])
	browsertest.WaitText(t, ctx, d["demo.signBuyer"])
	for i, party := range []struct{ phone, step string }{{"998901234567", "demo.signBuyer"}, {"998907654321", "demo.signSeller"}} {
		if i == 1 {
			browsertest.Click(t, ctx, "button", d["demo.signAsSeller"])
			browsertest.WaitText(t, ctx, d[party.step])
		}
		browsertest.WaitText(t, ctx, "READY") // the signing page's script is running
		f := browsertest.Frame(t, ctx, "http://localhost:")
		before := len(consoleTexts(p, party.phone))
		browsertest.Click(t, f, "button", s["sign"])
		code := waitCode(t, p, party.phone, before)
		browsertest.Type(t, f, s["codeLabel"], code)
		if i == 0 {
			shot("sign", f)
			tablesFitAt390(t, ctx, f)
			if path := os.Getenv("CONTRACTS_DEMO_PNG"); path != "" && lang == "en" {
				frameLaidOut(t, ctx, f, 1280)
				if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 760)); err != nil {
					t.Fatal(err)
				}
				png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
				if err != nil || os.WriteFile(path, png, 0o644) != nil {
					t.Fatalf("docs/demo.png: %v", err)
				}
				chromedp.Do(ctx, chromedp.EmulateViewport(1100, 2400))
			}
		}
		browsertest.Click(t, f, "button", s["confirm"])
		browsertest.Click(t, f, "button", s["continue"])
		browsertest.WaitText(t, ctx, strings.Split(d["demo.doneState"], "{")[0])
	}
	browsertest.WaitText(t, ctx, d["demo.active"])
	browsertest.WaitText(t, ctx, "ACTIVE")
	shot("active", nil)
	pdfURL, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('a.button[href^="/demo/pdf"]').getAttribute('href')`))
	if err != nil {
		t.Fatal(err)
	}
	verifyURL, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('a.button[href*="/verify/"]').href`))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(admin + pdfURL)
	if err != nil {
		t.Fatal(err)
	}
	pdf, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(string(pdf), "%PDF-") {
		t.Fatalf("sealed PDF: %d %.40q", resp.StatusCode, pdf)
	}
	file := filepath.Join(t.TempDir(), "contract.pdf")
	if err := os.WriteFile(file, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	if out, _ := exec.Command(testtools.Need(t, "pdfsig")[0], file).CombinedOutput(); !strings.Contains(string(out), "Signature is Valid") {
		t.Fatalf("pdfsig of the demo's PDF:\n%s", out)
	}
	if !strings.HasSuffix(verifyURL, "&lang="+lang) {
		t.Fatalf("verify link %s", verifyURL)
	}
	browsertest.Click(t, ctx, "link", d["demo.verify"])
	browsertest.WaitText(t, ctx, i18n.Verify.For(lang)["verifyTitle"])
	browsertest.WaitText(t, ctx, i18n.Document.For(lang)["status.ACTIVE"])
	shot("verify", nil)
}

// consoleTexts are the texts the console provider logged for phone.
func consoleTexts(p *proc, phone string) []string {
	var out []string
	for _, l := range logLines(p.stderr.String(), "SMS (console provider)") {
		if l["phone"] == phone {
			text, _ := l["text"].(string)
			out = append(out, text)
		}
	}
	return out
}

// waitCode waits for a text to phone after the first before, and returns its code.
func waitCode(t *testing.T, p *proc, phone string, before int) string {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		if texts := consoleTexts(p, phone); len(texts) > before {
			if code := regexp.MustCompile(`\b\d{5}\b`).FindString(texts[len(texts)-1]); code != "" {
				return code
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no SMS code to %s in the log:\n%s", phone, p.stderr.String())
		}
		time.Sleep(50 * time.Millisecond) // polling the log the appliance writes
	}
}

// tablesFitAt390 checks, on a phone's width, that the signing page's goods
// and payment tables show whole, without scrolling sideways.
func tablesFitAt390(t *testing.T, ctx, frame context.Context) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 2400)); err != nil {
		t.Fatal(err)
	}
	defer chromedp.Do(ctx, chromedp.EmulateViewport(1100, 2400))
	js := `(() => { const w = [...document.querySelectorAll('.table-wrap')];
	  return document.documentElement.clientWidth <= 390 && w.length === 2 && w.every(x => x.scrollWidth <= x.clientWidth); })()`
	deadline := time.Now().Add(10 * time.Second)
	for {
		ok, err := chromedp.Run(browsertest.Within(t, frame, 2*time.Second), chromedp.Evaluate[bool](js))
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			sizes, _ := chromedp.Run(frame, chromedp.Evaluate[string](`[...document.querySelectorAll('.table-wrap')].map(x => x.scrollWidth + '/' + x.clientWidth).join(' ') + ' in ' + document.documentElement.clientWidth`))
			t.Fatalf("at 390 px a table scrolls sideways (scroll/client widths %s, %v)", sizes, err)
		}
		time.Sleep(50 * time.Millisecond) // polling the browser's layout after the resize
	}
}

// frameLaidOut sets the tab's width and waits until the signing iframe's
// document has that layout (Chrome lays a cross-site frame out on its own).
func frameLaidOut(t *testing.T, ctx, frame context.Context, width int64) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, 2400)); err != nil {
		t.Fatal(err)
	}
	outer, err := chromedp.Run(ctx, chromedp.Evaluate[int64](`document.querySelector('#signing iframe').clientWidth`))
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		inner, err := chromedp.Run(browsertest.Within(t, frame, 2*time.Second), chromedp.Evaluate[int64](`document.documentElement.clientWidth`))
		if err == nil && inner == outer {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the iframe never took its width %d at %d px: %d (%v)", outer, width, inner, err)
		}
		time.Sleep(50 * time.Millisecond) // polling the frame's layout
	}
}
