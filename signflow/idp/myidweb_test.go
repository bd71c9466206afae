package idp_test

import (
	"context"
	"net/http"
	"net/url"
	"testing"
	"time"

	"contracts/internal/config"
	"contracts/signflow"
	"contracts/signflow/idp"
	"contracts/signflow/idp/idptest"
)

func TestAuthParamsAreAddedToTheAuthorizationURL(t *testing.T) {
	p, _ := newProvider(t, func(c *idp.Config) { c.AuthParams = map[string]string{"method": "strong"} })
	u, _ := url.Parse(p.AuthURL("state-1"))
	if u.Query().Get("method") != "strong" || u.Query().Get("state") != "state-1" {
		t.Fatalf("auth URL %s", u)
	}
}

// TestMyIDWebFlow drives the flow over HTTP as the popup would: a session
// bound to the PINFL, MyID's page sending back auth_code with our state,
// users/me read with the person's token. The client token is kept until
// it expires.
func TestMyIDWebFlow(t *testing.T) {
	fake := idptest.NewMyIDWeb(t, "shop", "secret")
	now := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	m, err := idp.NewMyIDWeb(idp.MyIDWebConfig{BaseURL: fake.API.URL, WebURL: fake.Web.URL, ClientID: "shop", ClientSecret: "secret",
		RedirectURL: "https://sign.example/sign/idp/callback", Now: func() time.Time { return now },
		Timeout: config.Default().Identity.MyID.Timeout})
	if err != nil {
		t.Fatal(err)
	}
	check := func(face string) (string, error) {
		t.Helper()
		fake.Face(face, 0)
		page, err := m.StartURL(context.Background(), "sess.state", signflow.IdentityStart{SessionID: "sess", SignerIN: pinfl, IP: "10.1.2.3", Lang: "uz"})
		if err != nil {
			t.Fatal(err)
		}
		// MyID's page sends the popup back to the redirect URI.
		client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		resp, err := client.Get(page)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		q := fake.LastPage
		if q.Get("pinfl") != pinfl || q.Get("lang") != "uz" {
			t.Fatalf("page query %v", q)
		}
		back, _ := url.Parse(q.Get("redirect_uri"))
		if back.Query().Get("state") != "sess.state" || back.Path != "/sign/idp/callback" {
			t.Fatalf("redirect_uri %s", back)
		}
		fake.Lock()
		code := fake.LastCode
		fake.Unlock()
		return m.Identify(context.Background(), "sess.state", code)
	}
	if in, err := check(pinfl); err != nil || in != pinfl {
		t.Fatalf("Identify = %q, %v", in, err)
	}
	if in, err := check("30101010101010"); err != nil || in != "30101010101010" {
		t.Fatalf("another face: %q, %v (the caller compares)", in, err)
	}
	now = now.Add(2 * time.Hour) // past expires_in
	check(pinfl)
	if fake.ClientTokens != 2 || fake.SessionsOpened != 3 || fake.LastSession["ip_address"] != "10.1.2.3" || fake.LastSession["external_id"] != "sess" {
		t.Fatalf("client tokens %d, sessions %d, last %v", fake.ClientTokens, fake.SessionsOpened, fake.LastSession)
	}
	if _, err := m.Identify(context.Background(), "sess.state", "used-or-forged"); signflow.ErrorCode(err) != signflow.EINVALID {
		t.Fatalf("a bad code: %v", err)
	}
	fake.API.Close()
	if _, err := m.StartURL(context.Background(), "s", signflow.IdentityStart{}); signflow.ErrorCode(err) != signflow.EUNAVAILABLE {
		t.Fatalf("MyID down: %v", err)
	}
}
