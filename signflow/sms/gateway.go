package sms

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"contracts/signflow"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/rs/zerolog"
)

// Backoff is the wait before each retry of a send the gateway could not
// take (a 5xx or no answer).
var Backoff = []time.Duration{time.Second, 2 * time.Second, 4 * time.Second}

// RefusedError is a gateway's 4xx: the text was not sent and sending it
// again would not help. Message is the gateway's own words.
type RefusedError struct {
	Provider string
	Status   int
	Message  string
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("%s refused (HTTP %d): %s", e.Provider, e.Status, e.Message)
}

// Unwrap presents the refusal to callers as EUNAVAILABLE.
func (e *RefusedError) Unwrap() error {
	return signflow.Errorf(signflow.EUNAVAILABLE, "The SMS gateway refused the message; retry in a few seconds.")
}

// unreachableError is a 5xx or no answer: worth another try.
type unreachableError struct {
	provider string
	status   int // 0: no answer
	err      error
}

func (e *unreachableError) Error() string {
	if e.status == 0 {
		return fmt.Sprintf("%s did not answer: %v", e.provider, e.err)
	}
	return fmt.Sprintf("%s answered %d", e.provider, e.status)
}

func (e *unreachableError) Unwrap() error {
	return signflow.Errorf(signflow.EUNAVAILABLE, "The SMS gateway did not answer; retry in a few seconds.")
}

// NewSendCounter registers contracts_sms_sends_total on reg.
func NewSendCounter(reg prometheus.Registerer) *prometheus.CounterVec {
	c := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "contracts_sms_sends_total",
		Help: "SMS sends by provider and result: sent, failed, retried."}, []string{"provider", "result"})
	reg.MustRegister(c)
	return c
}

// attempter makes one try at a send.
type attempter interface {
	attempt(ctx context.Context, phone, text string) error
}

// Retrying sends through a gateway, trying again after a 5xx or no answer
// (Backoff) and never after a refusal, and counts every outcome.
type Retrying struct {
	provider string
	gw       attempter
	log      zerolog.Logger
	sends    *prometheus.CounterVec
	// Sleep waits between tries; tests replace it so that no test waits.
	Sleep func(ctx context.Context, d time.Duration) error
}

func newRetrying(provider string, gw attempter, log zerolog.Logger, sends *prometheus.CounterVec) *Retrying {
	return &Retrying{provider: provider, gw: gw, log: log, sends: sends, Sleep: sleep}
}

// Send sends text to phone. The text and the code in it are never logged.
func (r *Retrying) Send(ctx context.Context, phone, text string) error {
	for i := 0; ; i++ {
		err := r.gw.attempt(ctx, phone, text)
		if err == nil {
			r.count("sent")
			return nil
		}
		var unreachable *unreachableError
		if !errors.As(err, &unreachable) || i == len(Backoff) || ctx.Err() != nil {
			r.count("failed")
			var refused *RefusedError
			if errors.As(err, &refused) {
				r.log.Warn().Str("provider", r.provider).Int("status", refused.Status).Str("message", refused.Message).
					Str("phone", signflow.MaskPhone(phone)).Msg("SMS refused by the gateway")
			}
			return err
		}
		r.count("retried")
		if err := r.Sleep(ctx, Backoff[i]); err != nil {
			r.count("failed")
			return &unreachableError{provider: r.provider, err: err}
		}
	}
}

func (r *Retrying) count(result string) {
	if r.sends != nil {
		r.sends.WithLabelValues(r.provider, result).Inc()
	}
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// classify turns an answer into nil, a refusal (4xx) or a retryable
// failure; message reads the gateway's words from a 4xx body.
func classify(provider string, resp *http.Response, err error, message func([]byte) string) error {
	if err != nil {
		return &unreachableError{provider: provider, err: err}
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode <= 299:
		return nil
	case resp.StatusCode >= 500:
		return &unreachableError{provider: provider, status: resp.StatusCode}
	default:
		return &RefusedError{Provider: provider, Status: resp.StatusCode, Message: clip(message(body))}
	}
}

// jsonText renders a JSON value as text: a string as itself, anything
// else (an object of field errors) compact.
func jsonText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

func clip(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// digits keeps the digits of a phone: gateways take 998901234567.
func digits(phone string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, phone)
}
