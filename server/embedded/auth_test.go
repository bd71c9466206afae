package embedded

import (
	"strconv"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"
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

// Failures at the token endpoint are limited per client IP and per app,
// answering 429 with Retry-After, and refill with the service clock; a
// correct secret is checked first and always gets its token.
func TestTokenRateLimit(t *testing.T) {
	e := newEnv(t, 3)
	e.trustLoopback()
	ask := func(cred *signflow.NewCredential, secret, ip string) reply {
		return e.do("POST", "/v1/auth/token", "", map[string]string{"appId": cred.ID, "appSecret": secret}, "X-Forwarded-For", ip)
	}
	t.Run("per IP", func(t *testing.T) {
		for i, cred := range []*signflow.NewCredential{e.AppB, e.AppB, e.AppB} {
			if r := ask(cred, "guess", "203.0.113.1"); r.status != 401 {
				t.Fatalf("guess %d: %d %s", i, r.status, r)
			}
		}
		r := ask(e.AppB, "guess", "203.0.113.1")
		if r.status != 429 {
			t.Fatalf("4th failure from one IP: %d %s", r.status, r)
		}
		checkJSONReply(t, r)
		if s, err := strconv.Atoi(r.header.Get("Retry-After")); err != nil || s < 1 || s > 20 {
			t.Fatalf("Retry-After %q", r.header.Get("Retry-After"))
		}
		if r := ask(e.AppA, e.AppA.Secret, "203.0.113.1"); r.status != 200 {
			t.Fatalf("a correct secret from the limited IP: %d %s", r.status, r)
		}
		if r := ask(e.AppA, "guess", "203.0.113.2"); r.status != 401 {
			t.Fatalf("another IP is limited: %d %s", r.status, r)
		}
	})
	t.Run("per app", func(t *testing.T) {
		// AppA has one failure above (from 203.0.113.2); two more from fresh
		// addresses, then its failures are refused from anywhere.
		for i := range 2 {
			if r := ask(e.AppA, "guess", "198.51.100."+strconv.Itoa(i+1)); r.status != 401 {
				t.Fatalf("failure %d for the app: %d %s", i+2, r.status, r)
			}
		}
		if r := ask(e.AppA, "guess", "198.51.100.9"); r.status != 429 || r.header.Get("Retry-After") == "" {
			t.Fatalf("4th failure for one app from a new IP: %d %s", r.status, r)
		}
		if r := ask(e.AppA, e.AppA.Secret, "198.51.100.10"); r.status != 200 {
			t.Fatalf("the app's correct secret after its failures: %d %s", r.status, r)
		}
		if r := ask(e.app(signflow.AppScopes), "guess", "198.51.100.11"); r.status != 401 {
			t.Fatalf("another app is limited: %d %s", r.status, r)
		}
	})
	t.Run("refills with the clock", func(t *testing.T) {
		e.Clock.Advance(20 * time.Second)
		if r := ask(e.AppA, "guess", "198.51.100.12"); r.status != 401 {
			t.Fatalf("after 20s: %d %s", r.status, r)
		}
	})
}

// The lock-out that was: 60 wrong secrets from other addresses within a
// minute, then one more a second, must not keep the real app from its
// token. Its correct requests, from its own address, all succeed while the
// guesses are refused.
func TestTokenNoLockOut(t *testing.T) {
	e := newEnv(t, 60)
	e.trustLoopback()
	guess := func(i int) reply {
		return e.do("POST", "/v1/auth/token", "", map[string]string{"appId": e.AppA.ID, "appSecret": "guess"},
			"X-Forwarded-For", "203.0.113."+strconv.Itoa(i%250+1))
	}
	for i := range 60 {
		if r := guess(i); r.status != 401 {
			t.Fatalf("guess %d: %d %s", i, r.status, r)
		}
	}
	correct := func(when string) {
		t.Helper()
		r := e.do("POST", "/v1/auth/token", "", map[string]string{"appId": e.AppA.ID, "appSecret": e.AppA.Secret},
			"X-Forwarded-For", "192.0.2.10")
		if r.status != 200 {
			t.Fatalf("the real app's correct request %s: %d %s", when, r.status, r)
		}
	}
	if r := guess(60); r.status != 429 {
		t.Fatalf("the 61st guess: %d %s", r.status, r)
	}
	correct("after 61 guesses")
	for second := 1; second <= 90; second++ {
		// The app's budget refills by one failure a second: the first guess
		// of each second spends it, the next is refused.
		e.Clock.Advance(time.Second)
		if r := guess(second); r.status != 401 {
			t.Fatalf("first guess of second %d: %d %s", second, r.status, r)
		}
		if r := guess(second + 100); r.status != 429 {
			t.Fatalf("second guess of second %d: %d %s", second, r.status, r)
		}
		correct("at second " + strconv.Itoa(second))
	}
}
