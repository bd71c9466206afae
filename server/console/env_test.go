package console_test

import (
	"bytes"
	"encoding/json"
	"fmt"
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

	"contracts/internal/apitest"
	"contracts/internal/config"
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
	return newEnvWith(t, nil)
}

// newEnvWith is newEnv with the service's options edited by opts.
func newEnvWith(t *testing.T, opts func(*signflow.Options)) *env {
	t.Helper()
	e := &env{Standard: fixture.NewStandard(t)}
	if opts != nil {
		opts(&e.Options)
		e.Service = signflow.NewService(e.DB, e.Options)
	}
	m := server.NewMetrics()
	a := server.NewEcho("admin", zerolog.New(io.Discard), m, true)
	a.Use(admin.HostCheck("127.0.0.1:0", nil))
	admin.Register(a, admin.Deps{Service: e.Service, DB: e.DB, Token: adminToken, Metrics: m})
	console.Register(a, console.Deps{Service: e.Service, ServiceName: config.Default().Service.Name, Token: adminToken, EmbeddedBaseURL: "http://localhost:8080",
		Redelivered: func() { e.redelivered.Add(1) }, Now: e.Clock.Now})
	e.admin = httptest.NewServer(a)
	t.Cleanup(e.admin.Close)
	em := server.NewEcho("embedded", zerolog.New(io.Discard), m, false)
	embedded.Register(em, embedded.Deps{Service: e.Service, BaseURL: "http://localhost:8080"})
	e.embedded = httptest.NewServer(em)
	t.Cleanup(e.embedded.Close)
	return e
}

// browser is a browser of the console: its cookies, and the CSRF token
// of the last page it loaded. It does not follow redirects.
type browser struct {
	t    *testing.T
	e    *env
	c    *http.Client
	csrf string
	// api sends the browser's requests: a form goes with the CSRF token
	// given as the row's credential (pageToken: the one of the page it
	// loaded last), and the token of each page it loads is kept; every
	// page answered must keep pageRules.
	api *apitest.Caller
}

// pageToken, as a row's credential, is the CSRF token of the page the
// browser loaded last, which a form of that page carries.
const pageToken = "(the page's CSRF token)"

func (e *env) browser(t *testing.T) *browser {
	jar, _ := cookiejar.New(nil)
	b := &browser{t: t, e: e, c: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}}
	csrf := apitest.FormField("csrf")
	b.api = &apitest.Caller{URL: e.admin.URL, HTTP: b.c, Read: b.keepCSRF, Answer: pageRules,
		Auth: func(req *http.Request, token string) {
			if token == pageToken {
				token = b.csrf
			}
			csrf(req, token)
		}}
	return b
}

var csrfRE = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

// keepCSRF keeps the CSRF token of the page the browser loaded.
func (b *browser) keepCSRF(_ *http.Request, r *apitest.Reply) error {
	if m := csrfRE.FindStringSubmatch(r.Body); m != nil {
		b.csrf = m[1]
	}
	return nil
}

var (
	scriptTag = regexp.MustCompile(`<script\b[^>]*>`)
	// inline event handlers and style attributes, which the CSP blocks
	inlineAttr = regexp.MustCompile(`\s(on[a-z]+|style)\s*=\s*["']`)
)

// pageRules are what every page of the console keeps (Caller.Answer): a
// strict CSP that keeps it out of frames, no caching, and nothing inline
// that the CSP would block — every script a file of its own, no event
// handler or style attributes.
func pageRules(_ string, r apitest.Reply) []string {
	if !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") {
		return nil
	}
	var out []string
	csp := r.Header.Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'none'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'"} {
		if !strings.Contains(csp, want) {
			out = append(out, fmt.Sprintf("CSP %q lacks %s", csp, want))
		}
	}
	if strings.Contains(csp, "unsafe-") {
		out = append(out, fmt.Sprintf("CSP %q allows something unsafe", csp))
	}
	if got := r.Header.Get("Cache-Control"); got != "no-store" {
		out = append(out, fmt.Sprintf("Cache-Control %q", got))
	}
	if got := r.Header.Get("X-Frame-Options"); got != "DENY" {
		out = append(out, fmt.Sprintf("X-Frame-Options %q", got))
	}
	for _, tag := range scriptTag.FindAllString(r.Body, -1) {
		if !strings.Contains(tag, ` src="/console/assets/`) {
			out = append(out, "an inline script: "+tag)
		}
	}
	if m := inlineAttr.FindString(r.Body); m != "" {
		out = append(out, "an inline attribute:"+m)
	}
	return out
}

// get loads a page and keeps its CSRF token.
func (b *browser) get(path string) apitest.Reply {
	b.t.Helper()
	r := b.api.Do(b.t, "GET", path, "", nil)
	b.api.Check(b.t, path, r)
	return r
}

// post sends a form with the page's CSRF token unless the form has one.
func (b *browser) post(path string, form url.Values) apitest.Reply {
	b.t.Helper()
	if form == nil {
		form = url.Values{}
	}
	r := b.api.Do(b.t, "POST", path, pageToken, form)
	b.api.Check(b.t, path, r)
	return r
}

// then is the Check of a row whose act answers 303 See Other: the page
// the browser is sent to, asked for as the row next.
func (b *browser) then(next apitest.Scenario) func(*testing.T, apitest.Reply) {
	return func(t *testing.T, r apitest.Reply) {
		next.Path = r.Header.Get("Location")
		if next.Name == "" {
			next.Name = "then " + next.Path
		}
		apitest.Run(t, b.api, []apitest.Scenario{next})
	}
}

// loggedIn returns a browser with a console session.
func (e *env) loggedIn(t *testing.T) *browser {
	t.Helper()
	b := e.browser(t)
	b.get("/console?lang=en")
	r := b.post("/console/login", url.Values{"token": {adminToken}, "next": {"/console"}})
	if r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/console" {
		t.Fatalf("login: %d %s", r.Status, r.Header.Get("Location"))
	}
	if r := b.get("/console"); r.Status != 200 || !strings.Contains(r.Body, "Contracts by status") {
		t.Fatalf("the dashboard after the login: %d\n%s", r.Status, r.Body)
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
