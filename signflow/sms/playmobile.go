package sms

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/rs/zerolog"
)

// PlayMobileConfig is a Play Mobile broker account (smsxabar.uz).
type PlayMobileConfig struct {
	BaseURL    string // e.g. https://send.smsxabar.uz/broker-api
	Login      string
	Password   string
	Originator string // e.g. 3700
	Timeout    time.Duration
}

// PlayMobile sends through Play Mobile's broker API: one envelope per
// text, HTTP Basic, a fresh message-id each time.
type PlayMobile struct {
	*Retrying
	cfg    PlayMobileConfig
	client *http.Client
}

// NewPlayMobile returns a Play Mobile provider.
func NewPlayMobile(cfg PlayMobileConfig, log zerolog.Logger, sends *prometheus.CounterVec) *PlayMobile {
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	p := &PlayMobile{cfg: cfg, client: &http.Client{Timeout: cfg.Timeout}}
	p.Retrying = newRetrying("playmobile", p, log, sends)
	return p
}

type pmMessage struct {
	Recipient string `json:"recipient"`
	MessageID string `json:"message-id"`
	SMS       struct {
		Originator string `json:"originator"`
		Content    struct {
			Text string `json:"text"`
		} `json:"content"`
	} `json:"sms"`
}

// attempt posts the envelope once. Each try has its own message-id: the
// broker refuses an id it has seen.
func (p *PlayMobile) attempt(ctx context.Context, phone, text string) error {
	m := pmMessage{Recipient: digits(phone), MessageID: messageID()}
	m.SMS.Originator = p.cfg.Originator
	m.SMS.Content.Text = text
	body, _ := json.Marshal(map[string][]pmMessage{"messages": {m}})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.cfg.BaseURL+"/send", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	req.SetBasicAuth(p.cfg.Login, p.cfg.Password)
	resp, err := p.client.Do(req)
	return classify("playmobile", resp, err, playMobileMessage)
}

// messageID is 32 characters of [a-f0-9], within the broker's [a-z0-9]{1,40}.
func messageID() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// playMobileMessage reads {"error-code":…,"error-description":"…"}.
func playMobileMessage(body []byte) string {
	var answer struct {
		Code        json.RawMessage `json:"error-code"`
		Description string          `json:"error-description"`
	}
	if json.Unmarshal(body, &answer) != nil || (answer.Description == "" && len(answer.Code) == 0) {
		return string(body)
	}
	return strings.TrimSpace(jsonText(answer.Code) + " " + answer.Description)
}
