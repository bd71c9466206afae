package signpage_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"contracts/internal/browsertest"
	"contracts/internal/fixture"
	"contracts/signflow"

	"github.com/chromedp/chromedp"
)

// The whole flow in real Chromium, the page in a cross-origin iframe of an
// integrator's page: READY with the method, RESIZE applied by the SDK, a
// wrong code then the right one, SIGNED received from the expected origin
// and source, the server's state, the second signature making the contract
// ACTIVE, and Continue opening redirectUrl in the top window.
func TestBrowserSignsInACrossOriginIframe(t *testing.T) {
	e := newEnv(t, 30, "")
	ctx := browsertest.Start(t)
	p := newParent(t, e.base+"/sdk.js")
	c := e.contract(t)
	sess, url := e.open(t, c.ID, signflow.SessionRequest{SignerIN: fixture.CustomerIN, Lang: "en", ParentOrigin: p.origin(), RedirectURL: p.done})
	if err := chromedp.Do(ctx, chromedp.Navigate(p.page(url))); err != nil {
		t.Fatal(err)
	}

	ready := waitMessage(t, ctx, "READY")
	if ready.Origin != e.base || ready.Data["source"] != "contracts-sdk" || ready.Data["method"] != signflow.MethodOTP || ready.Frame != 0 {
		t.Fatalf("READY %+v, want origin %s, source contracts-sdk, method OTP_SMS", ready, e.base)
	}
	resize := waitMessage(t, ctx, "RESIZE")
	height, _ := resize.Data["height"].(float64)
	if height < 400 {
		t.Fatalf("RESIZE %+v", resize)
	}
	// The SDK applies the last height it got to the iframe.
	applied, err := chromedp.Run(browsertest.Within(t, ctx, 10*time.Second), chromedp.Poll[bool](
		`(function () { var r = __raw.filter(function (m) { return m.data.type === 'RESIZE'; });
		  return r.length > 0 && __frames[0].style.height === r[r.length - 1].data.height + 'px'; })()`))
	if err != nil || !applied {
		t.Fatalf("iframe height not applied: %v", err)
	}

	// The frame may use the camera (face checks) and reach E-IMZO on the
	// signer's computer, which Chromium's Local Network Access asks of a
	// cross-origin frame.
	allow, err := chromedp.Run(ctx, chromedp.Evaluate[string](`__frames[0].getAttribute('allow')`))
	if err != nil || allow != "camera; local-network-access; loopback-network" {
		t.Fatalf("iframe allow = %q, %v", allow, err)
	}

	f := browsertest.Frame(t, ctx, e.base+"/sign/")
	browsertest.SignWithSMS(t, f, "+99890*****67", func() string { return lastCode(t, e.SMS, custPhone) })

	signed := waitMessage(t, ctx, "SIGNED")
	if signed.Origin != e.base || signed.Data["source"] != "contracts-sdk" || signed.Data["sessionId"] != sess.ID || signed.Data["contractId"] != c.ID {
		t.Fatalf("SIGNED %+v", signed)
	}
	// The SDK passed every message on, READY first. Both lists are read in
	// one evaluation: a RESIZE may arrive between two.
	got, err := chromedp.Run(ctx, chromedp.Evaluate[struct {
		Types []string
		Raw   int
	}](`({types: __events.map(function (e) { return e.data.type; }), raw: __raw.length})`))
	if err != nil || len(got.Types) == 0 || got.Types[0] != "READY" || !slices.Contains(got.Types, "SIGNED") || len(got.Types) != got.Raw {
		t.Fatalf("events passed by the SDK: %v of %d messages, %v", got.Types, got.Raw, err)
	}
	browsertest.WaitText(t, f, "Contract signed")
	browsertest.Screenshot(t, ctx, "en-signed-in-parent", 1100)

	// The server is authoritative: the party ACCEPTED, the session SIGNED.
	if got := e.StoredContract(t, c.ID); got.BuyerStatus != signflow.PartyAccepted || got.Status != signflow.StatusCreated {
		t.Fatalf("after the page signed: %s buyer %s", got.Status, got.BuyerStatus)
	}
	if s := e.StoredSession(t, sess.ID); s.Status != signflow.SessionSigned {
		t.Fatalf("session %s", s.Status)
	}
	// The second party signs through the domain: the contract is ACTIVE.
	_, tok, err := e.Service.OpenSession(e.peer, c.ID, signflow.SessionRequest{SignerIN: peerIN}, signflow.Actor{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Service.SendCode(context.Background(), tok, signflow.Actor{}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Service.ConfirmCode(tok, lastCode(t, e.SMS, peerPhone), signflow.Actor{}); err != nil {
		t.Fatal(err)
	}
	if got := e.StoredContract(t, c.ID); got.Status != signflow.StatusActive || got.BuyerStatus != signflow.PartyAccepted || got.SellerStatus != signflow.PartyAccepted {
		t.Fatalf("after both signed: %s %s/%s", got.Status, got.BuyerStatus, got.SellerStatus)
	}

	// Continue navigates the top window to redirectUrl.
	browsertest.Click(t, f, "button", "Continue")
	browsertest.WaitLocation(t, ctx, p.done)
}
