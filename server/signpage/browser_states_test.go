package signpage_test

import (
	"slices"
	"strconv"
	"testing"
	"time"

	"contracts/internal/browsertest"
	"contracts/internal/fixture"
	"contracts/signflow"

	"github.com/chromedp/chromedp"
)

// Reject in the page, confirmed with the SMS code as a signature is: the
// counterparty's refusal rejects the contract, the creator's own party's
// refusal cancels it; a wrong code rejects nothing; the parent gets REJECTED.
func TestBrowserRejects(t *testing.T) {
	e := newEnv(t, 0, "")
	ctx := browsertest.Start(t)
	p := newParent(t, e.base+"/sdk.js")
	cases := []struct {
		signer, phone, contract, party, text string
	}{
		{signer: fixture.CustomerIN, phone: custPhone, contract: signflow.StatusRejected, party: signflow.PartyRejected, text: "Contract rejected"},
		{signer: peerIN, phone: peerPhone, contract: signflow.StatusCancelled, party: signflow.PartyCancelled, text: "Contract cancelled"},
	}
	for _, tc := range cases {
		c := e.contract(t)
		sess, url := e.open(t, c.ID, signflow.SessionRequest{SignerIN: tc.signer, Lang: "en", ParentOrigin: p.origin(), RedirectURL: p.done})
		if err := chromedp.Do(ctx, chromedp.Navigate(p.page(url))); err != nil {
			t.Fatal(err)
		}
		waitMessage(t, ctx, "READY")
		f := browsertest.Frame(t, ctx, url)
		browsertest.Click(t, f, "button", "Reject")
		browsertest.Click(t, f, "button", "Back")
		browsertest.Click(t, f, "button", "Reject")
		browsertest.WaitText(t, f, "To confirm, we will text a code to your phone, as for signing.")
		browsertest.Click(t, f, "button", "Confirm")
		browsertest.WaitText(t, f, "Confirm the rejection with the SMS code")
		code := lastCode(t, e.SMS, tc.phone)
		browsertest.Type(t, f, "SMS code", fixture.NotCode(code))
		browsertest.Click(t, f, "button", "Confirm")
		browsertest.WaitText(t, f, "Wrong code. Attempts left: 4.")
		if got := e.StoredContract(t, c.ID); got.Status != signflow.StatusCreated {
			t.Fatalf("a wrong code rejected: %s", got.Status)
		}
		browsertest.Type(t, f, "SMS code", code)
		browsertest.Click(t, f, "button", "Confirm")
		m := waitMessage(t, ctx, "REJECTED")
		if m.Origin != e.base || m.Data["source"] != "contracts-sdk" || len(m.Data) != 2 {
			t.Fatalf("REJECTED %+v", m)
		}
		browsertest.WaitText(t, f, tc.text)
		if shown, err := chromedp.Run(f, chromedp.Evaluate[bool](`document.querySelector('[data-action="continue"]').offsetParent !== null`)); err != nil || shown {
			t.Fatalf("Continue offered after a rejection (%v)", err)
		}
		got := e.StoredContract(t, c.ID)
		if got.Status != tc.contract || got.PartyStatus(tc.signer) != tc.party || e.StoredSession(t, sess.ID).Status != signflow.SessionRejected {
			t.Fatalf("after reject by %s: %s, party %s", tc.signer, got.Status, got.PartyStatus(tc.signer))
		}
		trail, err := e.Service.AuditTrail(c.ID)
		if err != nil || trail[len(trail)-1].Method != signflow.MethodOTP {
			t.Fatalf("the rejection's audit event names no SMS code: %v", err)
		}
		if tc.signer == fixture.CustomerIN {
			browsertest.Screenshot(t, ctx, "en-rejected-in-parent", 1100)
		}
	}
}

// A session the page can no longer use still loads the script and posts
// ERROR: expired (before any sweep), unknown token (to "*"), and closed
// after the fifth wrong code.
func TestBrowserPostsErrorForUnusableSessions(t *testing.T) {
	e := newEnv(t, 0, "")
	ctx := browsertest.Start(t)
	p := newParent(t, e.base+"/sdk.js")
	c := e.contract(t)

	_, expired := e.open(t, c.ID, signflow.SessionRequest{SignerIN: fixture.CustomerIN, Lang: "en", ParentOrigin: p.origin()})
	e.Clock.Advance(31 * time.Minute)
	for _, tc := range []struct{ url, message, text string }{
		{url: expired, message: "session expired", text: "This signing link has expired"},
		{url: e.base + "/sign/no-such-token", message: "session not found", text: "Signing link not found"},
	} {
		if err := chromedp.Do(ctx, chromedp.Navigate(p.page(tc.url))); err != nil {
			t.Fatal(err)
		}
		m := waitMessage(t, ctx, "ERROR")
		if m.Origin != e.base || m.Data["source"] != "contracts-sdk" || m.Data["message"] != tc.message || len(m.Data) != 3 {
			t.Fatalf("ERROR %+v, want message %q", m, tc.message)
		}
		if n := len(messages(t, ctx)); n < 1 || slices.Contains(types(messages(t, ctx)), "READY") {
			t.Fatalf("messages %+v", messages(t, ctx))
		}
		browsertest.WaitText(t, browsertest.Frame(t, ctx, tc.url), tc.text)
		if tc.message == "session expired" {
			browsertest.Screenshot(t, ctx, "en-expired-in-parent", 1100)
		}
	}

	_, url := e.open(t, c.ID, signflow.SessionRequest{SignerIN: fixture.CustomerIN, Lang: "en", ParentOrigin: p.origin()})
	if err := chromedp.Do(ctx, chromedp.Navigate(p.page(url))); err != nil {
		t.Fatal(err)
	}
	waitMessage(t, ctx, "READY")
	f := browsertest.Frame(t, ctx, url)
	browsertest.Click(t, f, "button", "Sign")
	browsertest.WaitText(t, f, "We sent a 5-digit code")
	wrong := fixture.NotCode(lastCode(t, e.SMS, custPhone))
	for left := 4; left >= 1; left-- {
		browsertest.Type(t, f, "SMS code", wrong)
		browsertest.Click(t, f, "button", "Confirm")
		browsertest.WaitText(t, f, "Attempts left: "+strconv.Itoa(left))
	}
	browsertest.Type(t, f, "SMS code", wrong)
	browsertest.Click(t, f, "button", "Confirm")
	if m := waitMessage(t, ctx, "ERROR"); m.Data["message"] != "session closed" {
		t.Fatalf("ERROR after five wrong codes: %+v", m)
	}
	browsertest.WaitText(t, f, "This signing link is closed")
	if got := e.StoredContract(t, c.ID); got.Status != signflow.StatusCreated || got.BuyerStatus != signflow.PartyPending {
		t.Fatalf("contract changed: %s %s", got.Status, got.BuyerStatus)
	}
}

// A parent whose origin is not the session's parentOrigin cannot frame the
// page: Chromium blocks it (frame-ancestors), no READY or any other message
// comes from it, while a session without parentOrigin loads beside it.
func TestBrowserRefusesAForeignParent(t *testing.T) {
	e := newEnv(t, 0, "")
	ctx := browsertest.Start(t)
	p := newParent(t, e.base+"/sdk.js")
	c := e.contract(t)
	_, foreign := e.open(t, c.ID, signflow.SessionRequest{SignerIN: fixture.CustomerIN, Lang: "en", ParentOrigin: "http://127.0.0.1:1"})
	_, open := e.open(t, c.ID, signflow.SessionRequest{SignerIN: fixture.CustomerIN, Lang: "en"})
	if err := chromedp.Do(ctx, chromedp.Navigate(p.page(foreign, open))); err != nil {
		t.Fatal(err)
	}
	if m := waitMessage(t, ctx, "READY"); m.Frame != 1 {
		t.Fatalf("READY from frame %d", m.Frame)
	}
	// Both iframes have finished loading (the blocked one with Chromium's
	// error page), so a READY from the blocked one would have come by now.
	if _, err := chromedp.Run(browsertest.Within(t, ctx, 10*time.Second), chromedp.Poll[bool](`__loads.indexOf(0) >= 0 && __loads.indexOf(1) >= 0`)); err != nil {
		t.Fatalf("iframes did not load: %v", err)
	}
	for _, m := range messages(t, ctx) {
		if m.Frame == 0 {
			t.Fatalf("the blocked iframe posted %+v", m)
		}
	}
	// The blocked iframe holds Chromium's error page, not the signing page
	// (READY could not tell: the page would post it to parentOrigin only).
	for url, want := range map[string]bool{foreign: false, open: true} {
		shown, err := chromedp.Run(browsertest.Within(t, browsertest.Frame(t, ctx, url), 5*time.Second),
			chromedp.Evaluate[bool](`location.href === `+jsString(url)+` && document.getElementById('sign-config') !== null`))
		if err != nil || shown != want {
			t.Fatalf("%s shown in the frame: %v (%v), want %v", url, shown, err, want)
		}
	}
}

func types(ms []message) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i], _ = m.Data["type"].(string)
	}
	return out
}

// A method that is not set up on this service (E_IMZO for a company, with
// no E-IMZO server configured) is said honestly: READY names it, there is
// no Sign button and no Reject either: a rejection is confirmed by the
// same method.
func TestBrowserMethodNotAvailableHere(t *testing.T) {
	e := newEnv(t, 0, "")
	ctx := browsertest.Start(t)
	p := newParent(t, e.base+"/sdk.js")
	c := e.Contract(t)
	_, token, err := e.Service.OpenSession(e.Access(t, e.AppA), c.ID, signflow.SessionRequest{SignerIN: fixture.OwnerIN, Lang: "en",
		ParentOrigin: p.origin()}, signflow.Actor{})
	if err != nil {
		t.Fatal(err)
	}
	url := e.base + "/sign/" + token
	if err := chromedp.Do(ctx, chromedp.Navigate(p.page(url))); err != nil {
		t.Fatal(err)
	}
	if m := waitMessage(t, ctx, "READY"); m.Data["method"] != signflow.MethodEIMZO {
		t.Fatalf("READY %+v", m)
	}
	f := browsertest.Frame(t, ctx, url)
	browsertest.WaitText(t, f, "This signing method is not available here")
	browsertest.WaitText(t, f, "This contract is signed with E-IMZO, which is not set up on this service.")
	n, err := chromedp.Run(f, chromedp.Evaluate[int](`document.querySelectorAll('[data-action="sign"]').length`))
	if err != nil || n != 0 {
		t.Fatalf("a Sign button is offered (%d, %v)", n, err)
	}
	browsertest.WaitText(t, f, "A rejection is confirmed the same way")
	n, err = chromedp.Run(f, chromedp.Evaluate[int](`document.querySelectorAll('[data-panel="review"] [data-action="reject"]').length`))
	if err != nil || n != 0 {
		t.Fatalf("a Reject button is offered (%d, %v)", n, err)
	}
	browsertest.Screenshot(t, ctx, "en-method-unavailable-in-parent", 1100)
}
