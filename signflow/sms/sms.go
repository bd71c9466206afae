// Package sms holds the SMS providers: console, which logs the text (it
// exists to show codes on a developer machine), and http, a generic gateway.
package sms

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	"contracts/signflow"

	"github.com/rs/zerolog"
)

// Console writes each message to the log. It is the only place a code is logged.
type Console struct{ Log zerolog.Logger }

// Send logs the message.
func (c Console) Send(_ context.Context, phone, text string) error {
	c.Log.Warn().Str("phone", phone).Str("text", text).Msg("SMS (console provider)")
	return nil
}

// HTTP posts {"phone","text"} to a gateway; any 2xx means sent.
type HTTP struct {
	URL     string
	Headers map[string]string
	Client  *http.Client
}

// NewHTTP returns an HTTP provider with a time-out.
func NewHTTP(url string, headers map[string]string, timeout time.Duration) *HTTP {
	return &HTTP{URL: url, Headers: headers, Client: &http.Client{Timeout: timeout}}
}

// Send posts the message. Failures are EUNAVAILABLE: the caller may retry.
func (h *HTTP) Send(ctx context.Context, phone, text string) error {
	body, _ := json.Marshal(map[string]string{"phone": phone, "text": text})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.URL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	for k, v := range h.Headers {
		req.Header.Set(k, v)
	}
	resp, err := h.Client.Do(req)
	if err != nil {
		return signflow.Errorf(signflow.EUNAVAILABLE, "The SMS gateway did not answer; retry in a few seconds.")
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return &gatewayError{status: resp.StatusCode}
	}
	return nil
}

type gatewayError struct{ status int }

func (e *gatewayError) Error() string { return fmt.Sprintf("sms gateway answered %d", e.status) }

// Unwrap presents a gateway refusal to callers as EUNAVAILABLE.
func (e *gatewayError) Unwrap() error {
	return signflow.Errorf(signflow.EUNAVAILABLE, "The SMS gateway refused the message; retry in a few seconds.")
}
