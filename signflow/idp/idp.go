// Package idp is the adapter for the identity providers behind MY_ID and
// ABLE_ID: an OAuth2 authorization-code flow (golang.org/x/oauth2) with
// PKCE S256. The popup goes to AuthURL; the provider redirects back to
// {embedded.baseURL}/sign/idp/callback with code and state; Identify
// exchanges the code server-side (the client secret never leaves the
// server), reads the userinfo document and returns the person's number.
package idp

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"contracts/signflow"

	"golang.org/x/oauth2"
)

// CallbackPath is the path of the redirect URI on the embedded listener.
const CallbackPath = "/sign/idp/callback"

// maxBody caps what is read from a provider answer.
const maxBody = 1 << 20

// CallbackURL is the redirect URI for the embedded listener's base URL.
func CallbackURL(embeddedBaseURL string) string {
	return strings.TrimRight(embeddedBaseURL, "/") + CallbackPath
}

// Config describes one provider, as under identity.myid or identity.ableid.
type Config struct {
	Name         string // shown in messages, e.g. "MyID"
	AuthURL      string
	TokenURL     string
	UserinfoURL  string
	ClientID     string
	ClientSecret string
	Scope        string // space-separated
	InClaim      string // userinfo field with the 14-digit number; dots reach into objects ("profile.pinfl")
	RedirectURL  string // CallbackURL(embedded.baseURL)
	// Timeout bounds each HTTP call; required (identity.*.timeout).
	Timeout time.Duration
	// PKCEKey keys the PKCE verifier derived from the state. Give a key
	// derived from the master key so that a flow survives a restart; a
	// random one is made when empty.
	PKCEKey     []byte
	DisablePKCE bool // for a provider that refuses code_challenge
	// AuthParams are fixed parameters added to the authorization URL
	// (MyID's method: strong).
	AuthParams map[string]string
}

// Provider is one configured identity provider.
type Provider struct {
	name     string
	oauth    oauth2.Config
	userinfo string
	claim    string
	client   *http.Client
	timeout  time.Duration
	pkceKey  []byte
	params   []oauth2.AuthCodeOption
}

// New checks the configuration and returns the provider.
func New(cfg Config) (*Provider, error) {
	for name, u := range map[string]string{"authURL": cfg.AuthURL, "tokenURL": cfg.TokenURL, "userinfoURL": cfg.UserinfoURL, "redirect URI": cfg.RedirectURL} {
		if p, err := url.Parse(u); err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
			return nil, fmt.Errorf("idp %s: %s: must be an absolute http or https URL", cfg.Name, name)
		}
	}
	if cfg.ClientID == "" || strings.Trim(cfg.InClaim, ".") == "" {
		return nil, fmt.Errorf("idp %s: clientId and inClaim are required", cfg.Name)
	}
	if cfg.Name == "" {
		cfg.Name = "The identity provider"
	}
	if cfg.Timeout <= 0 {
		return nil, fmt.Errorf("idp %s: timeout: must be positive", cfg.Name)
	}
	p := &Provider{name: cfg.Name, userinfo: cfg.UserinfoURL, claim: cfg.InClaim, timeout: cfg.Timeout,
		client: &http.Client{Timeout: cfg.Timeout},
		oauth: oauth2.Config{ClientID: cfg.ClientID, ClientSecret: cfg.ClientSecret, RedirectURL: cfg.RedirectURL,
			Endpoint: oauth2.Endpoint{AuthURL: cfg.AuthURL, TokenURL: cfg.TokenURL}, Scopes: strings.Fields(cfg.Scope)}}
	for k, v := range cfg.AuthParams {
		p.params = append(p.params, oauth2.SetAuthURLParam(k, v))
	}
	if !cfg.DisablePKCE {
		p.pkceKey = cfg.PKCEKey
		if len(p.pkceKey) == 0 {
			p.pkceKey = make([]byte, 32)
			rand.Read(p.pkceKey)
		}
	}
	return p, nil
}

// AuthURL is the provider's authorization page for the state, with the
// PKCE S256 challenge of the state's verifier.
func (p *Provider) AuthURL(state string) string {
	opts := append([]oauth2.AuthCodeOption(nil), p.params...)
	if p.pkceKey != nil {
		opts = append(opts, oauth2.S256ChallengeOption(p.verifier(state)))
	}
	return p.oauth.AuthCodeURL(state, opts...)
}

// verifier is the PKCE code verifier of a state: an HMAC of it under a
// server key, so nothing is stored and no one without the key can derive it
// from the state seen in the redirect.
func (p *Provider) verifier(state string) string {
	m := hmac.New(sha256.New, p.pkceKey)
	m.Write([]byte("pkce\x00" + state))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// Identify exchanges the code for an access token, reads the userinfo
// document with it and returns the 14-digit number in the InClaim field.
func (p *Provider) Identify(ctx context.Context, state, code string) (string, error) {
	if code == "" || len(code) > 4096 {
		return "", signflow.Errorf(signflow.EINVALID, "%s sent no usable code; start the identity check again.", p.name)
	}
	ctx = context.WithValue(ctx, oauth2.HTTPClient, p.client)
	var opts []oauth2.AuthCodeOption
	if p.pkceKey != nil {
		opts = append(opts, oauth2.VerifierOption(p.verifier(state)))
	}
	tok, err := p.oauth.Exchange(ctx, code, opts...)
	if err != nil {
		return "", p.exchangeError(err)
	}
	body, err := p.fetchUserinfo(ctx, tok)
	if err != nil {
		return "", err
	}
	in, err := Claim(body, p.claim)
	if err != nil {
		return "", &Error{public: signflow.Errorf(signflow.EINVALID, "%s did not confirm a 14-digit personal number (field %q); nothing was signed.", p.name, p.claim), cause: err}
	}
	return in, nil
}

func (p *Provider) fetchUserinfo(ctx context.Context, tok *oauth2.Token) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.userinfo, nil)
	if err != nil {
		return nil, err
	}
	tok.SetAuthHeader(req)
	req.Header.Set("Accept", "application/json")
	resp, err := p.client.Do(req)
	if err != nil {
		return nil, p.unavailable(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return nil, p.unavailable(err)
	}
	switch {
	case resp.StatusCode >= 500:
		return nil, p.unavailable(statusError(resp.StatusCode))
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		return nil, &Error{cause: statusError(resp.StatusCode),
			public: signflow.Errorf(signflow.EINVALID, "%s refused to share the person's data (HTTP %d); nothing was signed.", p.name, resp.StatusCode)}
	}
	return body, nil
}

// exchangeError sorts a failed code exchange: a refusal (4xx or an OAuth
// error in the answer) is the caller's, anything else is the provider's.
func (p *Provider) exchangeError(err error) error {
	var re *oauth2.RetrieveError
	if errors.As(err, &re) && re.Response != nil && re.Response.StatusCode < 500 {
		reason := re.ErrorCode
		if reason == "" {
			reason = fmt.Sprintf("HTTP %d", re.Response.StatusCode)
		}
		return &Error{cause: err, public: signflow.Errorf(signflow.EINVALID,
			"%s did not accept the sign-in (%s): the code is invalid, expired or already used; start the identity check again.", p.name, reason)}
	}
	return p.unavailable(err)
}

func (p *Provider) unavailable(err error) error {
	msg := fmt.Sprintf("%s could not be reached; retry in a few seconds.", p.name)
	var (
		re *oauth2.RetrieveError
		se statusError
		te interface{ Timeout() bool }
	)
	switch {
	case errors.Is(err, context.DeadlineExceeded) || errors.As(err, &te) && te.Timeout():
		msg = fmt.Sprintf("%s did not answer within %s; retry in a few seconds.", p.name, p.timeout)
	case errors.As(err, &re) && re.Response != nil:
		msg = fmt.Sprintf("%s failed (HTTP %d); retry in a few seconds.", p.name, re.Response.StatusCode)
	case errors.As(err, &se):
		msg = fmt.Sprintf("%s failed (HTTP %d); retry in a few seconds.", p.name, int(se))
	}
	return &Error{cause: err, public: signflow.Errorf(signflow.EUNAVAILABLE, "%s", msg)}
}

// statusError is an unexpected HTTP status from the userinfo endpoint.
type statusError int

func (e statusError) Error() string { return fmt.Sprintf("userinfo answered HTTP %d", int(e)) }

// Error is a provider failure: callers see its public *signflow.Error
// (errors.As); Error() adds the cause for the log.
type Error struct {
	public *signflow.Error
	cause  error
}

// Error is the public message followed by the cause.
func (e *Error) Error() string { return e.public.Message + " (" + e.cause.Error() + ")" }

// Unwrap presents the failure as its *signflow.Error.
func (e *Error) Unwrap() error { return e.public }
