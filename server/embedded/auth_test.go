package embedded

import (
	"strconv"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

func TestTokenEndpoint(t *testing.T) {
	e := newEnv(t, 0)
	badCreds := `"message":"Invalid appId or appSecret."`
	e.run(t, []scenario{
		{name: "valid credentials", method: "POST", path: "/v1/auth/token",
			body:   map[string]string{"appId": e.AppA.ID, "appSecret": e.AppA.Secret},
			status: 200, want: []string{`"accessToken":"`, `"tokenType":"Bearer"`, `"expiresIn":3600`}},
		{name: "wrong secret", method: "POST", path: "/v1/auth/token",
			body:   map[string]string{"appId": e.AppA.ID, "appSecret": e.AppB.Secret},
			status: 401, want: []string{badCreds}},
		{name: "unknown app id gives the same answer", method: "POST", path: "/v1/auth/token",
			body:   map[string]string{"appId": signflow.NewID(), "appSecret": e.AppA.Secret},
			status: 401, want: []string{badCreds}},
		{name: "missing secret", method: "POST", path: "/v1/auth/token",
			body: map[string]string{"appId": e.AppA.ID}, status: 400, want: []string{"appSecret"}},
		{name: "malformed JSON", method: "POST", path: "/v1/auth/token", body: `{"appId":`, status: 400},
		{name: "wrong type names the field", method: "POST", path: "/v1/auth/token",
			body: `{"appId": 12, "appSecret": "x"}`, status: 400, want: []string{"appId: must be a string"}},
		{name: "unknown fields are ignored", method: "POST", path: "/v1/auth/token",
			body:   map[string]string{"appId": e.AppA.ID, "appSecret": e.AppA.Secret, "grantType": "client_credentials"},
			status: 200, want: []string{`"tokenType":"Bearer"`}},
	})
}

func TestBearerToken(t *testing.T) {
	e := newEnv(t, 0)
	tok := e.token(e.AppA)
	for _, tc := range []struct {
		name, header string
		status       int
	}{
		{"no header", "", 401},
		{"basic scheme", "Basic " + tok, 401},
		{"garbage", "Bearer not.a.real.token", 401},
		{"tampered expiry", "Bearer " + tamper(tok), 401},
		{"valid, lower-case scheme", "bearer " + tok, 200},
		{"valid", "Bearer " + tok, 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var h []string
			if tc.header != "" {
				h = []string{"Authorization", tc.header}
			}
			r := e.do("GET", "/v1/templates", "", nil, h...)
			if r.status != tc.status {
				t.Fatalf("status %d, want %d: %s", r.status, tc.status, r)
			}
			checkJSONReply(t, r)
		})
	}
}

// tamper moves a token's expiry one second later without re-signing it.
func tamper(tok string) string {
	b := []byte(tok)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == '.' {
			// the expiry ends just before the last dot
			b[i-1]++
			break
		}
	}
	return string(b)
}

// A token lives one hour on the service clock.
func TestTokenExpiresAfterAnHour(t *testing.T) {
	e := newEnv(t, 0)
	tok := e.token(e.AppA)
	e.Clock.Advance(59*time.Minute + 59*time.Second)
	if r := e.do("GET", "/v1/templates", tok, nil); r.status != 200 {
		t.Fatalf("just before expiry: %d %s", r.status, r)
	}
	e.Clock.Advance(time.Second)
	if r := e.do("GET", "/v1/templates", tok, nil); r.status != 401 {
		t.Fatalf("after an hour: %d %s", r.status, r)
	}
}

// Rotating the secret stops the old secret and every token issued with it.
func TestSecretRotation(t *testing.T) {
	e := newEnv(t, 0)
	old := e.token(e.AppA)
	secret, err := e.Service.RotateAppSecret(e.AppA.ID)
	if err != nil {
		t.Fatal(err)
	}
	if r := e.do("POST", "/v1/auth/token", "", map[string]string{"appId": e.AppA.ID, "appSecret": e.AppA.Secret}); r.status != 401 {
		t.Fatalf("old secret: %d %s", r.status, r)
	}
	if r := e.do("GET", "/v1/templates", old, nil); r.status != 401 {
		t.Fatalf("token of the old secret: %d %s", r.status, r)
	}
	fresh := e.token(&signflow.NewCredential{ID: e.AppA.ID, Secret: secret})
	if r := e.do("GET", "/v1/templates", fresh, nil); r.status != 200 {
		t.Fatalf("token of the new secret: %d %s", r.status, r)
	}
	if r := e.do("GET", "/v1/templates", e.token(e.AppB), nil); r.status != 200 {
		t.Fatalf("another app is affected: %d %s", r.status, r)
	}
}

// A cancelled or expired app is 403 at the token endpoint and on the API.
func TestCancelledAndExpiredApps(t *testing.T) {
	e := newEnv(t, 0)
	tok := e.token(e.AppA)
	if err := e.Service.CancelApp(e.AppA.ID); err != nil {
		t.Fatal(err)
	}
	r := e.do("POST", "/v1/auth/token", "", map[string]string{"appId": e.AppA.ID, "appSecret": e.AppA.Secret})
	if r.status != 403 {
		t.Fatalf("token of a cancelled app: %d %s", r.status, r)
	}
	checkJSONReply(t, r)
	if r := e.do("GET", "/v1/templates", tok, nil); r.status != 403 {
		t.Fatalf("API with a cancelled app's token: %d %s", r.status, r)
	}
	// A wrong secret of a cancelled app still says nothing about the app.
	if r := e.do("POST", "/v1/auth/token", "", map[string]string{"appId": e.AppA.ID, "appSecret": "wrong"}); r.status != 401 {
		t.Fatalf("wrong secret of a cancelled app: %d %s", r.status, r)
	}

	until := e.Clock.Now().Add(10 * time.Minute)
	app := fixture.MustCredential(t, e.Service.CreateApp, &signflow.CredentialInput{Name: "short", OwnerIN: fixture.OwnerIN,
		Scopes: signflow.AppScopes, AllTemplates: true, ExpiresAt: &until})
	tok = e.token(app)
	e.Clock.Advance(10 * time.Minute)
	if r := e.do("GET", "/v1/templates", tok, nil); r.status != 403 {
		t.Fatalf("API with an expired app's token: %d %s", r.status, r)
	}
	if r := e.do("POST", "/v1/auth/token", "", map[string]string{"appId": app.ID, "appSecret": app.Secret}); r.status != 403 {
		t.Fatalf("token of an expired app: %d %s", r.status, r)
	}
}

// The token endpoint is limited per client IP and per app, answering 429
// with Retry-After, and refills with the service clock.
func TestTokenRateLimit(t *testing.T) {
	e := newEnv(t, 3)
	// Trust X-Forwarded-For from the loopback test client, so that the
	// test can speak from several addresses.
	e.echo.IPExtractor = echo.ExtractIPFromXFFHeader()
	ask := func(cred *signflow.NewCredential, ip string) reply {
		return e.do("POST", "/v1/auth/token", "", map[string]string{"appId": cred.ID, "appSecret": cred.Secret}, "X-Forwarded-For", ip)
	}
	t.Run("per IP", func(t *testing.T) {
		for i, cred := range []*signflow.NewCredential{e.AppA, e.AppB, e.AppA} {
			if r := ask(cred, "203.0.113.1"); r.status != 200 {
				t.Fatalf("call %d: %d %s", i, r.status, r)
			}
		}
		r := ask(e.AppB, "203.0.113.1")
		if r.status != 429 {
			t.Fatalf("4th call from one IP: %d %s", r.status, r)
		}
		checkJSONReply(t, r)
		if s, err := strconv.Atoi(r.header.Get("Retry-After")); err != nil || s < 1 || s > 20 {
			t.Fatalf("Retry-After %q", r.header.Get("Retry-After"))
		}
		if r := ask(e.AppB, "203.0.113.2"); r.status != 200 {
			t.Fatalf("another IP is limited: %d %s", r.status, r)
		}
	})
	t.Run("per app", func(t *testing.T) {
		// AppA has used 2 of 3 calls above; one more from a fresh IP, then refused.
		if r := ask(e.AppA, "198.51.100.1"); r.status != 200 {
			t.Fatalf("3rd call for the app: %d %s", r.status, r)
		}
		if r := ask(e.AppA, "198.51.100.2"); r.status != 429 || r.header.Get("Retry-After") == "" {
			t.Fatalf("4th call for one app from a new IP: %d %s", r.status, r)
		}
		// A wrong secret counts too: guessing is limited.
		if r := e.do("POST", "/v1/auth/token", "", map[string]string{"appId": e.AppA.ID, "appSecret": "guess"}, "X-Forwarded-For", "198.51.100.3"); r.status != 429 {
			t.Fatalf("guess for a limited app: %d %s", r.status, r)
		}
	})
	t.Run("refills with the clock", func(t *testing.T) {
		e.Clock.Advance(20 * time.Second)
		if r := ask(e.AppA, "198.51.100.4"); r.status != 200 {
			t.Fatalf("after 20s: %d %s", r.status, r)
		}
	})
}
