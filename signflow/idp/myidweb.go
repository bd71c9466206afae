package idp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"contracts/signflow"
)

// MyIDPINFLPath is where MyID's users/me answer holds the person's number.
const MyIDPINFLPath = "profile.common_data.pinfl"

// MyIDWebConfig is MyID's web face check (identity.myid.flow: web).
type MyIDWebConfig struct {
	BaseURL      string // MyID's API, e.g. https://myid.uz
	WebURL       string // its page, e.g. https://web.myid.uz
	ClientID     string
	ClientSecret string
	RedirectURL  string // CallbackURL(embedded.baseURL)
	Timeout      time.Duration
	Now          func() time.Time
}

// MyIDWeb speaks MyID's web session flow: a client-credentials token
// (kept until it expires), a session bound to the signer's PINFL, MyID's
// page in the popup, then an auth_code exchanged for the person's token
// and users/me read with it. docs/myid.md says where each call comes from.
type MyIDWeb struct {
	cfg    MyIDWebConfig
	client *http.Client

	mu      sync.Mutex
	token   string
	expires time.Time
}

// NewMyIDWeb checks the configuration and returns the provider.
func NewMyIDWeb(cfg MyIDWebConfig) (*MyIDWeb, error) {
	for name, u := range map[string]string{"baseURL": cfg.BaseURL, "webURL": cfg.WebURL, "redirect URI": cfg.RedirectURL} {
		if p, err := url.Parse(u); err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
			return nil, fmt.Errorf("idp MyID: %s: must be an absolute http or https URL", name)
		}
	}
	if cfg.ClientID == "" || cfg.ClientSecret == "" {
		return nil, fmt.Errorf("idp MyID: clientId and clientSecret are required")
	}
	if cfg.Timeout <= 0 {
		return nil, fmt.Errorf("idp MyID: timeout: must be positive")
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	cfg.BaseURL, cfg.WebURL = strings.TrimRight(cfg.BaseURL, "/"), strings.TrimRight(cfg.WebURL, "/")
	return &MyIDWeb{cfg: cfg, client: &http.Client{Timeout: cfg.Timeout}}, nil
}

// AuthURL is MyID's page; it needs a session, so StartURL is what opens it.
func (m *MyIDWeb) AuthURL(string) string { return m.cfg.WebURL + "/" }

// StartURL opens a MyID session for the signer and returns MyID's page.
// The state rides on the redirect URI: MyID sends back only auth_code.
func (m *MyIDWeb) StartURL(ctx context.Context, state string, start signflow.IdentityStart) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*m.cfg.Timeout)
	defer cancel()
	tok, err := m.clientToken(ctx)
	if err != nil {
		return "", err
	}
	body, _ := json.Marshal(map[string]any{"max_retries": 3, "external_id": start.SessionID, "ip_address": start.IP})
	var answer struct {
		SessionID string `json:"session_id"`
	}
	if err := m.call(ctx, http.MethodPost, "/api/v1/web/sessions", tok, "application/json", bytes.NewReader(body), &answer); err != nil {
		return "", err
	}
	if answer.SessionID == "" {
		return "", m.fail(fmt.Errorf("web/sessions gave no session_id"))
	}
	q := url.Values{"session_id": {answer.SessionID}, "pinfl": {start.SignerIN}, "lang": {start.Lang},
		"redirect_uri": {m.cfg.RedirectURL + "?" + url.Values{"state": {state}}.Encode()}}
	return m.cfg.WebURL + "/?" + q.Encode(), nil
}

// Identify exchanges MyID's auth_code for the person's token and returns
// the PINFL of users/me.
func (m *MyIDWeb) Identify(ctx context.Context, _, code string) (string, error) {
	if code == "" || len(code) > 4096 {
		return "", signflow.Errorf(signflow.EINVALID, "MyID sent no usable code; start the identity check again.")
	}
	form := url.Values{"grant_type": {"authorization_code"}, "code": {code}, "client_id": {m.cfg.ClientID}, "client_secret": {m.cfg.ClientSecret}}
	var tok tokenAnswer
	if err := m.call(ctx, http.MethodPost, "/api/v1/oauth2/access-token", "", "application/x-www-form-urlencoded", strings.NewReader(form.Encode()), &tok); err != nil {
		return "", err
	}
	var me json.RawMessage
	if err := m.call(ctx, http.MethodGet, "/api/v1/users/me", tok.AccessToken, "", nil, &me); err != nil {
		return "", err
	}
	in, err := Claim(me, MyIDPINFLPath)
	if err != nil {
		return "", &Error{public: signflow.Errorf(signflow.EINVALID, "MyID did not confirm a 14-digit personal number; nothing was signed."), cause: err}
	}
	return in, nil
}

type tokenAnswer struct {
	AccessToken string `json:"access_token"`
	ExpiresIn   int    `json:"expires_in"`
}

// clientToken is the client-credentials token, renewed a minute before
// it expires.
func (m *MyIDWeb) clientToken(ctx context.Context) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.token != "" && m.cfg.Now().Before(m.expires) {
		return m.token, nil
	}
	form := url.Values{"grant_type": {"client_credentials"}, "client_id": {m.cfg.ClientID}, "client_secret": {m.cfg.ClientSecret}}
	var tok tokenAnswer
	if err := m.call(ctx, http.MethodPost, "/api/v1/oauth2/access-token", "", "application/x-www-form-urlencoded", strings.NewReader(form.Encode()), &tok); err != nil {
		return "", err
	}
	if tok.AccessToken == "" {
		return "", m.fail(fmt.Errorf("access-token gave no access_token"))
	}
	m.token, m.expires = tok.AccessToken, m.cfg.Now().Add(time.Duration(tok.ExpiresIn)*time.Second-time.Minute)
	return m.token, nil
}

// call makes one request of MyID's API and decodes its JSON answer. A 4xx
// is a refusal (EINVALID); a 5xx, no answer or an unreadable one is
// EUNAVAILABLE.
func (m *MyIDWeb) call(ctx context.Context, method, path, bearer, ctype string, body io.Reader, out any) error {
	req, err := http.NewRequestWithContext(ctx, method, m.cfg.BaseURL+path, body)
	if err != nil {
		return err
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := m.client.Do(req)
	if err != nil {
		return m.fail(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	switch {
	case err != nil:
		return m.fail(err)
	case resp.StatusCode >= 500:
		return m.fail(fmt.Errorf("%s answered HTTP %d", path, resp.StatusCode))
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		return &Error{cause: fmt.Errorf("%s answered HTTP %d: %.200s", path, resp.StatusCode, data),
			public: signflow.Errorf(signflow.EINVALID, "MyID refused the identity check (HTTP %d); start it again.", resp.StatusCode)}
	}
	if err := json.Unmarshal(data, out); err != nil {
		return m.fail(fmt.Errorf("%s: %w", path, err))
	}
	return nil
}

func (m *MyIDWeb) fail(err error) error {
	return &Error{cause: err, public: signflow.Errorf(signflow.EUNAVAILABLE, "MyID could not be reached or failed; retry in a few seconds.")}
}
