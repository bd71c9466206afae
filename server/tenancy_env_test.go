package server_test

import (
	"context"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"contracts/internal/apitest"
	"contracts/internal/config"
	"contracts/internal/fixture"
	"contracts/server"
	"contracts/server/admin"
	"contracts/server/cabinet"
	"contracts/server/embedded"
	"contracts/server/keyapi"
	"contracts/server/signpage"
	"contracts/server/verify"
	"contracts/signflow"
	"contracts/signflow/sms"

	"github.com/labstack/echo/v4"
	"github.com/rs/zerolog"
)

// The tenancy tests play several tenants on one appliance, only through
// its HTTP interfaces as integrators and people would: the admin API, the
// embedded interface with the signing page, the key interface with the
// cabinet. Every SMS goes through the http provider to a gateway over HTTP.

const adminToken = "tenancy-test-admin-token-0123456789abcdef"

// tenancy is one appliance: its listeners over a real bbolt world.
type tenancy struct {
	t                    *testing.T
	w                    *fixture.World
	sms                  *fixture.SMS // what the gateway delivered
	gateway              *fixture.Gateway
	admin, embedded, key *httptest.Server
	embClient, keyClient *http.Client // check every answer against the OpenAPI documents
	template             string
}

func newTenancy(t *testing.T) *tenancy {
	t.Helper()
	return newTenancyWith(t, signflow.Options{})
}

// newTenancyWith is newTenancy with the service's options (its SMS sender
// is always the gateway's).
func newTenancyWith(t *testing.T, opt signflow.Options) *tenancy {
	t.Helper()
	rec := &fixture.SMS{}
	gw := fixture.NewGateway(t, rec)
	sender := sms.NewHTTP(gw.URL, nil, 5*time.Second)
	opt.SMS = sender
	w := fixture.New(t, opt)
	e := &tenancy{t: t, w: w, sms: rec, gateway: gw}

	adm := server.NewEcho("admin", zerolog.Nop(), nil, true)
	admin.Register(adm, admin.Deps{Service: w.Service, Token: adminToken, Metrics: server.NewMetrics()})
	emb := server.NewEcho("embedded", zerolog.Nop(), nil, false)
	emb.IPExtractor = echo.ExtractIPDirect()
	embedded.Register(emb, embedded.Deps{Service: w.Service, BaseURL: "http://embedded.test", Now: w.Clock.Now})
	signpage.Register(emb, signpage.Deps{Service: w.Service, ServiceName: config.Default().Service.Name, Now: w.Clock.Now, Log: zerolog.Nop()})
	verify.Register(emb, verify.Deps{Service: w.Service})
	key := server.NewEcho("key", zerolog.Nop(), nil, true)
	key.IPExtractor = echo.ExtractIPDirect()
	keyapi.Register(key, keyapi.Deps{Service: w.Service, VerifyBaseURL: "http://embedded.test", Now: w.Clock.Now})
	cabinet.Register(key, cabinetDeps(t, w, sender))
	for _, s := range []struct {
		srv **httptest.Server
		e   *echo.Echo
	}{{&e.admin, adm}, {&e.embedded, emb}, {&e.key, key}} {
		*s.srv = httptest.NewServer(s.e)
		t.Cleanup((*s.srv).Close)
	}
	e.embClient = &http.Client{Transport: apitest.Wrap(t, apitest.Embedded, e.embedded.Client().Transport)}
	e.keyClient = &http.Client{Transport: apitest.Wrap(t, apitest.Key, e.key.Client().Transport)}
	r := e.send(http.DefaultClient, "POST", e.admin.URL+"/admin/v1/templates", fixture.TemplateYAML,
		"Authorization", "Bearer "+adminToken, "Content-Type", "application/yaml")
	e.template = e.ok(r, "template")["id"].(string)
	return e
}

// cabinetDeps wires the cabinet as the appliance does: login codes through
// a text queue over the same SMS provider.
func cabinetDeps(t *testing.T, w *fixture.World, sender signflow.SMSSender) cabinet.Deps {
	texts := sms.NewQueue(sender, zerolog.Nop(), sms.QueueOptions{Timeout: config.Default().SMS.HTTP.Timeout})
	texts.Start()
	t.Cleanup(func() { texts.Shutdown(context.Background()) })
	return cabinet.Deps{Service: w.Service, ServiceName: config.Default().Service.Name, IdleTimeout: 30 * time.Minute, EmbeddedBaseURL: "http://embedded.test", Now: w.Clock.Now, Texts: texts}
}

// send makes one request with c; body and header go as apitest.Caller.Do
// sends them.
func (e *tenancy) send(c *http.Client, method, url string, body any, header ...string) apitest.Reply {
	e.t.Helper()
	return (&apitest.Caller{HTTP: c}).Do(e.t, method, url, "", body, header...)
}

// ok returns the JSON body of a 200 answer, failing the test otherwise.
func (e *tenancy) ok(r apitest.Reply, what string) map[string]any {
	e.t.Helper()
	if r.Status != 200 {
		e.t.Fatalf("%s: %d %s", what, r.Status, r.Body)
	}
	return r.JSON(e.t)
}

func (e *tenancy) adminPost(path string, body any) map[string]any {
	e.t.Helper()
	return e.ok(e.send(http.DefaultClient, "POST", e.admin.URL+path, body, "Authorization", "Bearer "+adminToken), "admin "+path)
}

// owner registers an owner as the admin does and returns the answer.
func (e *tenancy) owner(body map[string]any) map[string]any {
	e.t.Helper()
	return e.adminPost("/admin/v1/owners", body)
}

// app issues an app of the owner with every scope and returns a token.
func (e *tenancy) app(owner string) string {
	e.t.Helper()
	a := e.adminPost("/admin/v1/apps", map[string]any{"name": "app of " + owner, "ownerIn": owner,
		"scopes": signflow.AppScopes, "allTemplates": true})
	tok := e.ok(e.send(e.embClient, "POST", e.embedded.URL+"/v1/auth/token", map[string]any{"appId": a["appId"], "appSecret": a["appSecret"]}), "token")
	return tok["accessToken"].(string)
}

// apiKey issues a key of the owner with every key scope.
func (e *tenancy) apiKey(owner string) string {
	e.t.Helper()
	k := e.adminPost("/admin/v1/keys", map[string]any{"name": "key of " + owner, "ownerIn": owner,
		"scopes": signflow.KeyScopes, "allTemplates": true})
	return k["key"].(string)
}

// emb calls the embedded interface with an app's token.
func (e *tenancy) emb(token, method, path string, body any) apitest.Reply {
	e.t.Helper()
	return e.send(e.embClient, method, e.embedded.URL+path, body, "Authorization", "Bearer "+token)
}

// keyCall calls the key interface with an API key.
func (e *tenancy) keyCall(key, method, path string, body any) apitest.Reply {
	e.t.Helper()
	return e.send(e.keyClient, method, e.key.URL+path, body, keyapi.HeaderAPIKey, key)
}

// contract creates a contract through the embedded interface (token) or
// the key interface (a key, "ck_...") with body's parties, and returns its id.
func (e *tenancy) contract(cred string, body map[string]any) string {
	e.t.Helper()
	body["templateId"], body["price"], body["currency"] = e.template, 1500, "UZS"
	var r apitest.Reply
	if strings.HasPrefix(cred, signflow.KeyPrefix) {
		body["price"] = 150000
		r = e.keyCall(cred, "POST", "/v1/contracts", body)
	} else {
		r = e.emb(cred, "POST", "/v1/contracts", body)
	}
	return e.ok(r, "create contract")["id"].(string)
}

// state reads a contract's status and party statuses with an app's token.
func (e *tenancy) state(token, id string) string {
	e.t.Helper()
	c := e.ok(e.emb(token, "GET", "/v1/contracts/"+id, nil), "read contract")
	return c["status"].(string) + " buyer " + c["buyerStatus"].(string) + " seller " + c["sellerStatus"].(string)
}

// session opens a signing session and returns the signing page's token.
func (e *tenancy) session(token, id, signer string) (apitest.Reply, string) {
	e.t.Helper()
	r := e.emb(token, "POST", "/v1/contracts/"+id+"/sign-sessions", map[string]any{"signerIn": signer, "lang": "en"})
	if r.Status != 200 {
		return r, ""
	}
	u := r.JSON(e.t)["url"].(string)
	return r, u[strings.LastIndex(u, "/")+1:]
}

// page calls the signing page's API of a session token.
func (e *tenancy) page(token, action string, body any) apitest.Reply {
	e.t.Helper()
	if body == nil {
		body = map[string]any{}
	}
	return e.send(http.DefaultClient, "POST", e.embedded.URL+"/sign/"+token+"/"+action, body)
}

// codeTo waits for a new SMS to phone and returns its code.
func (e *tenancy) codeTo(phone string) string {
	e.t.Helper()
	return e.sms.Newest(e.t, phone).Code(e.t)
}

// sentTo lists the phones the gateway delivered to.
func (e *tenancy) sentTo() []string {
	var out []string
	for _, m := range e.sms.WaitFor(e.t, 0) {
		out = append(out, m.Phone)
	}
	return out
}

// visitor is one browser in the cabinet.
type visitor struct {
	e    *tenancy
	c    *http.Client
	csrf string
}

var csrfRE = regexp.MustCompile(`"csrf":"([^"]+)"`)

func (e *tenancy) visitor() *visitor {
	jar, _ := cookiejar.New(nil)
	c := *e.key.Client()
	c.Jar = jar
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &visitor{e: e, c: &c}
}

// get loads a cabinet page and keeps its CSRF token.
func (v *visitor) get(path string) apitest.Reply {
	v.e.t.Helper()
	r := v.e.send(v.c, "GET", v.e.key.URL+path, nil)
	if m := csrfRE.FindStringSubmatch(r.Body); m != nil {
		v.csrf = m[1]
	}
	return r
}

// post calls the cabinet's API with the page's CSRF token.
func (v *visitor) post(path string, body any) apitest.Reply {
	v.e.t.Helper()
	if body == nil {
		body = map[string]any{}
	}
	return v.e.send(v.c, "POST", v.e.key.URL+path, body, "X-CSRF-Token", v.csrf)
}

// askCode opens the login page and asks for a code for the number.
func (v *visitor) askCode(in string) apitest.Reply {
	v.e.t.Helper()
	v.get("/cabinet?lang=en")
	return v.post("/cabinet/api/login/code", map[string]string{"number": in})
}

// logIn logs in with a code and loads the list.
func (v *visitor) logIn(in, code string) apitest.Reply {
	v.e.t.Helper()
	r := v.post("/cabinet/api/login", map[string]string{"number": in, "code": code})
	v.get("/cabinet")
	return r
}
