package signflow_test

import (
	"strings"
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// Tokens and keys as the interfaces take them are checked by
// server/embedded/auth_test.go (TestTokenEndpoint, TestBearerToken,
// TestTokenExpiresAfterAnHour, TestSecretRotation,
// TestCancelledAndExpiredApps) and server/keyapi/auth_test.go
// (TestAuthentication, TestExpiredKey); the token cache's part is
// signflow/tokencache_test.go. Here, the rule of auth.go: a token is good
// for its own app, unaltered, until TokenTTL or the next secret rotation;
// a bad id and a bad secret are refused alike; a key is good while usable.
func TestTokensAndKeysAuthenticate(t *testing.T) {
	w := fixture.NewStandard(t)
	svc := w.Service
	token, err := svc.IssueToken(w.AppA.ID, w.AppA.Secret)
	if err != nil {
		t.Fatal(err)
	}
	if app, err := svc.AuthenticateToken(token); err != nil || app.ID != w.AppA.ID {
		t.Fatalf("fresh token: %v, %v", app, err)
	}
	_, wrongSecret := svc.IssueToken(w.AppA.ID, w.AppB.Secret)
	_, unknownID := svc.IssueToken(signflow.NewID(), w.AppA.Secret)
	if signflow.ErrorCode(wrongSecret) != signflow.EUNAUTHORIZED || signflow.ErrorMessage(wrongSecret) != signflow.ErrorMessage(unknownID) {
		t.Errorf("wrong secret %v, unknown id %v: want the same refusal", wrongSecret, unknownID)
	}

	parts := strings.Split(token, ".")
	flip := map[byte]string{'A': "B"}[parts[3][0]]
	if flip == "" {
		flip = "A"
	}
	for name, bad := range map[string]string{
		"another app's id": w.AppB.ID + "." + parts[1] + "." + parts[2] + "." + parts[3],
		"later expiry":     parts[0] + "." + parts[1] + ".9999999999." + parts[3],
		"altered MAC":      parts[0] + "." + parts[1] + "." + parts[2] + "." + flip + parts[3][1:],
		"three parts":      parts[0] + "." + parts[2] + "." + parts[3],
		"empty":            "",
	} {
		if _, err := svc.AuthenticateToken(bad); signflow.ErrorCode(err) != signflow.EUNAUTHORIZED {
			t.Errorf("%s: %v, want unauthorized", name, err)
		}
	}

	w.Clock.Advance(signflow.TokenTTL)
	if _, err := svc.AuthenticateToken(token); signflow.ErrorCode(err) != signflow.EUNAUTHORIZED {
		t.Errorf("token at its expiry: %v", err)
	}
	fresh, err := svc.IssueToken(w.AppA.ID, w.AppA.Secret)
	if err != nil {
		t.Fatal(err)
	}
	secret, err := svc.RotateAppSecret(w.AppA.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.AuthenticateToken(fresh); signflow.ErrorCode(err) != signflow.EUNAUTHORIZED {
		t.Errorf("token of the rotated secret: %v", err)
	}
	if _, err := svc.IssueToken(w.AppA.ID, w.AppA.Secret); signflow.ErrorCode(err) != signflow.EUNAUTHORIZED {
		t.Errorf("old secret after rotation: %v", err)
	}
	if _, err := svc.IssueToken(w.AppA.ID, secret); err != nil {
		t.Errorf("new secret: %v", err)
	}

	if k, err := svc.AuthenticateKey(w.KeyA.Secret); err != nil || k.ID != w.KeyA.ID {
		t.Fatalf("key A: %v, %v", k, err)
	}
	for name, raw := range map[string]string{
		"without prefix": strings.TrimPrefix(w.KeyA.Secret, signflow.KeyPrefix),
		"unknown":        signflow.KeyPrefix + "unknown",
		"too long":       w.KeyA.Secret + strings.Repeat("x", 200),
	} {
		if _, err := svc.AuthenticateKey(raw); signflow.ErrorCode(err) != signflow.EUNAUTHORIZED {
			t.Errorf("key %s: %v, want unauthorized", name, err)
		}
	}
	fixture.Must(t, func() error { return svc.RevokeKey(w.KeyA.ID) })
	if _, err := svc.AuthenticateKey(w.KeyA.Secret); signflow.ErrorCode(err) != signflow.EUNAUTHORIZED {
		t.Errorf("revoked key: %v", err)
	}
}
