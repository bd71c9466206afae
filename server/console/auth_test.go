package console_test

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"contracts/internal/apitest"
	"contracts/signflow"
)

// Without a session every page of the console is the login page, and
// every act is refused with it and changes nothing.
func TestConsoleWithoutSessionShowsLogin(t *testing.T) {
	e := newEnv(t)
	c := e.contract(t)
	d := e.failedDelivery(t, c.ID)
	b := e.browser(t)
	var rows []apitest.Scenario
	for _, path := range []string{"/console", "/console/contracts", "/console/contracts/" + c.ID, "/console/contracts/" + c.ID + "/pdf?lang=en",
		"/console/templates", "/console/templates?new=1", "/console/owners", "/console/apps", "/console/apps?new=1", "/console/keys",
		"/console/deliveries?status=FAILED"} {
		rows = append(rows, apitest.Scenario{Name: "GET " + path, Path: path + sep(path) + "lang=en", Status: 200,
			Want: []string{`<label for="token">Admin token</label>`, ">Log in</button>"}, Not: []string{c.Number, "Log out"}})
	}
	apitest.Run(t, b.api, rows)
	rows = nil
	for _, path := range acts(e, c.ID, d.ID) {
		rows = append(rows, apitest.Scenario{Name: "POST " + path, Method: "POST", Path: path, As: pageToken, Body: actForm(),
			Status: http.StatusUnauthorized, Want: []string{`id="token"`}})
	}
	apitest.Run(t, b.api, rows)
	assertUnchanged(t, e, c.ID, d.ID)
}

// acts are the console's POST routes, each a change to the records.
func acts(e *env, contractID, deliveryID string) []string {
	return []string{"/console/contracts/" + contractID + "/cancel", "/console/templates", "/console/templates/" + e.Template.ID + "/unpublish",
		"/console/owners", "/console/apps", "/console/apps/" + e.AppA.ID + "/secret", "/console/apps/" + e.AppA.ID + "/cancel",
		"/console/keys", "/console/keys/" + e.KeyA.ID + "/revoke", "/console/deliveries/" + deliveryID + "/redeliver", "/console/logout"}
}

// actForm is a form that every act would take.
func actForm() url.Values {
	return url.Values{"name": {"X"}, "owner": {"301234567"}, "scopes": {"CONTRACTS_READ"}, "allTemplates": {"true"},
		"in": {"309000001"}, "type": {"COMPANY"}, "legalName": {"X"}}
}

// assertUnchanged checks that nothing the console could do happened.
func assertUnchanged(t *testing.T, e *env, contractID, deliveryID string) {
	t.Helper()
	if got, _ := e.Service.AdminContract(contractID); got.Status != signflow.StatusCreated {
		t.Errorf("the contract is %s", got.Status)
	}
	tpls, _ := e.Service.AdminTemplates()
	apps, _ := e.Service.Apps()
	keys, _ := e.Service.Keys()
	owners, _ := e.Service.Owners()
	if len(tpls) != 3 || len(apps) != 2 || len(keys) != 3 || len(owners) != 2 {
		t.Errorf("records changed: %d templates, %d apps, %d keys, %d owners", len(tpls), len(apps), len(keys), len(owners))
	}
	for _, tpl := range tpls {
		if tpl.ID == e.Template.ID && tpl.Status != signflow.TemplatePublished {
			t.Errorf("the template was unpublished")
		}
	}
	for _, a := range apps {
		if a.Cancelled || a.SecretGen != 1 {
			t.Errorf("app %s changed", a.Name)
		}
	}
	for _, k := range keys {
		if k.Revoked {
			t.Errorf("key %s revoked", k.Name)
		}
	}
	if ds, _ := e.Service.Deliveries(signflow.DeliveryFilter{ContractID: contractID, Status: signflow.DeliveryFailed}); len(ds) != 1 || ds[0].ID != deliveryID {
		t.Errorf("the failed delivery changed: %v", ds)
	}
}

func sep(path string) string {
	if strings.Contains(path, "?") {
		return "&"
	}
	return "?"
}

// The login: a wrong token is refused; the fifth wrong one in a row locks
// the client address for signflow.LoginLockTime against wrong tokens, never
// against the right one; the session cookie is HttpOnly and SameSite=Strict and ends after
// 30 idle minutes; logging out ends it.
func TestConsoleLogin(t *testing.T) {
	e := newEnv(t)
	b := e.browser(t)
	noSession := func(t *testing.T, r apitest.Reply) {
		if r.Cookie("console_session") != nil {
			t.Fatal("a session cookie was set")
		}
	}
	rows := []apitest.Scenario{
		{Name: "the login page", Path: "/console?lang=en", Status: 200, Check: func(t *testing.T, r apitest.Reply) {
			if !strings.Contains(r.Header.Get("Set-Cookie"), "console_login=") {
				t.Fatalf("the login page sets no binding cookie: %v", r.Header)
			}
		}},
		// A login form of another page (another binding) is refused.
		{Name: "forged login CSRF", Method: "POST", Path: "/console/login", Body: url.Values{"token": {adminToken}, "csrf": {"forged-forged-forged-forged"}},
			Status: http.StatusForbidden, Want: []string{"out of date"}},
	}
	for i := 1; i < signflow.LoginWrongLimit; i++ {
		rows = append(rows, apitest.Scenario{Name: fmt.Sprintf("wrong token %d", i), Method: "POST", Path: "/console/login", As: pageToken,
			Body: url.Values{"token": {"wrong-token"}}, Status: http.StatusUnauthorized, Want: []string{"The token is wrong."}, Check: noSession})
	}
	rows = append(rows,
		apitest.Scenario{Name: "the fifth wrong token", Method: "POST", Path: "/console/login", As: pageToken, Body: url.Values{"token": {adminToken + "x"}},
			Status: http.StatusTooManyRequests, WantHeader: map[string]string{"Retry-After": "900"}, Want: []string{"locked for 15 min"}},
		// Others' wrong tokens never keep the administrator out.
		apitest.Scenario{Name: "a wrong token still locked", Method: "POST", Path: "/console/login", As: pageToken, Body: url.Values{"token": {"wrong-token"}},
			Status: http.StatusTooManyRequests},
		apitest.Scenario{Name: "the right token while locked", Method: "POST",
			Path: "/console/login", As: pageToken, Body: url.Values{"token": {adminToken}, "next": {"/console/owners?lang=en"}},
			Status: http.StatusSeeOther, WantHeader: map[string]string{"Location": "/console/owners?lang=en"}, Check: func(t *testing.T, r apitest.Reply) {
				ck := r.Header.Get("Set-Cookie")
				for _, want := range []string{"console_session=", "Path=/console", "HttpOnly", "SameSite=Strict"} {
					if !strings.Contains(ck, want) {
						t.Errorf("session cookie %q lacks %s", ck, want)
					}
				}
			}},
		apitest.Scenario{Name: "after the login", Path: "/console/owners", Status: 200, Want: []string{"Create owner", "Log out"}},
	)
	apitest.Run(t, b.api, rows)

	// A return address outside the console is not followed.
	b2 := e.browser(t)
	apitest.Run(t, b2.api, []apitest.Scenario{
		{Name: "login page", Path: "/console", Status: 200},
		{Name: "next outside the console", Method: "POST", Path: "/console/login", As: pageToken, Body: url.Values{"token": {adminToken}, "next": {"//evil.example/x"}},
			Status: http.StatusSeeOther, WantHeader: map[string]string{"Location": "/console"}},
	})

	// Idle for the time-out: the login page, saying why.
	apitest.Run(t, b.api, []apitest.Scenario{
		{Name: "29 idle minutes", Before: func() { e.Clock.Advance(29 * time.Minute) }, Path: "/console", Status: 200, Not: []string{`id="token"`}},
		{Name: "30 idle minutes", Before: func() { e.Clock.Advance(30 * time.Minute) }, Path: "/console?lang=en", Status: 200,
			Want: []string{`id="token"`, "session ended"}},
	})

	// Log out ends the session on the server: the old cookie opens nothing.
	b = e.loggedIn(t)
	cookies := b.c.Jar.Cookies(mustURL(t, e.admin.URL+"/console"))
	replay := e.browser(t)
	apitest.Run(t, b.api, []apitest.Scenario{{Name: "log out", Method: "POST", Path: "/console/logout", As: pageToken, Body: url.Values{},
		Status: http.StatusSeeOther, Check: func(t *testing.T, _ apitest.Reply) {
			replay.c.Jar.SetCookies(mustURL(t, e.admin.URL+"/console"), cookies)
			apitest.Run(t, replay.api, []apitest.Scenario{{Name: "the logged-out cookie", Path: "/console", Status: 200, Want: []string{`id="token"`}}})
		}}})
}

// A wrong-token lock is the address's own: another browser's guesses from
// the same address are locked too, a browser from another address is not.
func TestConsoleLockIsPerAddress(t *testing.T) {
	e := newEnv(t)
	login := func(token string, status int) apitest.Scenario {
		return apitest.Scenario{Name: "log in", Method: "POST", Path: "/console/login", As: pageToken, Body: url.Values{"token": {token}}, Status: status}
	}
	rows := []apitest.Scenario{{Name: "login page", Path: "/console", Status: 200}}
	for i := 1; i < signflow.LoginWrongLimit; i++ {
		rows = append(rows, login("wrong", http.StatusUnauthorized))
	}
	apitest.Run(t, e.browser(t).api, append(rows, login("wrong", http.StatusTooManyRequests)))

	// Another browser from the locked address: its guesses are locked, the
	// right token is not.
	apitest.Run(t, e.browser(t).api, []apitest.Scenario{{Name: "login page", Path: "/console", Status: 200}, login("wrong", http.StatusTooManyRequests),
		login(adminToken, http.StatusSeeOther)})
	// A browser from another address.
	other := e.browser(t)
	other.c.Transport = &http.Transport{DialContext: (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 2)}}).DialContext}
	t.Cleanup(other.c.CloseIdleConnections)
	apitest.Run(t, other.api, []apitest.Scenario{{Name: "login page", Path: "/console", Status: 200}, login(adminToken, http.StatusSeeOther)})
}

// With a session, a POST without the session's CSRF token is refused
// with 403 and changes nothing.
func TestConsoleRefusesPostsWithoutCSRF(t *testing.T) {
	e := newEnv(t)
	c := e.contract(t)
	d := e.failedDelivery(t, c.ID)
	b := e.loggedIn(t)
	var rows []apitest.Scenario
	for _, token := range []string{"", "wrong-token-wrong-token"} {
		for _, path := range acts(e, c.ID, d.ID) {
			form := actForm()
			form.Set("csrf", token)
			rows = append(rows, apitest.Scenario{Name: "POST " + path + " with CSRF " + token, Method: "POST", Path: path, As: pageToken, Body: form,
				Status: http.StatusForbidden, Want: []string{"out of date"}})
		}
	}
	apitest.Run(t, b.api, rows)
	assertUnchanged(t, e, c.ID, d.ID)
	apitest.Run(t, b.api, []apitest.Scenario{{Name: "a refused logout kept the session", Path: "/console", Status: 200, Not: []string{`id="token"`}}})
}

// The admin listener's Host check covers the console.
func TestConsoleHostCheck(t *testing.T) {
	e := newEnv(t)
	evil := &apitest.Caller{URL: e.admin.URL, HTTP: &http.Client{Transport: hostAs("console.evil.example")}}
	apitest.Run(t, evil, []apitest.Scenario{
		{Name: "page for another host", Path: "/console", Status: http.StatusMisdirectedRequest},
		{Name: "file for another host", Path: "/console/assets/console.css", Status: http.StatusMisdirectedRequest},
	})
}

// hostAs sends every request as if to host.
type hostAs string

func (h hostAs) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Host = string(h)
	return http.DefaultTransport.RoundTrip(req)
}

func mustURL(t *testing.T, s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
