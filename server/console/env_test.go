package console_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/server"
	"contracts/server/admin"
	"contracts/server/console"
	"contracts/server/embedded"
	"contracts/signflow"

	"github.com/rs/zerolog"
)

const adminToken = "console-test-admin-token-0123456789abcdef"

// env is the admin listener (admin API and console, behind the Host
// check) and the embedded interface over one store of a standard world.
type env struct {
	*fixture.Standard
	admin, embedded *httptest.Server
	redelivered     atomic.Int32
}

func newEnv(t *testing.T) *env {
	t.Helper()
	e := &env{Standard: fixture.NewStandard(t)}
	m := server.NewMetrics()
	a := server.NewEcho("admin", zerolog.New(io.Discard), m, true)
	a.Use(admin.HostCheck("127.0.0.1:0", nil))
	admin.Register(a, admin.Deps{Service: e.Service, DB: e.DB, Token: adminToken, Metrics: m})
	console.Register(a, console.Deps{Service: e.Service, Token: adminToken, EmbeddedBaseURL: "http://localhost:8080",
		Redelivered: func() { e.redelivered.Add(1) }, Now: e.Clock.Now})
	e.admin = httptest.NewServer(a)
	t.Cleanup(e.admin.Close)
	em := server.NewEcho("embedded", zerolog.New(io.Discard), m, false)
	embedded.Register(em, embedded.Deps{Service: e.Service, BaseURL: "http://localhost:8080"})
	e.embedded = httptest.NewServer(em)
	t.Cleanup(e.embedded.Close)
	return e
}

// browser is an HTTP client of the console with its own cookies; it
// does not follow redirects, and keeps the CSRF token of the last page.
type browser struct {
	t    *testing.T
	e    *env
	c    *http.Client
	csrf string
}

func (e *env) browser(t *testing.T) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t: t, e: e, c: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}}
}

var csrfRE = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

// page is one answer.
type page struct {
	status   int
	body     string
	location string
	header   http.Header
}

func (b *browser) do(req *http.Request) page {
	b.t.Helper()
	res, err := b.c.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	p := page{status: res.StatusCode, body: string(data), location: res.Header.Get("Location"), header: res.Header}
	if m := csrfRE.FindStringSubmatch(p.body); m != nil {
		b.csrf = m[1]
	}
	return p
}

func (b *browser) get(path string) page {
	b.t.Helper()
	req, _ := http.NewRequest("GET", b.e.admin.URL+path, nil)
	return b.do(req)
}

// post sends a form with the page's CSRF token unless the form has one.
func (b *browser) post(path string, form url.Values) page {
	b.t.Helper()
	if form == nil {
		form = url.Values{}
	}
	if _, ok := form["csrf"]; !ok {
		form.Set("csrf", b.csrf)
	}
	req, _ := http.NewRequest("POST", b.e.admin.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return b.do(req)
}

// loggedIn returns a browser with a console session.
func (e *env) loggedIn(t *testing.T) *browser {
	t.Helper()
	b := e.browser(t)
	b.get("/console?lang=en")
	p := b.post("/console/login", url.Values{"token": {adminToken}, "next": {"/console"}})
	if p.status != http.StatusSeeOther || p.location != "/console" {
		t.Fatalf("login: %d %s", p.status, p.location)
	}
	if p := b.get("/console"); p.status != 200 || !strings.Contains(p.body, "Contracts by status") {
		t.Fatalf("the dashboard after the login: %d\n%s", p.status, p.body)
	}
	return b
}

// contract creates a CREATED contract of app A with the customer.
func (e *env) contract(t *testing.T) *signflow.Contract { return e.Contract(t) }

// failedDelivery stores a delivery of contract id that failed four times.
func (e *env) failedDelivery(t *testing.T, id string) *signflow.Delivery {
	t.Helper()
	now := e.Clock.Now()
	d := &signflow.Delivery{ID: signflow.NewID(), Event: signflow.EventCreated, ContractID: id, Target: signflow.AppTarget(e.AppA.ID),
		TargetName: "App A", URL: "http://127.0.0.1:9/hook", Body: json.RawMessage(`{}`), Status: signflow.DeliveryFailed, CreatedAt: now}
	for i := 0; i < 4; i++ {
		d.Attempts = append(d.Attempts, signflow.Attempt{At: now.Add(time.Duration(i) * time.Second), DurationMs: 3, Error: "connection refused"})
	}
	fixture.Must(t, func() error {
		return e.DB.Update(func(tx signflow.Tx) error {
			if err := tx.AddDelivery(d); err != nil {
				return err
			}
			d.Status = signflow.DeliveryFailed
			return tx.PutDelivery(d)
		})
	})
	return d
}

// token gets an embedded access token with an app's id and secret.
func (e *env) token(t *testing.T, appID, secret string) (int, string) {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"appId": appID, "appSecret": secret})
	res, err := http.Post(e.embedded.URL+"/v1/auth/token", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out struct {
		AccessToken string `json:"accessToken"`
	}
	json.NewDecoder(res.Body).Decode(&out)
	return res.StatusCode, out.AccessToken
}

// deadURL is a URL on which nothing listens.
func deadURL(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	return "http://" + l.Addr().String() + "/hook"
}
