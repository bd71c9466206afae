package console_test

import (
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"contracts/signflow"
)

// Without a session every page of the console is the login page, and
// every act is refused with it and changes nothing.
func TestConsoleWithoutSessionShowsLogin(t *testing.T) {
	e := newEnv(t)
	c := e.contract(t)
	d := e.failedDelivery(t, c.ID)
	b := e.browser(t)
	gets := []string{"/console", "/console/contracts", "/console/contracts/" + c.ID, "/console/contracts/" + c.ID + "/pdf?lang=en",
		"/console/templates", "/console/templates?new=1", "/console/owners", "/console/apps", "/console/apps?new=1", "/console/keys",
		"/console/deliveries?status=FAILED"}
	for _, path := range gets {
		p := b.get(path + sep(path) + "lang=en")
		if p.status != 200 || !strings.Contains(p.body, `<label for="token">Admin token</label>`) || !strings.Contains(p.body, ">Log in</button>") {
			t.Errorf("GET %s without a session: %d\n%.300s", path, p.status, p.body)
		}
		if csp := p.header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'none'") || !strings.Contains(csp, "script-src 'self'") {
			t.Errorf("GET %s: CSP %q", path, csp)
		}
		if strings.Contains(p.body, c.Number) || strings.Contains(p.body, "Log out") {
			t.Errorf("GET %s without a session shows the console", path)
		}
	}
	posts := []string{"/console/contracts/" + c.ID + "/cancel", "/console/templates", "/console/templates/" + e.Template.ID + "/unpublish",
		"/console/owners", "/console/apps", "/console/apps/" + e.AppA.ID + "/secret", "/console/apps/" + e.AppA.ID + "/cancel",
		"/console/keys", "/console/keys/" + e.KeyA.ID + "/revoke", "/console/deliveries/" + d.ID + "/redeliver", "/console/logout"}
	for _, path := range posts {
		p := b.post(path, url.Values{"name": {"X"}, "owner": {"301234567"}, "scopes": {"CONTRACTS_READ"}, "allTemplates": {"true"},
			"in": {"309000001"}, "type": {"COMPANY"}, "legalName": {"X"}})
		if p.status != http.StatusUnauthorized || !strings.Contains(p.body, `id="token"`) {
			t.Errorf("POST %s without a session: %d", path, p.status)
		}
	}
	assertUnchanged(t, e, c.ID, d.ID)
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
// the client address for signflow.LoginLockTime, even against the right
// token; the session cookie is HttpOnly and SameSite=Strict and ends after
// 30 idle minutes; logging out ends it.
func TestConsoleLogin(t *testing.T) {
	e := newEnv(t)
	b := e.browser(t)
	first := b.get("/console?lang=en")
	if !strings.Contains(first.header.Get("Set-Cookie"), "console_login=") {
		t.Fatalf("the login page sets no binding cookie: %v", first.header)
	}

	// A login form of another page (another binding) is refused.
	if p := b.post("/console/login", url.Values{"token": {adminToken}, "csrf": {"forged-forged-forged-forged"}}); p.status != http.StatusForbidden ||
		!strings.Contains(p.body, "out of date") {
		t.Fatalf("forged login CSRF: %d", p.status)
	}
	for i := 1; i < signflow.LoginWrongLimit; i++ {
		p := b.post("/console/login", url.Values{"token": {"wrong-token"}})
		if p.status != http.StatusUnauthorized || !strings.Contains(p.body, "The token is wrong.") || strings.Contains(p.header.Get("Set-Cookie"), "console_session=") {
			t.Fatalf("wrong token %d: %d", i, p.status)
		}
	}
	p := b.post("/console/login", url.Values{"token": {adminToken + "x"}})
	if p.status != http.StatusTooManyRequests || p.header.Get("Retry-After") != "900" || !strings.Contains(p.body, "locked for 15 min") {
		t.Fatalf("the fifth wrong token: %d %q\n%s", p.status, p.header.Get("Retry-After"), p.body)
	}
	if p := b.post("/console/login", url.Values{"token": {adminToken}}); p.status != http.StatusTooManyRequests {
		t.Fatalf("the right token while locked: %d", p.status)
	}
	e.Clock.Advance(signflow.LoginLockTime)
	p = b.post("/console/login", url.Values{"token": {adminToken}, "next": {"/console/owners?lang=en"}})
	if p.status != http.StatusSeeOther || p.location != "/console/owners?lang=en" {
		t.Fatalf("the right token after the lock: %d %q", p.status, p.location)
	}
	ck := p.header.Get("Set-Cookie")
	for _, want := range []string{"console_session=", "Path=/console", "HttpOnly", "SameSite=Strict"} {
		if !strings.Contains(ck, want) {
			t.Errorf("session cookie %q lacks %s", ck, want)
		}
	}
	if p := b.get("/console/owners"); p.status != 200 || !strings.Contains(p.body, "Create owner") || !strings.Contains(p.body, "Log out") {
		t.Fatalf("after the login: %d", p.status)
	}
	// A return address outside the console is not followed.
	b2 := e.browser(t)
	b2.get("/console")
	if p := b2.post("/console/login", url.Values{"token": {adminToken}, "next": {"//evil.example/x"}}); p.location != "/console" {
		t.Errorf("next outside the console: %q", p.location)
	}

	// Idle for the time-out: the login page, saying why.
	e.Clock.Advance(29 * time.Minute)
	if p := b.get("/console"); p.status != 200 || strings.Contains(p.body, `id="token"`) {
		t.Fatalf("29 idle minutes ended the session")
	}
	e.Clock.Advance(30 * time.Minute)
	if p := b.get("/console?lang=en"); !strings.Contains(p.body, `id="token"`) || !strings.Contains(p.body, "session ended") {
		t.Fatalf("30 idle minutes: %d\n%.400s", p.status, p.body)
	}

	// Log out ends the session on the server: the old cookie opens nothing.
	b = e.loggedIn(t)
	cookies := b.c.Jar.Cookies(mustURL(t, e.admin.URL+"/console"))
	if p := b.post("/console/logout", nil); p.status != http.StatusSeeOther {
		t.Fatalf("log out: %d", p.status)
	}
	replay := e.browser(t)
	replay.c.Jar.SetCookies(mustURL(t, e.admin.URL+"/console"), cookies)
	if p := replay.get("/console"); !strings.Contains(p.body, `id="token"`) {
		t.Fatal("the cookie of a logged-out session still opens the console")
	}
}

// A wrong-token lock is the address's own: another browser from the
// same address is locked too, a browser from another address is not.
func TestConsoleLockIsPerAddress(t *testing.T) {
	e := newEnv(t)
	b := e.browser(t)
	b.get("/console")
	for i := 0; i < signflow.LoginWrongLimit; i++ {
		b.post("/console/login", url.Values{"token": {"wrong"}})
	}
	same := e.browser(t)
	same.get("/console")
	if p := same.post("/console/login", url.Values{"token": {adminToken}}); p.status != http.StatusTooManyRequests {
		t.Fatalf("another browser from the locked address: %d", p.status)
	}
	other := e.browser(t)
	other.c.Transport = &http.Transport{DialContext: (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 2)}}).DialContext}
	other.get("/console")
	if p := other.post("/console/login", url.Values{"token": {adminToken}}); p.status != http.StatusSeeOther {
		t.Fatalf("a browser from another address: %d", p.status)
	}
}

// With a session, a POST without the session's CSRF token is refused
// with 403 and changes nothing.
func TestConsoleRefusesPostsWithoutCSRF(t *testing.T) {
	e := newEnv(t)
	c := e.contract(t)
	d := e.failedDelivery(t, c.ID)
	b := e.loggedIn(t)
	posts := []string{"/console/contracts/" + c.ID + "/cancel", "/console/templates", "/console/templates/" + e.Template.ID + "/unpublish",
		"/console/owners", "/console/apps", "/console/apps/" + e.AppA.ID + "/secret", "/console/apps/" + e.AppA.ID + "/cancel",
		"/console/keys", "/console/keys/" + e.KeyA.ID + "/revoke", "/console/deliveries/" + d.ID + "/redeliver", "/console/logout"}
	for _, token := range []string{"", "wrong-token-wrong-token"} {
		for _, path := range posts {
			p := b.post(path, url.Values{"csrf": {token}, "name": {"X"}, "owner": {"301234567"}, "scopes": {"CONTRACTS_READ"},
				"allTemplates": {"true"}, "in": {"309000001"}, "type": {"COMPANY"}, "legalName": {"X"}})
			if p.status != http.StatusForbidden || !strings.Contains(p.body, "out of date") {
				t.Errorf("POST %s with CSRF %q: %d", path, token, p.status)
			}
		}
	}
	assertUnchanged(t, e, c.ID, d.ID)
	if p := b.get("/console"); strings.Contains(p.body, `id="token"`) {
		t.Error("a refused logout ended the session")
	}
}

// The admin listener's Host check covers the console.
func TestConsoleHostCheck(t *testing.T) {
	e := newEnv(t)
	for _, path := range []string{"/console", "/console/assets/console.css"} {
		req, _ := http.NewRequest("GET", e.admin.URL+path, nil)
		req.Host = "console.evil.example"
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusMisdirectedRequest {
			t.Errorf("%s for another host: %d", path, res.StatusCode)
		}
	}
}

func mustURL(t *testing.T, s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
