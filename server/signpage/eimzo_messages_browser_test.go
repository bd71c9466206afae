package signpage_test

import (
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"contracts/internal/browsertest"
	"contracts/internal/fixture"
	"contracts/server/i18n"
	"contracts/server/signpage"
	"contracts/signflow"
	"contracts/signflow/eimzo/eimzotest"

	"github.com/chromedp/chromedp"
)

// The page's own E-IMZO client against the fake local client: an E-IMZO
// older than 3.37 is named as too old; with no key anywhere the page says
// so; an ID card in a reader and a BAIK token are offered, and the ID card
// signs through create_pkcs7 with "idcard".
func TestBrowserEIMZOVersionAndCards(t *testing.T) {
	capi := newCAPIWS(t, "cn=unused", eimzotest.Key{TIN: fixture.OwnerIN, CN: "alpha savdo mchj"})
	capi.major, capi.minor, capi.noPFX = "3", "36", true
	e := newEnvWith(t, envOptions{outside: true, eimzo: signpage.EIMZOClient{PlainURL: capi.url}})
	ctx := browsertest.Start(t)
	c, _, page := e.openCompany(t, signflow.SessionRequest{Lang: "en"})
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(820, 900), chromedp.Navigate(page)); err != nil {
		t.Fatal(err)
	}
	browsertest.Click(t, ctx, "button", "Sign")
	browsertest.WaitText(t, ctx, "E-IMZO 3.36 on this computer is too old: 3.37 or later is needed.")

	capi.mu.Lock()
	capi.minor = "37"
	capi.mu.Unlock()
	browsertest.Click(t, ctx, "button", "Try again")
	browsertest.WaitText(t, ctx, "No E-IMZO keys were found on this computer.")

	capi.mu.Lock()
	capi.readers, capi.tokens = []string{"ACS ACR39U ICC Reader 0"}, []string{"BAIK-0001"}
	capi.mu.Unlock()
	browsertest.Click(t, ctx, "button", "Try again")
	if _, err := chromedp.Run(browsertest.Within(t, ctx, 10*time.Second), chromedp.Poll[bool](`document.querySelectorAll('#eimzo-key option').length === 2`)); err != nil {
		t.Fatalf("ID card and token not listed: %v", err)
	}
	options, _ := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('#eimzo-key option')).map(function (o) { return o.textContent; })`))
	if strings.Join(options, "|") != "ID card (in the reader)|BAIK token" {
		t.Fatalf("keys offered: %q", options)
	}
	browsertest.Click(t, ctx, "button", "Confirm")
	browsertest.WaitText(t, ctx, "Contract signed")
	calls := capi.log()
	last := calls[len(calls)-1]
	if last.Name != "create_pkcs7" || len(last.Arguments) != 3 || last.Arguments[1] != "idcard" {
		t.Fatalf("last call %+v", last)
	}
	if got := e.StoredContract(t, c.ID); got.SellerStatus != signflow.PartyAccepted {
		t.Fatalf("seller %s", got.SellerStatus)
	}
}

// The four things that stop an E-IMZO signer, each its own message in
// the page's language: not running, too old, blocked by the browser (with
// how to allow it), no key. Screenshots at 1280 and 390 px.
func TestBrowserEIMZOMessagesInEveryLanguage(t *testing.T) {
	e := newEnvWith(t, envOptions{outside: true})
	ctx := browsertest.Start(t)
	cases := []struct {
		name, listKeys, key string
		pairs               []string
	}{
		{"not-running", `Promise.reject(Object.assign(new Error('x'), {code: 'not-running'}))`, "err.eimzoNotRunning", nil},
		{"too-old", `Promise.reject(Object.assign(new Error('3.30'), {code: 'too-old'}))`, "err.eimzoTooOld", []string{"version", "3.30", "needed", "3.37"}},
		{"blocked", `Promise.reject(Object.assign(new Error('x'), {code: 'blocked'}))`, "err.eimzoBlocked", nil},
		{"no-keys", `Promise.resolve([])`, "err.eimzoNoKeys", nil},
	}
	seen := map[string]bool{}
	for _, lang := range signflow.Languages {
		_, _, page := e.openCompany(t, signflow.SessionRequest{Lang: lang})
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900), chromedp.Navigate(page)); err != nil {
			t.Fatal(err)
		}
		for i, c := range cases {
			want := i18n.Sign.For(lang).F(c.key, c.pairs...)
			if want == "" || seen[want] {
				t.Fatalf("%s %s: message %q empty or shared with another case", lang, c.name, want)
			}
			seen[want] = true
			button := `[data-action="eimzo-retry"]`
			if i == 0 {
				button = `[data-action="sign"]`
			}
			js := fmt.Sprintf(`window.ContractsEIMZO = {listKeys: function () { return %s; }}; document.querySelector('%s').click(); true`, c.listKeys, button)
			if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js)); err != nil {
				t.Fatal(err)
			}
			browsertest.WaitText(t, ctx, want)
			browsertest.Screenshot(t, ctx, lang+"-eimzo-"+c.name+"-1280", 1280)
			browsertest.Screenshot(t, ctx, lang+"-eimzo-"+c.name+"-390", 390)
		}
	}
}

// Local Network Access in Chromium: framed by an integrator's own iframe
// without the allow attribute, the page cannot reach E-IMZO and says the
// browser blocked it (not that E-IMZO is not running); framed by sdk.js,
// whose iframe allows it, the same failure is E-IMZO not running.
func TestBrowserEIMZOBlockedInAFrameWithoutAllow(t *testing.T) {
	capi := newCAPIWS(t, "cn=unused", eimzotest.Key{TIN: fixture.OwnerIN})
	capi.setDown(true)
	e := newEnvWith(t, envOptions{outside: true, eimzo: signpage.EIMZOClient{PlainURL: capi.url}})
	ctx := browsertest.Start(t)
	own := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><title>Shop</title><iframe src="%s" style="width:100%%;height:900px"></iframe>`, html.EscapeString(r.URL.Query().Get("u")))
	}))
	t.Cleanup(own.Close)
	_, _, page := e.openCompany(t, signflow.SessionRequest{Lang: "en"})
	if err := chromedp.Do(ctx, chromedp.Navigate(own.URL+"/?u="+url.QueryEscape(page))); err != nil {
		t.Fatal(err)
	}
	f := browsertest.Frame(t, ctx, page)
	browsertest.Click(t, f, "button", "Sign")
	browsertest.WaitText(t, f, "Your browser blocked this page from reaching E-IMZO on your computer.")

	p := newParent(t, e.base+"/sdk.js")
	_, _, page = e.openCompany(t, signflow.SessionRequest{Lang: "en", ParentOrigin: p.origin()})
	if err := chromedp.Do(ctx, chromedp.Navigate(p.page(page))); err != nil {
		t.Fatal(err)
	}
	f = browsertest.Frame(t, ctx, page)
	browsertest.Click(t, f, "button", "Sign")
	browsertest.WaitText(t, f, "E-IMZO is not running on this computer.")
}
