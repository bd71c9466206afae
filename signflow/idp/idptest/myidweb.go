package idptest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// MyIDWeb is a fake of MyID's web face check over real HTTP: the API
// (client-credentials and authorization-code tokens, web sessions,
// users/me) and the web page the popup opens, which sends the popup back
// with auth_code for the face it is set to see, or reason_code.
type MyIDWeb struct {
	API, Web               *httptest.Server
	ClientID, ClientSecret string
	sync.Mutex
	face                          string // the PINFL users/me reports for the next check
	reason                        int    // when set, the page answers reason_code
	ClientTokens, SessionsOpened  int
	LastSession                   map[string]any // the web/sessions body
	LastPage                      url.Values     // the query the page was opened with
	LastCode                      string         // the auth_code the page gave last
	sessions                      map[string]string
	codes, tokens, clientTokenSet map[string]string
}

// NewMyIDWeb starts the fake for one client; it stops with the test.
func NewMyIDWeb(tb testing.TB, clientID, clientSecret string) *MyIDWeb {
	m := &MyIDWeb{ClientID: clientID, ClientSecret: clientSecret, sessions: map[string]string{},
		codes: map[string]string{}, tokens: map[string]string{}, clientTokenSet: map[string]string{}}
	api := http.NewServeMux()
	api.HandleFunc("POST /api/v1/oauth2/access-token", m.accessToken)
	api.HandleFunc("POST /api/v1/web/sessions", m.openSession)
	api.HandleFunc("GET /api/v1/users/me", m.me)
	m.API = httptest.NewServer(api)
	tb.Cleanup(m.API.Close)
	m.Web = httptest.NewServer(http.HandlerFunc(m.page))
	tb.Cleanup(m.Web.Close)
	return m
}

// Face sets whose face the next check sees; reason, when not 0, makes it
// fail with that reason_code instead.
func (m *MyIDWeb) Face(pinfl string, reason int) {
	m.Lock()
	defer m.Unlock()
	m.face, m.reason = pinfl, reason
}

func (m *MyIDWeb) accessToken(w http.ResponseWriter, r *http.Request) {
	m.Lock()
	defer m.Unlock()
	if r.FormValue("client_id") != m.ClientID || r.FormValue("client_secret") != m.ClientSecret {
		writeJSON(w, http.StatusUnauthorized, map[string]string{"detail": "Invalid client credentials"})
		return
	}
	tok := "tok-" + random()
	switch r.FormValue("grant_type") {
	case "client_credentials":
		m.ClientTokens++
		m.clientTokenSet[tok] = "client"
	case "authorization_code":
		pinfl, ok := m.codes[r.FormValue("code")]
		if !ok {
			writeJSON(w, http.StatusBadRequest, map[string]string{"detail": "Invalid code"})
			return
		}
		delete(m.codes, r.FormValue("code"))
		m.tokens[tok] = pinfl
	default:
		writeJSON(w, http.StatusBadRequest, map[string]string{"detail": "Unsupported grant_type"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"access_token": tok, "expires_in": 3600, "token_type": "Bearer"})
}

func (m *MyIDWeb) openSession(w http.ResponseWriter, r *http.Request) {
	m.Lock()
	defer m.Unlock()
	if m.clientTokenSet[strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")] == "" {
		writeJSON(w, http.StatusUnauthorized, map[string]string{"detail": "Unauthorized"})
		return
	}
	var body map[string]any
	if json.NewDecoder(r.Body).Decode(&body) != nil || body["external_id"] == nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"detail": "external_id is required"})
		return
	}
	m.SessionsOpened++
	m.LastSession = body
	id := "ses-" + random()
	m.sessions[id] = fmt.Sprint(body["external_id"])
	writeJSON(w, http.StatusOK, map[string]string{"session_id": id})
}

func (m *MyIDWeb) me(w http.ResponseWriter, r *http.Request) {
	m.Lock()
	defer m.Unlock()
	pinfl, ok := m.tokens[strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")]
	if !ok {
		writeJSON(w, http.StatusUnauthorized, map[string]string{"detail": "Unauthorized"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"profile": map[string]any{
		"common_data": map[string]any{"pinfl": pinfl, "first_name": "AZIZ", "last_name": "KARIMOV"}}})
}

// page is web.myid.uz: it checks the session and sends the popup back
// with auth_code (the face it was set to see) or reason_code.
func (m *MyIDWeb) page(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	m.Lock()
	if q.Get("session_id") != "" { // not the browser's favicon.ico
		m.LastPage = q
	}
	_, known := m.sessions[q.Get("session_id")]
	delete(m.sessions, q.Get("session_id"))
	face, reason := m.face, m.reason
	back, err := url.Parse(q.Get("redirect_uri"))
	m.Unlock()
	if !known || err != nil || back.Host == "" {
		http.Error(w, "unknown session", http.StatusBadRequest)
		return
	}
	v := back.Query()
	if reason != 0 {
		v.Set("reason_code", fmt.Sprint(reason))
	} else {
		code := "code-" + random()
		m.Lock()
		m.codes[code], m.LastCode = face, code
		m.Unlock()
		v.Set("auth_code", code)
	}
	back.RawQuery = v.Encode()
	// The person's check itself is not faked: MyID's page sends the popup
	// straight back, as it does once the camera step is done.
	http.Redirect(w, r, back.String(), http.StatusFound)
}
