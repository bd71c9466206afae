package signflow_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"
	"contracts/signflow/idp/idptest"
)

// The full MY_ID round trip: the popup follows AuthURL, the provider
// redirects back with code and state, FinishIdentity signs.
func TestIdentityRoundTripSigns(t *testing.T) {
	w := newIDWorld(t, 0)
	c, sess, token := w.open(t, fixture.CustomerIN)
	if sess.Method != signflow.MethodMyID {
		t.Fatalf("method %s", sess.Method)
	}
	authURL, err := w.svc.StartIdentity(token, w.actor)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(authURL, w.myid.AuthURL()+"?") || strings.Contains(authURL, "client-secret") {
		t.Fatalf("auth URL %s", authURL)
	}
	code, state := idptest.Login(t, authURL)
	if stored := w.session(t, sess.ID).IDPStateHash; !bytes.Equal(stored, signflow.HashSecret(state)) || strings.Contains(string(stored), state) {
		t.Fatal("the session does not hold the hash of the state")
	}
	before := w.snapshot(t, c, sess, fixture.CustomerIN)
	res, err := w.svc.FinishIdentity(context.Background(), state, code, w.actor)
	if err != nil {
		t.Fatal(err)
	}
	if res.Session.Status != signflow.SessionSigned || res.Contract.BuyerStatus != signflow.PartyAccepted {
		t.Fatalf("result %s / %s", res.Session.Status, res.Contract.BuyerStatus)
	}
	stored := w.session(t, sess.ID)
	if stored.Status != signflow.SessionSigned || stored.CompletedAt == nil || stored.IDPStateHash != nil {
		t.Fatalf("stored session %+v", stored)
	}
	after := w.snapshot(t, c, sess, fixture.CustomerIN)
	if before.verified || !after.verified || after.deliveries != before.deliveries+1 || after.contractVersion != before.contractVersion+1 {
		t.Fatalf("after signing %+v", after)
	}
	var signed *signflow.AuditEvent
	events, _ := w.svc.AuditTrail(c.ID)
	for _, e := range events {
		if e.Type == signflow.EventSigned {
			signed = e
		}
	}
	if signed == nil || signed.Method != signflow.MethodMyID || signed.ActorIN != fixture.CustomerIN || signed.IP != "203.0.113.7" ||
		signed.SessionID != sess.ID || signed.Hash != c.Hash {
		t.Fatalf("signed event %+v", signed)
	}
	// The used state cannot sign again.
	_, err = w.svc.FinishIdentity(context.Background(), state, code, w.actor)
	wantCode(t, err, signflow.EFORBIDDEN, "already used")
}

// A different person at the provider: refused, the session stays PENDING
// and nothing else changes; a new check can then succeed.
func TestIdentityMismatchChangesNothing(t *testing.T) {
	w := newIDWorld(t, 0)
	c, sess, token := w.open(t, fixture.CustomerIN)
	authURL, _ := w.svc.StartIdentity(token, w.actor)
	before := w.snapshot(t, c, sess, fixture.CustomerIN)
	w.myid.Set(func(p *idptest.Provider) {
		p.Userinfo = map[string]any{"profile": map[string]any{"pinfl": fixture.UnknownIN}}
	})
	code, state := idptest.Login(t, authURL)
	_, err := w.svc.FinishIdentity(context.Background(), state, code, w.actor)
	wantCode(t, err, signflow.EINVALID, "different person")
	if after := w.snapshot(t, c, sess, fixture.CustomerIN); after != before {
		t.Fatalf("a mismatch changed %+v into %+v", before, after)
	}

	// Replay: the same state with a fresh, valid code for the right person
	// is refused before the provider is asked.
	w.myid.Set(func(p *idptest.Provider) {
		p.Userinfo = map[string]any{"profile": map[string]any{"pinfl": fixture.CustomerIN}}
	})
	code2, state2 := idptest.Login(t, authURL)
	exchanges := w.myid.Exchanges()
	_, err = w.svc.FinishIdentity(context.Background(), state2, code2, w.actor)
	wantCode(t, err, signflow.EFORBIDDEN, "already used")
	if w.myid.Exchanges() != exchanges {
		t.Fatal("a replayed state reached the provider")
	}
	if after := w.snapshot(t, c, sess, fixture.CustomerIN); after != before {
		t.Fatalf("a replay changed %+v into %+v", before, after)
	}

	// A new check on the same session works.
	authURL, err = w.svc.StartIdentity(token, w.actor)
	if err != nil {
		t.Fatal(err)
	}
	code, state = idptest.Login(t, authURL)
	if _, err := w.svc.FinishIdentity(context.Background(), state, code, w.actor); err != nil {
		t.Fatal(err)
	}
}

// Forged states are refused and do not use up the real one.
func TestIdentityForgedState(t *testing.T) {
	w := newIDWorld(t, 0)
	c, sess, token := w.open(t, fixture.CustomerIN)
	authURL, _ := w.svc.StartIdentity(token, w.actor)
	code, state := idptest.Login(t, authURL)
	before := w.snapshot(t, c, sess, fixture.CustomerIN)
	forged, _ := signflow.NewIdentityState(sess.ID)
	for _, s := range []string{"", "garbage", forged, sess.ID, sess.ID + ".", signflow.NewID() + "." + strings.Split(state, ".")[1],
		state + "x", strings.Repeat("a", 300)} {
		_, err := w.svc.FinishIdentity(context.Background(), s, code, w.actor)
		wantCode(t, err, signflow.EFORBIDDEN, "invalid or was already used")
	}
	if w.myid.Exchanges() != 0 {
		t.Fatal("a forged state reached the provider")
	}
	if after := w.snapshot(t, c, sess, fixture.CustomerIN); after != before {
		t.Fatalf("forged states changed %+v into %+v", before, after)
	}
	// A second StartIdentity replaces the state: the first one dies.
	if _, err := w.svc.StartIdentity(token, w.actor); err != nil {
		t.Fatal(err)
	}
	_, err := w.svc.FinishIdentity(context.Background(), state, code, w.actor)
	wantCode(t, err, signflow.EFORBIDDEN, "invalid or was already used")
}

// A session past its expiry cannot start or finish a check; the provider
// is not asked.
func TestIdentityExpiredSession(t *testing.T) {
	w := newIDWorld(t, 0)
	c, sess, token := w.open(t, fixture.CustomerIN)
	authURL, _ := w.svc.StartIdentity(token, w.actor)
	code, state := idptest.Login(t, authURL)
	w.Clock.Advance(30*time.Minute + time.Second) // the default session lifetime
	before := w.snapshot(t, c, sess, fixture.CustomerIN)
	_, err := w.svc.FinishIdentity(context.Background(), state, code, w.actor)
	wantCode(t, err, signflow.EFORBIDDEN, "expired")
	if w.myid.Exchanges() != 0 {
		t.Fatal("an expired session reached the provider")
	}
	after := w.snapshot(t, c, sess, fixture.CustomerIN)
	if after != before || after.status != signflow.SessionPending {
		t.Fatalf("expired finish changed %+v into %+v", before, after)
	}
	_, err = w.svc.StartIdentity(token, w.actor)
	wantCode(t, err, signflow.EFORBIDDEN, "expired")
}

// Provider failures are EUNAVAILABLE and change nothing on the contract.
func TestIdentityProviderFailures(t *testing.T) {
	for _, tc := range []struct {
		name    string
		set     func(*idptest.Provider)
		message string
	}{
		{"token 500", func(p *idptest.Provider) { p.TokenStatus = 500 }, "HTTP 500"},
		{"token time-out", func(p *idptest.Provider) { p.TokenDelay = 5 * time.Second }, "did not answer within 150ms"},
		{"userinfo 503", func(p *idptest.Provider) { p.UserinfoStatus = 503 }, "HTTP 503"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newIDWorld(t, 150*time.Millisecond)
			c, sess, token := w.open(t, fixture.CustomerIN)
			authURL, _ := w.svc.StartIdentity(token, w.actor)
			code, state := idptest.Login(t, authURL)
			before := w.snapshot(t, c, sess, fixture.CustomerIN)
			w.myid.Set(tc.set)
			start := time.Now()
			_, err := w.svc.FinishIdentity(context.Background(), state, code, w.actor)
			wantCode(t, err, signflow.EUNAVAILABLE, tc.message)
			if time.Since(start) > 2*time.Second {
				t.Fatalf("waited %s", time.Since(start))
			}
			if after := w.snapshot(t, c, sess, fixture.CustomerIN); after != before {
				t.Fatalf("a provider failure changed %+v into %+v", before, after)
			}
		})
	}
}

// StartIdentity needs a known, open session of an identity method with a
// configured provider.
func TestStartIdentityRefusals(t *testing.T) {
	w := newIDWorld(t, 0)
	_, err := w.svc.StartIdentity("no-such-token", w.actor)
	wantCode(t, err, signflow.ENOTFOUND, "not found")
	_, _, companyToken := w.open(t, fixture.OwnerIN) // a company signs with E-IMZO
	_, err = w.svc.StartIdentity(companyToken, w.actor)
	wantCode(t, err, signflow.EINVALID, "not confirmed through an identity provider")

	// MY_ID listed as configured but without a provider.
	bare := signflow.NewService(w.DB, w.Options)
	_, _, token := w.open(t, fixture.CustomerIN)
	_, err = bare.StartIdentity(token, w.actor)
	wantCode(t, err, signflow.EINVALID, "MY_ID is not configured")
}

// Two callbacks racing with the same state: exactly one signs.
func TestIdentityStateWorksOnceUnderRace(t *testing.T) {
	w := newIDWorld(t, 0)
	_, _, token := w.open(t, fixture.CustomerIN)
	authURL, _ := w.svc.StartIdentity(token, w.actor)
	code, state := idptest.Login(t, authURL)
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			_, err := w.svc.FinishIdentity(context.Background(), state, code, w.actor)
			errs <- err
		}()
	}
	ok := 0
	for range 4 {
		if err := <-errs; err == nil {
			ok++
		} else if signflow.ErrorCode(err) != signflow.EFORBIDDEN {
			t.Errorf("unexpected refusal %v", err)
		}
	}
	if ok != 1 || w.myid.Exchanges() != 1 {
		t.Fatalf("%d callbacks signed, %d exchanges; want 1 and 1", ok, w.myid.Exchanges())
	}
}
