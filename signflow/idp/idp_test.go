package idp_test

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"contracts/internal/config"
	"contracts/signflow"
	"contracts/signflow/idp"
	"contracts/signflow/idp/idptest"
)

const pinfl = "31234567890123"

func newProvider(t *testing.T, mod func(*idp.Config)) (*idp.Provider, *idptest.Provider) {
	t.Helper()
	fake := idptest.New(t, "contracts", "s3cret-value", idp.CallbackURL("https://sign.example/"))
	fake.Set(func(p *idptest.Provider) { p.Userinfo = map[string]any{"pinfl": pinfl} })
	cfg := idp.Config{Name: "MyID", AuthURL: fake.AuthURL(), TokenURL: fake.TokenURL(), UserinfoURL: fake.UserinfoURL(),
		ClientID: "contracts", ClientSecret: "s3cret-value", Scope: "openid profile", InClaim: "pinfl",
		RedirectURL: idp.CallbackURL("https://sign.example/"), PKCEKey: []byte("pkce key for tests"),
		Timeout: config.Default().Identity.MyID.Timeout}
	if mod != nil {
		mod(&cfg)
	}
	p, err := idp.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p, fake
}

func TestAuthURLCarriesStateAndS256ButNoSecret(t *testing.T) {
	p, _ := newProvider(t, nil)
	u, err := url.Parse(p.AuthURL("state-1"))
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	if q.Get("state") != "state-1" || q.Get("client_id") != "contracts" || q.Get("response_type") != "code" ||
		q.Get("redirect_uri") != "https://sign.example/sign/idp/callback" || q.Get("scope") != "openid profile" {
		t.Fatalf("auth URL query %v", q)
	}
	if q.Get("code_challenge_method") != "S256" || len(q.Get("code_challenge")) != 43 {
		t.Fatalf("PKCE: %v", q)
	}
	if strings.Contains(u.String(), "s3cret") {
		t.Fatal("the client secret is in the authorization URL")
	}
	if other := p.AuthURL("state-2"); strings.Contains(other, q.Get("code_challenge")) {
		t.Fatal("two states share a PKCE challenge")
	}
	noPKCE, _ := newProvider(t, func(c *idp.Config) { c.DisablePKCE = true })
	if strings.Contains(noPKCE.AuthURL("s"), "code_challenge") {
		t.Fatal("DisablePKCE still sends a challenge")
	}
}

func TestIdentifyRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name  string
		claim string
		doc   map[string]any
		pkce  bool
	}{
		{"string claim with PKCE", "pinfl", map[string]any{"pinfl": pinfl}, true},
		{"number claim", "pinfl", map[string]any{"pinfl": 31234567890123}, true},
		{"nested claim", "profile.common_data.pinfl", map[string]any{"profile": map[string]any{"common_data": map[string]any{"pinfl": pinfl}}}, true},
		{"without PKCE", "pinfl", map[string]any{"pinfl": pinfl}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, fake := newProvider(t, func(c *idp.Config) { c.InClaim, c.DisablePKCE = tc.claim, !tc.pkce })
			fake.Set(func(f *idptest.Provider) { f.Userinfo = tc.doc })
			code, state := idptest.Login(t, p.AuthURL("the-state"))
			if state != "the-state" || code == "" {
				t.Fatalf("redirect gave code %q state %q", code, state)
			}
			in, err := p.Identify(context.Background(), state, code)
			if err != nil || in != pinfl {
				t.Fatalf("Identify = %q, %v", in, err)
			}
			form := fake.LastTokenRequest()
			if form.Get("client_secret") != "s3cret-value" || (form.Get("code_verifier") != "") != tc.pkce {
				t.Fatalf("token request %v", form)
			}
			// The code is single use at the provider: a second exchange is refused.
			if _, err := p.Identify(context.Background(), state, code); signflow.ErrorCode(err) != signflow.EINVALID {
				t.Fatalf("reused code: %v", err)
			}
		})
	}
}

func TestIdentifyNeedsTheStateThatMadeTheChallenge(t *testing.T) {
	p, _ := newProvider(t, nil)
	code, _ := idptest.Login(t, p.AuthURL("state-a"))
	_, err := p.Identify(context.Background(), "state-b", code)
	if signflow.ErrorCode(err) != signflow.EINVALID {
		t.Fatalf("a code exchanged with another state's verifier: %v", err)
	}
}

func TestIdentifyRefusals(t *testing.T) {
	for _, tc := range []struct {
		name    string
		doc     map[string]any
		set     func(*idptest.Provider)
		code    string
		want    string
		message string
	}{
		{name: "claim missing", doc: map[string]any{"sub": "x"}, want: signflow.EINVALID, message: "14-digit"},
		{name: "claim not 14 digits", doc: map[string]any{"pinfl": "1234"}, want: signflow.EINVALID, message: "14-digit"},
		{name: "claim not a number", doc: map[string]any{"pinfl": true}, want: signflow.EINVALID, message: "14-digit"},
		{name: "refused code", code: "forged", want: signflow.EINVALID, message: "invalid_grant"},
		{name: "token 500", set: func(f *idptest.Provider) { f.TokenStatus = 500 }, want: signflow.EUNAVAILABLE, message: "HTTP 500"},
		{name: "token 503", set: func(f *idptest.Provider) { f.TokenStatus = 503 }, want: signflow.EUNAVAILABLE, message: "retry"},
		{name: "wrong client secret", set: func(f *idptest.Provider) { f.ClientSecret = "other" }, want: signflow.EINVALID, message: "invalid_client"},
		{name: "userinfo 502", set: func(f *idptest.Provider) { f.UserinfoStatus = 502 }, want: signflow.EUNAVAILABLE, message: "HTTP 502"},
		{name: "userinfo 403", set: func(f *idptest.Provider) { f.UserinfoStatus = 403 }, want: signflow.EINVALID, message: "HTTP 403"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, fake := newProvider(t, nil)
			if tc.doc != nil {
				fake.Set(func(f *idptest.Provider) { f.Userinfo = tc.doc })
			}
			code, state := idptest.Login(t, p.AuthURL("s"))
			if tc.set != nil {
				fake.Set(tc.set)
			}
			if tc.code != "" {
				code = tc.code
			}
			in, err := p.Identify(context.Background(), state, code)
			if signflow.ErrorCode(err) != tc.want || !strings.Contains(signflow.ErrorMessage(err), tc.message) || in != "" {
				t.Fatalf("Identify = %q, %v; want %s mentioning %q", in, err, tc.want, tc.message)
			}
			if strings.Contains(signflow.ErrorMessage(err), "s3cret") {
				t.Fatal("the client secret is in the message")
			}
		})
	}
}

func TestIdentifyTimeOut(t *testing.T) {
	p, fake := newProvider(t, func(c *idp.Config) { c.Timeout = 100 * time.Millisecond })
	code, state := idptest.Login(t, p.AuthURL("s"))
	fake.Set(func(f *idptest.Provider) { f.TokenDelay = 5 * time.Second })
	start := time.Now()
	_, err := p.Identify(context.Background(), state, code)
	if signflow.ErrorCode(err) != signflow.EUNAVAILABLE || !strings.Contains(signflow.ErrorMessage(err), "did not answer within 100ms") {
		t.Fatalf("slow provider: %v", err)
	}
	if time.Since(start) > 2*time.Second {
		t.Fatalf("Identify waited %s", time.Since(start))
	}
	// The caller's context bounds the call too.
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	p2, fake2 := newProvider(t, nil)
	code, state = idptest.Login(t, p2.AuthURL("s"))
	fake2.Set(func(f *idptest.Provider) { f.TokenDelay = 5 * time.Second })
	if _, err := p2.Identify(ctx, state, code); signflow.ErrorCode(err) != signflow.EUNAVAILABLE {
		t.Fatalf("cancelled context: %v", err)
	}
}

func TestIdentifyProviderDown(t *testing.T) {
	p, fake := newProvider(t, nil)
	code, state := idptest.Login(t, p.AuthURL("s"))
	fake.Close()
	if _, err := p.Identify(context.Background(), state, code); signflow.ErrorCode(err) != signflow.EUNAVAILABLE {
		t.Fatalf("provider down: %v", err)
	}
}

func TestNewRejectsIncompleteConfig(t *testing.T) {
	good := idp.Config{AuthURL: "https://id.example/a", TokenURL: "https://id.example/t", UserinfoURL: "https://id.example/u",
		ClientID: "c", InClaim: "pinfl", RedirectURL: "https://sign.example/sign/idp/callback", Timeout: time.Second}
	if _, err := idp.New(good); err != nil {
		t.Fatal(err)
	}
	for name, mod := range map[string]func(*idp.Config){
		"no token URL":   func(c *idp.Config) { c.TokenURL = "" },
		"relative URL":   func(c *idp.Config) { c.UserinfoURL = "/userinfo" },
		"no client id":   func(c *idp.Config) { c.ClientID = "" },
		"no claim":       func(c *idp.Config) { c.InClaim = "" },
		"no redirect":    func(c *idp.Config) { c.RedirectURL = "" },
		"ftp auth URL":   func(c *idp.Config) { c.AuthURL = "ftp://id.example/a" },
		"dots for claim": func(c *idp.Config) { c.InClaim = ".." },
		"no time-out":    func(c *idp.Config) { c.Timeout = 0 },
	} {
		c := good
		mod(&c)
		if _, err := idp.New(c); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestClaim(t *testing.T) {
	for _, tc := range []struct {
		doc, path, want string
		ok              bool
	}{
		{`{"pinfl":"31234567890123"}`, "pinfl", pinfl, true},
		{`{"pinfl":" 31234567890123 "}`, "pinfl", pinfl, true},
		{`{"pinfl":31234567890123}`, "pinfl", pinfl, true},
		{`{"profile":{"pinfl":"31234567890123"}}`, "profile.pinfl", pinfl, true},
		{`{"profile.pinfl":"31234567890123"}`, "profile.pinfl", pinfl, true},
		{`{"pinfl":3.1234567890123e13}`, "pinfl", "", false},
		{`{"pinfl":"3123456789012"}`, "pinfl", "", false},
		{`{"pinfl":"3123456789012x"}`, "pinfl", "", false},
		{`{"profile":"31234567890123"}`, "profile.pinfl", "", false},
		{`{"pinfl":null}`, "pinfl", "", false},
		{`not json`, "pinfl", "", false},
	} {
		got, err := idp.Claim([]byte(tc.doc), tc.path)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("Claim(%s, %s) = %q, %v", tc.doc, tc.path, got, err)
		}
	}
}
