package signflow_test

import (
	"strings"
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// A token whose MAC was checked once is remembered, yet everything else
// about it is checked on every request: its expiry, the app's secret
// generation and whether the app is cancelled. A forged token is refused
// however often it comes, and never makes a real one fail.
func TestCheckedTokensStillExpireRotateAndCancel(t *testing.T) {
	w := fixture.NewStandard(t)
	svc := w.Service
	refused := func(token, why string) {
		t.Helper()
		if _, err := svc.AuthenticateToken(token); signflow.ErrorCode(err) != signflow.EUNAUTHORIZED {
			t.Fatalf("%s: %v, want EUNAUTHORIZED", why, err)
		}
	}
	issue := func(id, secret string) string {
		t.Helper()
		tok, err := svc.IssueToken(id, secret)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}

	token := issue(w.AppA.ID, w.AppA.Secret)
	i := strings.LastIndexByte(token, '.')
	forged := token[:i+1] + strings.Repeat("A", len(token)-i-1)
	for range 3 {
		refused(forged, "a token with a wrong MAC")
		app, err := svc.AuthenticateToken(token)
		if err != nil || app.ID != w.AppA.ID {
			t.Fatalf("the token, checked again: %v, %v", app, err)
		}
	}

	// Expiry holds for a remembered token.
	w.Clock.Advance(signflow.TokenTTL)
	refused(token, "an expired token")

	// A rotated secret stops the remembered token at once.
	token = issue(w.AppA.ID, w.AppA.Secret)
	if _, err := svc.AuthenticateToken(token); err != nil {
		t.Fatal(err)
	}
	fresh, err := svc.RotateAppSecret(w.AppA.ID)
	if err != nil {
		t.Fatal(err)
	}
	refused(token, "a token of the old secret")

	// A cancelled app's remembered token stops at once; another app's goes on.
	token = issue(w.AppA.ID, fresh)
	tokenB := issue(w.AppB.ID, w.AppB.Secret)
	for _, tok := range []string{token, tokenB} {
		if _, err := svc.AuthenticateToken(tok); err != nil {
			t.Fatal(err)
		}
	}
	if err := svc.CancelApp(w.AppA.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.AuthenticateToken(token); err == nil {
		t.Fatal("a cancelled app's token still works")
	}
	if app, err := svc.AuthenticateToken(tokenB); err != nil || app.ID != w.AppB.ID {
		t.Fatalf("the other app's token: %v, %v", app, err)
	}
}
