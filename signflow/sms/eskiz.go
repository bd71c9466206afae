package sms

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/rs/zerolog"
)

// EskizConfig is an Eskiz account (notify.eskiz.uz).
type EskizConfig struct {
	BaseURL     string // e.g. https://notify.eskiz.uz/api
	Email       string
	Password    string
	From        string // the sender name or number, e.g. 4546
	CallbackURL string // optional: where Eskiz reports delivery
	Timeout     time.Duration
}

// Eskiz sends through Eskiz. It logs in once and keeps the token for
// every send: the token lasts about a month, and a login per text would
// hit Eskiz's limits. A 401 renews it (refresh, else a new login).
type Eskiz struct {
	*Retrying
	cfg    EskizConfig
	client *http.Client

	mu    sync.Mutex
	token string
}

// NewEskiz returns an Eskiz provider; it logs in on its first use.
func NewEskiz(cfg EskizConfig, log zerolog.Logger, sends *prometheus.CounterVec) *Eskiz {
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	e := &Eskiz{cfg: cfg, client: &http.Client{Timeout: cfg.Timeout}}
	e.Retrying = newRetrying("eskiz", e, log, sends)
	return e
}

// Login logs in and keeps the token. A RefusedError means Eskiz refused
// the email and password.
func (e *Eskiz) Login(ctx context.Context) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.login(ctx)
}

func (e *Eskiz) login(ctx context.Context) error {
	form := url.Values{"email": {e.cfg.Email}, "password": {e.cfg.Password}}
	tok, err := e.tokenCall(ctx, http.MethodPost, "/auth/login", "", form)
	if err != nil {
		return err
	}
	e.token = tok
	return nil
}

// renew replaces the token that got a 401, unless another send did
// already: refresh it, else log in again.
func (e *Eskiz) renew(ctx context.Context, stale string) (string, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.token != stale && e.token != "" {
		return e.token, nil
	}
	if stale != "" {
		if tok, err := e.tokenCall(ctx, http.MethodPatch, "/auth/refresh", stale, nil); err == nil {
			e.token = tok
			return tok, nil
		}
	}
	if err := e.login(ctx); err != nil {
		return "", err
	}
	return e.token, nil
}

// tokenCall calls login or refresh; both answer {"data":{"token":…}}.
func (e *Eskiz) tokenCall(ctx context.Context, method, path, bearer string, form url.Values) (string, error) {
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequestWithContext(ctx, method, e.cfg.BaseURL+path, body)
	if err != nil {
		return "", err
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	resp, err := e.client.Do(req)
	if err != nil {
		return "", &unreachableError{provider: "eskiz", err: err}
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode >= 500 {
		return "", &unreachableError{provider: "eskiz", status: resp.StatusCode}
	}
	var answer struct {
		Data struct {
			Token string `json:"token"`
		} `json:"data"`
	}
	if resp.StatusCode > 299 || json.Unmarshal(data, &answer) != nil || answer.Data.Token == "" {
		return "", &RefusedError{Provider: "eskiz", Status: resp.StatusCode, Message: clip(eskizMessage(data))}
	}
	return answer.Data.Token, nil
}

// attempt sends once, renewing the token and sending again on a 401.
func (e *Eskiz) attempt(ctx context.Context, phone, text string) error {
	e.mu.Lock()
	tok := e.token
	e.mu.Unlock()
	if tok == "" {
		var err error
		if tok, err = e.renew(ctx, ""); err != nil {
			return err
		}
	}
	resp, err := e.post(ctx, tok, phone, text)
	if err == nil && resp.StatusCode == http.StatusUnauthorized {
		resp.Body.Close()
		if tok, err = e.renew(ctx, tok); err != nil {
			return err
		}
		resp, err = e.post(ctx, tok, phone, text)
	}
	return classify("eskiz", resp, err, eskizMessage)
}

func (e *Eskiz) post(ctx context.Context, tok, phone, text string) (*http.Response, error) {
	form := url.Values{"mobile_phone": {digits(phone)}, "message": {text}, "from": {e.cfg.From}}
	if e.cfg.CallbackURL != "" {
		form.Set("callback_url", e.cfg.CallbackURL)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.cfg.BaseURL+"/message/sms/send", strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Authorization", "Bearer "+tok)
	return e.client.Do(req)
}

// eskizMessage reads Eskiz's {"message": …} (a sentence, or an object of
// field errors).
func eskizMessage(body []byte) string {
	var answer struct {
		Message json.RawMessage `json:"message"`
	}
	if json.Unmarshal(body, &answer) != nil || len(answer.Message) == 0 {
		return string(body)
	}
	return jsonText(answer.Message)
}

// IsRefused tells whether err is a gateway's refusal (4xx), such as Eskiz
// refusing our credentials.
func IsRefused(err error) bool {
	var refused *RefusedError
	return errors.As(err, &refused)
}
