package signpage_test

import (
	"context"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"contracts/internal/browsertest"
	"contracts/internal/fixture"
	"contracts/signflow"
	"contracts/signflow/idp/idptest"

	"github.com/chromedp/chromedp"
)

// The MY_ID popup in real Chromium, the page in a cross-origin iframe of
// an integrator's page: Sign opens the popup, the fake provider approves at
// once and sends it back to /sign/idp/callback, which tells the iframe and
// closes. A different person first: the iframe says so, nothing is signed,
// no SIGNED is posted. Then the right person: SIGNED reaches the parent.
func TestBrowserMyIDPopupSigns(t *testing.T) {
	e := newEnvWith(t, envOptions{outside: true})
	ctx := browsertest.Start(t)
	p := newParent(t, e.base+"/sdk.js")
	c := e.contractOf(t, e.myidT)
	sess, page := e.open(t, c.ID, signflow.SessionRequest{SignerIN: fixture.CustomerIN, Lang: "en", ParentOrigin: p.origin(), RedirectURL: p.done})
	if err := chromedp.Do(ctx, chromedp.Navigate(p.page(page))); err != nil {
		t.Fatal(err)
	}
	if m := waitMessage(t, ctx, "READY"); m.Data["method"] != signflow.MethodMyID {
		t.Fatalf("READY %+v", m)
	}
	f := browsertest.Frame(t, ctx, page)
	browsertest.WaitText(t, f, "you will confirm your face with MyID in a new window")
	browsertest.Screenshot(t, ctx, "en-myid-review-in-parent", 1100)

	// A different person, answered slowly enough to see the page wait.
	e.myid.Set(func(p *idptest.Provider) {
		p.Userinfo, p.TokenDelay = map[string]any{"pinfl": fixture.UnknownIN}, 1500*time.Millisecond
	})
	browsertest.Click(t, f, "button", "Sign")
	browsertest.WaitText(t, f, "Confirm your identity in the MyID window")
	browsertest.Screenshot(t, ctx, "en-myid-waiting-in-parent", 1100)
	browsertest.WaitText(t, f, "The identity check confirmed a different person than the signer of this contract. Nothing was signed.")
	onlyTab(t, ctx)
	browsertest.Screenshot(t, ctx, "en-myid-mismatch-in-parent", 1100)
	if got := e.StoredContract(t, c.ID); got.BuyerStatus != signflow.PartyPending || e.StoredSession(t, sess.ID).Status != signflow.SessionPending {
		t.Fatalf("after a mismatch: buyer %s", got.BuyerStatus)
	}
	if slices.Contains(types(messages(t, ctx)), "SIGNED") || slices.Contains(types(messages(t, ctx)), "ERROR") {
		t.Fatalf("messages after a mismatch: %v", types(messages(t, ctx)))
	}

	// The right person, from the same panel.
	e.myid.Set(func(p *idptest.Provider) { p.Userinfo, p.TokenDelay = map[string]any{"pinfl": fixture.CustomerIN}, 0 })
	browsertest.Click(t, f, "button", "Open MyID again")
	signed := waitMessage(t, ctx, "SIGNED")
	if signed.Origin != e.base || signed.Data["source"] != "contracts-sdk" || signed.Data["sessionId"] != sess.ID || signed.Data["contractId"] != c.ID || signed.Frame != 0 {
		t.Fatalf("SIGNED %+v", signed)
	}
	browsertest.WaitText(t, f, "Contract signed")
	onlyTab(t, ctx)
	browsertest.Screenshot(t, ctx, "en-myid-signed-in-parent", 1100)
	if n := len(messagesOf(t, ctx, "SIGNED")); n != 1 {
		t.Fatalf("%d SIGNED messages", n)
	}
	if e.myid.Exchanges() != 2 {
		t.Fatalf("%d code exchanges, want 2 (both popups went through the provider)", e.myid.Exchanges())
	}
	got := e.StoredContract(t, c.ID)
	if got.BuyerStatus != signflow.PartyAccepted || got.Signatures[fixture.CustomerIN].Method != signflow.MethodMyID || e.StoredSession(t, sess.ID).Status != signflow.SessionSigned {
		t.Fatalf("after signing: buyer %s", got.BuyerStatus)
	}
	browsertest.Click(t, f, "button", "Continue")
	browsertest.WaitLocation(t, ctx, p.done)
}

// When the popup cannot tell the page (a provider's page cut its link to
// the opener, as Cross-Origin-Opener-Policy does), the page learns the
// outcome by polling the session and still posts SIGNED; the popup stays
// open and says the contract is signed.
func TestBrowserIdentityPollsWhenThePopupCannotTell(t *testing.T) {
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
	e.myid.Set(func(p *idptest.Provider) { p.OpenerPolicy = "same-origin" })
	browsertest.Click(t, f, "button", "Sign")
	signed := waitMessage(t, ctx, "SIGNED")
	if signed.Data["sessionId"] != sess.ID || signed.Data["contractId"] != c.ID {
		t.Fatalf("SIGNED %+v", signed)
	}
	browsertest.WaitText(t, f, "Contract signed")
	popup := popupOf(t, ctx)
	browsertest.WaitText(t, popup, "Your identity was confirmed and your signature recorded. You can close this window.")
	if got := e.StoredContract(t, c.ID); got.BuyerStatus != signflow.PartyAccepted {
		t.Fatalf("buyer %s", got.BuyerStatus)
	}
}

// popupOf attaches to the page the test's tab opened. Attaching fails
// while the popup swaps processes on its way to the provider: it tries
// again, for long enough that a machine busy with the race detector's
// whole suite still gets there.
func popupOf(t *testing.T, ctx context.Context) context.Context {
	t.Helper()
	tab := chromedp.FromContext(ctx).Target.TargetID
	deadline := time.Now().Add(30 * time.Second)
	var last error
	for {
		infos, err := chromedp.Targets(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, info := range infos {
			if info.Type != "page" || info.TargetID == tab {
				continue
			}
			pctx, cancel := chromedp.NewContext(ctx, chromedp.WithTargetID(info.TargetID))
			if last = chromedp.Do(pctx); last == nil {
				t.Cleanup(cancel)
				return pctx
			}
			cancel()
		}
		if time.Now().After(deadline) {
			t.Fatalf("no popup to attach to (%v)", last)
		}
		time.Sleep(50 * time.Millisecond) // polling the browser's target list
	}
}

// The callback page opened without an opener (the provider cut the link,
// or someone opened it directly) stays and says what happened, in the
// session's language on success; it drops the code and state from the
// address bar.
func TestBrowserIdentityCallbackWithoutOpener(t *testing.T) {
	e := newEnvWith(t, envOptions{outside: true})
	ctx := browsertest.Start(t)
	c := e.contractOf(t, e.myidT)
	_, page := e.open(t, c.ID, signflow.SessionRequest{SignerIN: fixture.CustomerIN, Lang: "en"})
	start := e.do(t, "POST", page+"/identity", "{}").JSON(t)
	authURL, _ := start["authUrl"].(string)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(600, 700), chromedp.Navigate(authURL)); err != nil {
		t.Fatal(err)
	}
	browsertest.WaitText(t, ctx, "Your identity was confirmed and your signature recorded. You can close this window.")
	loc, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil || loc != e.base+"/sign/idp/callback" {
		t.Fatalf("address %s (%v): the code and state stay in it", loc, err)
	}
	browsertest.Screenshot(t, ctx, "en-idp-callback-signed", 600)
	if got := e.StoredContract(t, c.ID); got.BuyerStatus != signflow.PartyAccepted {
		t.Fatalf("buyer %s", got.BuyerStatus)
	}

	forged := e.base + "/sign/idp/callback?" + url.Values{"code": {"x"}, "state": {"forged"}}.Encode()
	if err := chromedp.Do(ctx, chromedp.Navigate(forged)); err != nil {
		t.Fatal(err)
	}
	browsertest.WaitText(t, ctx, "Nothing was signed")
	browsertest.WaitText(t, ctx, "This identity check is no longer valid: it was already used")
	browsertest.Screenshot(t, ctx, "en-idp-callback-refused", 600)
}

// onlyTab waits until the test's tab is the browser's only page: the
// identity popup has closed itself.
func onlyTab(t *testing.T, ctx context.Context) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		infos, err := chromedp.Targets(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var pages []string
		for _, info := range infos {
			if info.Type == "page" {
				pages = append(pages, info.URL)
			}
		}
		if len(pages) == 1 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("pages still open: %s", strings.Join(pages, ", "))
		}
		time.Sleep(50 * time.Millisecond) // polling the browser's target list
	}
}

// messagesOf returns the messages of a type the parent received.
func messagesOf(t *testing.T, ctx context.Context, typ string) []message {
	t.Helper()
	var out []message
	for _, m := range messages(t, ctx) {
		if m.Data["type"] == typ {
			out = append(out, m)
		}
	}
	return out
}
