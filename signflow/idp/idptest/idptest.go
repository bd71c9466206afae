// Package idptest is a fake OAuth2 identity provider over real HTTP, for
// tests of MY_ID and ABLE_ID: an authorize endpoint that redirects back
// with a code and the state, a token endpoint that checks the client, the
// redirect URI and PKCE, and a userinfo endpoint.
package idptest

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"
)

// Provider is a running fake provider. Change its fields with Set; its
// handlers read them under its lock.
type Provider struct {
	*httptest.Server
	ClientID, ClientSecret, RedirectURL string

	mu sync.Mutex
	// Userinfo is the document the userinfo endpoint answers for logins
	// made from now on.
	Userinfo map[string]any
	// TokenStatus, when set, is the status the token endpoint answers.
	TokenStatus int
	// TokenDelay holds the token endpoint's answer back.
	TokenDelay time.Duration
	// OpenerPolicy, when set, is the Cross-Origin-Opener-Policy of a page
	// the authorize endpoint answers instead of its redirect, the page
	// going on to the client: as a provider's own page would, it cuts the
	// popup's link to the page that opened it.
	OpenerPolicy string
	// UserinfoStatus, when set, is the status the userinfo endpoint answers.
	UserinfoStatus int
	exchanges      int
	codes          map[string]grant
	tokens         map[string]map[string]any
	lastToken      url.Values
}

type grant struct {
	challenge, method, redirect string
	userinfo                    map[string]any
}

// New starts a provider for one client; it stops with the test.
func New(tb testing.TB, clientID, clientSecret, redirectURL string) *Provider {
	p := &Provider{ClientID: clientID, ClientSecret: clientSecret, RedirectURL: redirectURL,
		codes: map[string]grant{}, tokens: map[string]map[string]any{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /authorize", p.authorize)
	mux.HandleFunc("POST /token", p.token)
	mux.HandleFunc("GET /userinfo", p.userinfo)
	p.Server = httptest.NewServer(mux)
	tb.Cleanup(p.Close)
	return p
}

// AuthURL, TokenURL and UserinfoURL are the provider's endpoints.
func (p *Provider) AuthURL() string { return p.URL + "/authorize" }

// TokenURL is the token endpoint.
func (p *Provider) TokenURL() string { return p.URL + "/token" }

// UserinfoURL is the userinfo endpoint.
func (p *Provider) UserinfoURL() string { return p.URL + "/userinfo" }

// Set changes the provider's behaviour under its lock.
func (p *Provider) Set(fn func(p *Provider)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fn(p)
}

// Exchanges counts the requests that reached the token endpoint.
func (p *Provider) Exchanges() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.exchanges
}

// LastTokenRequest is the form of the last token request, with the client
// credentials as "client_id"/"client_secret" whichever way they came.
func (p *Provider) LastTokenRequest() url.Values {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.lastToken
}

func (p *Provider) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	p.mu.Lock()
	defer p.mu.Unlock()
	if q.Get("response_type") != "code" || q.Get("client_id") != p.ClientID || q.Get("redirect_uri") != p.RedirectURL {
		http.Error(w, "bad authorization request", http.StatusBadRequest)
		return
	}
	code := random()
	p.codes[code] = grant{challenge: q.Get("code_challenge"), method: q.Get("code_challenge_method"),
		redirect: q.Get("redirect_uri"), userinfo: p.Userinfo}
	back, _ := url.Parse(q.Get("redirect_uri"))
	v := back.Query()
	v.Set("code", code)
	v.Set("state", q.Get("state"))
	back.RawQuery = v.Encode()
	if p.OpenerPolicy != "" {
		w.Header().Set("Cross-Origin-Opener-Policy", p.OpenerPolicy)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><meta http-equiv="refresh" content="0; url=%s"><title>Provider</title>`, html.EscapeString(back.String()))
		return
	}
	http.Redirect(w, r, back.String(), http.StatusFound)
}

func (p *Provider) token(w http.ResponseWriter, r *http.Request) {
	r.ParseForm()
	form := url.Values{}
	for k, v := range r.PostForm {
		form[k] = v
	}
	if id, secret, ok := r.BasicAuth(); ok {
		id, _ = url.QueryUnescape(id)
		secret, _ = url.QueryUnescape(secret)
		form.Set("client_id", id)
		form.Set("client_secret", secret)
	}
	p.mu.Lock()
	p.exchanges++
	p.lastToken = form
	status, delay, id, secret := p.TokenStatus, p.TokenDelay, p.ClientID, p.ClientSecret
	p.mu.Unlock()
	if delay > 0 {
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
	}
	if status != 0 {
		writeJSON(w, status, map[string]any{"error": "server_error"})
		return
	}
	if form.Get("client_id") != id || form.Get("client_secret") != secret {
		writeJSON(w, http.StatusUnauthorized, map[string]any{"error": "invalid_client"})
		return
	}
	p.mu.Lock()
	g, ok := p.codes[form.Get("code")]
	p.mu.Unlock()
	if !ok || form.Get("grant_type") != "authorization_code" || form.Get("redirect_uri") != g.redirect || !pkceOK(g, form.Get("code_verifier")) {
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": "invalid_grant"})
		return
	}
	access := random()
	p.mu.Lock()
	delete(p.codes, form.Get("code"))
	p.tokens[access] = g.userinfo
	p.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"access_token": access, "token_type": "Bearer", "expires_in": 300})
}

func pkceOK(g grant, verifier string) bool {
	if g.challenge == "" {
		return verifier == ""
	}
	sum := sha256.Sum256([]byte(verifier))
	return g.method == "S256" && base64.RawURLEncoding.EncodeToString(sum[:]) == g.challenge
}

func (p *Provider) userinfo(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	status := p.UserinfoStatus
	doc, ok := p.tokens[trimBearer(r.Header.Get("Authorization"))]
	p.mu.Unlock()
	switch {
	case status != 0:
		writeJSON(w, status, map[string]any{"error": "unavailable"})
	case !ok:
		writeJSON(w, http.StatusUnauthorized, map[string]any{"error": "invalid_token"})
	default:
		writeJSON(w, http.StatusOK, doc)
	}
}

func trimBearer(h string) string {
	if len(h) > 7 && h[:7] == "Bearer " {
		return h[7:]
	}
	return ""
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func random() string {
	b := make([]byte, 16)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// Login follows an authorization URL as a browser would, without following
// the redirect back, and returns the code and state the provider sent.
func Login(tb testing.TB, authURL string) (code, state string) {
	tb.Helper()
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(authURL)
	if err != nil {
		tb.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound {
		tb.Fatalf("authorize answered %d, want 302", resp.StatusCode)
	}
	loc, err := url.Parse(resp.Header.Get("Location"))
	if err != nil {
		tb.Fatal(err)
	}
	return loc.Query().Get("code"), loc.Query().Get("state")
}
