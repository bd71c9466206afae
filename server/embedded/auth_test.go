package embedded

import (
	"strconv"
	"testing"
	"time"

	"contracts/internal/apitest"
	"contracts/internal/fixture"
	"contracts/signflow"
)

func TestTokenEndpoint(t *testing.T) {
	e := newEnv(t, 0)
	badCreds := `"message":"Invalid appId or appSecret."`
	apitest.Run(t, e.api, []apitest.Scenario{
		{Name: "valid credentials", Method: "POST", Path: "/v1/auth/token",
			Body:   map[string]string{"appId": e.AppA.ID, "appSecret": e.AppA.Secret},
			Status: 200, Want: []string{`"accessToken":"`, `"tokenType":"Bearer"`, `"expiresIn":3600`}},
		{Name: "wrong secret", Method: "POST", Path: "/v1/auth/token",
			Body:   map[string]string{"appId": e.AppA.ID, "appSecret": e.AppB.Secret},
			Status: 401, Want: []string{badCreds}},
		{Name: "unknown app id gives the same answer", Method: "POST", Path: "/v1/auth/token",
			Body:   map[string]string{"appId": signflow.NewID(), "appSecret": e.AppA.Secret},
			Status: 401, Want: []string{badCreds}},
		{Name: "missing secret", Method: "POST", Path: "/v1/auth/token",
			Body: map[string]string{"appId": e.AppA.ID}, Status: 400, Want: []string{"appSecret"}},
		{Name: "malformed JSON", Method: "POST", Path: "/v1/auth/token", Body: `{"appId":`, Status: 400},
		{Name: "wrong type names the field", Method: "POST", Path: "/v1/auth/token",
			Body: `{"appId": 12, "appSecret": "x"}`, Status: 400, Want: []string{"appId: must be a string"}},
		{Name: "unknown fields are ignored", Method: "POST", Path: "/v1/auth/token",
			Body:   map[string]string{"appId": e.AppA.ID, "appSecret": e.AppA.Secret, "grantType": "client_credentials"},
			Status: 200, Want: []string{`"tokenType":"Bearer"`}},
	})
}

func TestBearerToken(t *testing.T) {
	e := newEnv(t, 0)
	tok := e.token(e.AppA)
	bearer := func(v string) map[string]string { return map[string]string{"Authorization": v} }
	apitest.Run(t, e.api, []apitest.Scenario{
		{Name: "no header", Path: "/v1/templates", Status: 401},
		{Name: "basic scheme", Path: "/v1/templates", Header: bearer("Basic " + tok), Status: 401},
		{Name: "garbage", Path: "/v1/templates", Header: bearer("Bearer not.a.real.token"), Status: 401},
		{Name: "tampered expiry", Path: "/v1/templates", Header: bearer("Bearer " + tamper(tok)), Status: 401},
		{Name: "valid, lower-case scheme", Path: "/v1/templates", Header: bearer("bearer " + tok), Status: 200},
		{Name: "valid", Path: "/v1/templates", Header: bearer("Bearer " + tok), Status: 200},
	})
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
	if r := e.do("GET", "/v1/templates", tok, nil); r.Status != 200 {
		t.Fatalf("just before expiry: %d %s", r.Status, r)
	}
	e.Clock.Advance(time.Second)
	if r := e.do("GET", "/v1/templates", tok, nil); r.Status != 401 {
		t.Fatalf("after an hour: %d %s", r.Status, r)
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
	if r := e.do("POST", "/v1/auth/token", "", map[string]string{"appId": e.AppA.ID, "appSecret": e.AppA.Secret}); r.Status != 401 {
		t.Fatalf("old secret: %d %s", r.Status, r)
	}
	if r := e.do("GET", "/v1/templates", old, nil); r.Status != 401 {
		t.Fatalf("token of the old secret: %d %s", r.Status, r)
	}
	fresh := e.token(&signflow.NewCredential{ID: e.AppA.ID, Secret: secret})
	if r := e.do("GET", "/v1/templates", fresh, nil); r.Status != 200 {
		t.Fatalf("token of the new secret: %d %s", r.Status, r)
	}
	if r := e.do("GET", "/v1/templates", e.token(e.AppB), nil); r.Status != 200 {
		t.Fatalf("another app is affected: %d %s", r.Status, r)
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
	if r.Status != 403 {
		t.Fatalf("token of a cancelled app: %d %s", r.Status, r)
	}
	e.api.Check(t, "/v1/auth/token", r)
	if r := e.do("GET", "/v1/templates", tok, nil); r.Status != 403 {
		t.Fatalf("API with a cancelled app's token: %d %s", r.Status, r)
	}
	// A wrong secret of a cancelled app still says nothing about the app.
	if r := e.do("POST", "/v1/auth/token", "", map[string]string{"appId": e.AppA.ID, "appSecret": "wrong"}); r.Status != 401 {
		t.Fatalf("wrong secret of a cancelled app: %d %s", r.Status, r)
	}

	until := e.Clock.Now().Add(10 * time.Minute)
	app := fixture.MustCredential(t, e.Service.CreateApp, &signflow.CredentialInput{Name: "short", OwnerIN: fixture.OwnerIN,
		Scopes: signflow.AppScopes, AllTemplates: true, ExpiresAt: &until})
	tok = e.token(app)
	e.Clock.Advance(10 * time.Minute)
	if r := e.do("GET", "/v1/templates", tok, nil); r.Status != 403 {
		t.Fatalf("API with an expired app's token: %d %s", r.Status, r)
	}
	if r := e.do("POST", "/v1/auth/token", "", map[string]string{"appId": app.ID, "appSecret": app.Secret}); r.Status != 403 {
		t.Fatalf("token of an expired app: %d %s", r.Status, r)
	}
}

// Failures at the token endpoint are limited per client IP and per app,
// answering 429 with Retry-After, and refill with the service clock; a
// correct secret is checked first and always gets its token.
func TestTokenRateLimit(t *testing.T) {
	e := newEnv(t, 3)
	e.trustLoopback()
	ask := func(cred *signflow.NewCredential, secret, ip string) apitest.Reply {
		return e.do("POST", "/v1/auth/token", "", map[string]string{"appId": cred.ID, "appSecret": secret}, "X-Forwarded-For", ip)
	}
	t.Run("per IP", func(t *testing.T) {
		for i, cred := range []*signflow.NewCredential{e.AppB, e.AppB, e.AppB} {
			if r := ask(cred, "guess", "203.0.113.1"); r.Status != 401 {
				t.Fatalf("guess %d: %d %s", i, r.Status, r)
			}
		}
		r := ask(e.AppB, "guess", "203.0.113.1")
		if r.Status != 429 {
			t.Fatalf("4th failure from one IP: %d %s", r.Status, r)
		}
		e.api.Check(t, "/v1/auth/token", r)
		if s, err := strconv.Atoi(r.Header.Get("Retry-After")); err != nil || s < 1 || s > 20 {
			t.Fatalf("Retry-After %q", r.Header.Get("Retry-After"))
		}
		if r := ask(e.AppA, e.AppA.Secret, "203.0.113.1"); r.Status != 200 {
			t.Fatalf("a correct secret from the limited IP: %d %s", r.Status, r)
		}
		if r := ask(e.AppA, "guess", "203.0.113.2"); r.Status != 401 {
			t.Fatalf("another IP is limited: %d %s", r.Status, r)
		}
	})
	t.Run("per app", func(t *testing.T) {
		// AppA has one failure above (from 203.0.113.2); two more from fresh
		// addresses, then its failures are refused from anywhere.
		for i := range 2 {
			if r := ask(e.AppA, "guess", "198.51.100."+strconv.Itoa(i+1)); r.Status != 401 {
				t.Fatalf("failure %d for the app: %d %s", i+2, r.Status, r)
			}
		}
		if r := ask(e.AppA, "guess", "198.51.100.9"); r.Status != 429 || r.Header.Get("Retry-After") == "" {
			t.Fatalf("4th failure for one app from a new IP: %d %s", r.Status, r)
		}
		if r := ask(e.AppA, e.AppA.Secret, "198.51.100.10"); r.Status != 200 {
			t.Fatalf("the app's correct secret after its failures: %d %s", r.Status, r)
		}
		if r := ask(e.app(signflow.AppScopes), "guess", "198.51.100.11"); r.Status != 401 {
			t.Fatalf("another app is limited: %d %s", r.Status, r)
		}
	})
	t.Run("refills with the clock", func(t *testing.T) {
		e.Clock.Advance(20 * time.Second)
		if r := ask(e.AppA, "guess", "198.51.100.12"); r.Status != 401 {
			t.Fatalf("after 20s: %d %s", r.Status, r)
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
	guess := func(i int) apitest.Reply {
		return e.do("POST", "/v1/auth/token", "", map[string]string{"appId": e.AppA.ID, "appSecret": "guess"},
			"X-Forwarded-For", "203.0.113."+strconv.Itoa(i%250+1))
	}
	for i := range 60 {
		if r := guess(i); r.Status != 401 {
			t.Fatalf("guess %d: %d %s", i, r.Status, r)
		}
	}
	correct := func(when string) {
		t.Helper()
		r := e.do("POST", "/v1/auth/token", "", map[string]string{"appId": e.AppA.ID, "appSecret": e.AppA.Secret},
			"X-Forwarded-For", "192.0.2.10")
		if r.Status != 200 {
			t.Fatalf("the real app's correct request %s: %d %s", when, r.Status, r)
		}
	}
	if r := guess(60); r.Status != 429 {
		t.Fatalf("the 61st guess: %d %s", r.Status, r)
	}
	correct("after 61 guesses")
	for second := 1; second <= 90; second++ {
		// The app's budget refills by one failure a second: the first guess
		// of each second spends it, the next is refused.
		e.Clock.Advance(time.Second)
		if r := guess(second); r.Status != 401 {
			t.Fatalf("first guess of second %d: %d %s", second, r.Status, r)
		}
		if r := guess(second + 100); r.Status != 429 {
			t.Fatalf("second guess of second %d: %d %s", second, r.Status, r)
		}
		correct("at second " + strconv.Itoa(second))
	}
}
