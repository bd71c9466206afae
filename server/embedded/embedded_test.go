package embedded

import (
	"io"
	"net/http/httptest"
	"testing"

	"contracts/internal/apitest"
	"contracts/internal/fixture"
	"contracts/server"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
	"github.com/rs/zerolog"
)

const testBaseURL = "https://sign.example"

// env is the embedded interface served over real HTTP on a real bbolt world.
type env struct {
	*fixture.Standard
	t    testing.TB
	echo *echo.Echo
	srv  *httptest.Server
	// api sends requests with a bearer token; it checks every exchange
	// against the OpenAPI document and every scenario's answer against
	// the interface's JSON rules.
	api *apitest.Caller
}

// newEnv starts the interface with no rate limit unless tokenPerMinute says.
func newEnv(t testing.TB, tokenPerMinute int) *env {
	t.Helper()
	return newEnvWith(t, func(d *Deps) { d.TokenPerMinute = tokenPerMinute }, nil)
}

// newEnvWith starts the interface with its Deps, and the service's
// options, edited by the functions (either may be nil).
func newEnvWith(t testing.TB, deps func(*Deps), opts func(*signflow.Options)) *env {
	t.Helper()
	w := fixture.NewStandard(t)
	if opts != nil {
		opt := w.Options
		opts(&opt)
		w.Service = signflow.NewService(w.DB, opt)
	}
	e := server.NewEcho("embedded", zerolog.New(io.Discard), server.NewMetrics(), false)
	d := Deps{Service: w.Service, BaseURL: testBaseURL + "/", Now: w.Clock.Now}
	if deps != nil {
		deps(&d)
	}
	Register(e, d)
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	api := &apitest.Caller{URL: srv.URL, HTTP: apitest.ServerClient(t, apitest.Embedded, srv), Auth: apitest.Bearer,
		Answer: apitest.JSONAnswers(apitest.Embedded)}
	return &env{Standard: w, t: t, echo: e, srv: srv, api: api}
}

// trustLoopback makes the loopback test client a trusted proxy, so that a
// test can speak from several addresses through X-Forwarded-For.
func (e *env) trustLoopback() {
	nets, err := server.ParseTrustedProxies([]string{"127.0.0.0/8", "::1"})
	if err != nil {
		e.t.Fatal(err)
	}
	e.echo.IPExtractor = server.IPExtractor(nets)
}

// do sends a request with the bearer token (none when token is empty);
// body and header go as apitest.Client.Do sends them.
func (e *env) do(method, path, token string, body any, header ...string) apitest.Reply {
	e.t.Helper()
	return e.api.Do(e.t, method, path, token, body, header...)
}

// token obtains a bearer token for an app credential.
func (e *env) token(cred *signflow.NewCredential) string {
	e.t.Helper()
	r := e.do("POST", "/v1/auth/token", "", map[string]string{"appId": cred.ID, "appSecret": cred.Secret})
	if r.Status != 200 {
		e.t.Fatalf("token: %d %s", r.Status, r)
	}
	return r.JSON(e.t)["accessToken"].(string)
}

// app creates an app of owner A with the scopes and templates.
func (e *env) app(scopes []string, templateIDs ...string) *signflow.NewCredential {
	e.t.Helper()
	return fixture.MustCredential(e.t, e.Service.CreateApp, &signflow.CredentialInput{Name: "test app", OwnerIN: fixture.OwnerIN,
		Scopes: scopes, AllTemplates: len(templateIDs) == 0, TemplateIDs: templateIDs})
}

// createContract posts a contract through the interface and returns its id.
func (e *env) createContract(token string, body map[string]any) string {
	e.t.Helper()
	r := e.do("POST", "/v1/contracts", token, body)
	if r.Status != 200 {
		e.t.Fatalf("create contract: %d %s", r.Status, r)
	}
	return r.JSON(e.t)["id"].(string)
}
