package smstest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sync"
	"testing"
)

// PlayMobileSent is one message of an envelope the broker took.
type PlayMobileSent struct{ Recipient, MessageID, Originator, Text string }

// PlayMobile is a fake Play Mobile broker API (send.smsxabar.uz/broker-api).
type PlayMobile struct {
	URL string // as sms.playmobile.baseURL

	sync.Mutex
	Sent    []PlayMobileSent
	Fail5xx int
	seen    map[string]bool
}

var messageIDPattern = regexp.MustCompile(`^[a-z0-9]{1,40}$`)

// NewPlayMobile starts a fake broker taking login and password.
func NewPlayMobile(t testing.TB, login, password string) *PlayMobile {
	f := &PlayMobile{seen: map[string]bool{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.Lock()
		defer f.Unlock()
		if r.Method != http.MethodPost || r.URL.Path != "/broker-api/send" {
			http.NotFound(w, r)
			return
		}
		if u, p, ok := r.BasicAuth(); !ok || u != login || p != password {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		if f.Fail5xx > 0 {
			f.Fail5xx--
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		var env struct {
			Messages []struct {
				Recipient string `json:"recipient"`
				MessageID string `json:"message-id"`
				SMS       struct {
					Originator string `json:"originator"`
					Content    struct {
						Text string `json:"text"`
					} `json:"content"`
				} `json:"sms"`
			} `json:"messages"`
		}
		if err := json.NewDecoder(r.Body).Decode(&env); err != nil || len(env.Messages) == 0 {
			writeJSON(w, http.StatusBadRequest, map[string]any{"error-code": 102, "error-description": "Invalid JSON"})
			return
		}
		for _, m := range env.Messages {
			switch {
			case !messageIDPattern.MatchString(m.MessageID) || f.seen[m.MessageID]:
				writeJSON(w, http.StatusBadRequest, map[string]any{"error-code": 104, "error-description": "Invalid or duplicate message-id"})
				return
			case len(m.Recipient) != 12:
				writeJSON(w, http.StatusBadRequest, map[string]any{"error-code": 103, "error-description": "Invalid recipient"})
				return
			case m.SMS.Originator == "":
				writeJSON(w, http.StatusBadRequest, map[string]any{"error-code": 105, "error-description": "Originator not allowed"})
				return
			}
		}
		for _, m := range env.Messages {
			f.seen[m.MessageID] = true
			f.Sent = append(f.Sent, PlayMobileSent{Recipient: m.Recipient, MessageID: m.MessageID, Originator: m.SMS.Originator, Text: m.SMS.Content.Text})
		}
		w.WriteHeader(http.StatusOK)
		w.Write([]byte("Request is received"))
	}))
	t.Cleanup(srv.Close)
	f.URL = srv.URL + "/broker-api"
	return f
}
