// Package smstest holds fakes of the SMS gateways over real HTTP, answering
// in the shapes of the gateways' public documentation.
package smstest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// EskizSent is one text Eskiz took.
type EskizSent struct{ Phone, Message, From, CallbackURL string }

// Eskiz is a fake notify.eskiz.uz/api. Its counters and knobs are read
// and set under Lock.
type Eskiz struct {
	URL      string // the base URL, as sms.eskiz.baseURL
	Email    string
	Password string

	sync.Mutex
	Logins, Refreshes int
	Sent              []EskizSent
	Fail5xx           int    // the next sends answered 500
	Refuse            string // when set, sends are answered 400 with this message
	token             string
	tokens            int
}

// NewEskiz starts a fake Eskiz that takes email and password.
func NewEskiz(t testing.TB, email, password string) *Eskiz {
	f := &Eskiz{Email: email, Password: password}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/auth/login", f.login)
	mux.HandleFunc("PATCH /api/auth/refresh", f.refresh)
	mux.HandleFunc("POST /api/message/sms/send", f.send)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	f.URL = srv.URL + "/api"
	return f
}

// Expire makes the current token invalid, as a month's end does.
func (f *Eskiz) Expire() {
	f.Lock()
	defer f.Unlock()
	f.token = "expired"
}

func (f *Eskiz) newToken() string {
	f.tokens++
	f.token = fmt.Sprintf("eyJ.fake-%d", f.tokens)
	return f.token
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func (f *Eskiz) login(w http.ResponseWriter, r *http.Request) {
	f.Lock()
	defer f.Unlock()
	f.Logins++
	if r.FormValue("email") != f.Email || r.FormValue("password") != f.Password {
		writeJSON(w, http.StatusUnauthorized, map[string]string{"message": "Invalid credentials"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"message": "token_generated",
		"data": map[string]string{"token": f.newToken()}, "token_type": "bearer"})
}

// authorized reports whether the request carries the current token
// (refresh also takes an expired one, as Eskiz's does within its window).
func (f *Eskiz) authorized(r *http.Request, orExpired bool) bool {
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return ok && tok != "" && (tok == f.token || (orExpired && f.token == "expired"))
}

func (f *Eskiz) refresh(w http.ResponseWriter, r *http.Request) {
	f.Lock()
	defer f.Unlock()
	f.Refreshes++
	if !f.authorized(r, true) {
		writeJSON(w, http.StatusUnauthorized, map[string]string{"message": "Unauthenticated."})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"message": "token_generated", "data": map[string]string{"token": f.newToken()}, "token_type": "bearer"})
}

func (f *Eskiz) send(w http.ResponseWriter, r *http.Request) {
	f.Lock()
	defer f.Unlock()
	if !f.authorized(r, false) {
		writeJSON(w, http.StatusUnauthorized, map[string]string{"status": "token-invalid", "message": "Expired"})
		return
	}
	if f.Fail5xx > 0 {
		f.Fail5xx--
		writeJSON(w, http.StatusInternalServerError, map[string]string{"message": "Server Error"})
		return
	}
	phone, msg, from := r.FormValue("mobile_phone"), r.FormValue("message"), r.FormValue("from")
	if f.Refuse != "" {
		writeJSON(w, http.StatusBadRequest, map[string]string{"status": "error", "message": f.Refuse})
		return
	}
	if len(phone) != 12 || msg == "" || from == "" {
		writeJSON(w, http.StatusUnprocessableEntity, map[string]any{"status": "error",
			"message": map[string][]string{"mobile_phone": {"The mobile phone format is invalid."}}})
		return
	}
	f.Sent = append(f.Sent, EskizSent{Phone: phone, Message: msg, From: from, CallbackURL: r.FormValue("callback_url")})
	writeJSON(w, http.StatusOK, map[string]string{"id": fmt.Sprintf("4385%d", len(f.Sent)), "message": "Waiting for SMS provider", "status": "waiting"})
}

// Revoke makes the current token one that refresh refuses too, so that
// only a new login helps.
func (f *Eskiz) Revoke() {
	f.Lock()
	defer f.Unlock()
	f.token = "revoked"
}
