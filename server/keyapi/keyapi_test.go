package keyapi

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"contracts/internal/apitest"
	"contracts/internal/fixture"
	"contracts/server"
	"contracts/server/wire"
	"contracts/signflow"

	"github.com/rs/zerolog"
)

// verifyBase stands for embedded.baseURL in the tests.
const verifyBase = "http://embedded.test"

// env is the key interface over a real echo server, on a real bbolt world.
type env struct {
	*fixture.Standard
	t   testing.TB
	srv *httptest.Server
	// api sends requests with an API key; it checks every exchange
	// against the OpenAPI document and every scenario's answer against
	// the interface's JSON rules.
	api *apitest.Caller
}

// newEnv serves the key interface of a fresh standard world; perSecond is
// the per-key rate limit (0: none), on the world's clock.
func newEnv(t testing.TB, perSecond int) *env {
	t.Helper()
	w := fixture.NewStandard(t)
	e := server.NewEcho("key", zerolog.Nop(), nil, true)
	Register(e, Deps{Service: w.Service, VerifyBaseURL: verifyBase + "/", KeyPerSecond: perSecond, Now: w.Clock.Now})
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	api := &apitest.Caller{URL: srv.URL, HTTP: apitest.ServerClient(t, apitest.Key, srv),
		Auth:   func(req *http.Request, key string) { req.Header.Set(HeaderAPIKey, key) },
		Answer: apitest.JSONAnswers(apitest.Key)}
	return &env{Standard: w, t: t, srv: srv, api: api}
}

// do sends a request with the key in X-API-Key (none when key is empty);
// body and header go as apitest.Caller.Do sends them.
func (e *env) do(method, path, key string, body any, header ...string) apitest.Reply {
	e.t.Helper()
	return e.api.Do(e.t, method, path, key, body, header...)
}

// key creates a key of owner A with the scopes, limited to templateIDs
// when any are given.
func (e *env) key(scopes []string, templateIDs ...string) string {
	e.t.Helper()
	return fixture.MustCredential(e.t, e.Service.CreateKey, &signflow.CredentialInput{Name: "test key", OwnerIN: fixture.OwnerIN,
		Scopes: scopes, AllTemplates: len(templateIDs) == 0, TemplateIDs: templateIDs}).Secret
}

// create posts a contract with the key and returns its id.
func (e *env) create(key string, body map[string]any) string {
	e.t.Helper()
	r := e.do("POST", "/v1/contracts", key, body)
	if r.Status != 200 {
		e.t.Fatalf("create contract: %d %s", r.Status, r)
	}
	return r.JSON(e.t)["id"].(string)
}

// sale is a valid create body: owner A sells to the customer.
func (e *env) sale(extra ...any) map[string]any {
	b := map[string]any{"templateId": e.Template.ID, "buyerIn": fixture.CustomerIN, "price": 150000, "currency": "UZS"}
	for i := 0; i+1 < len(extra); i += 2 {
		b[extra[i].(string)] = extra[i+1]
	}
	return b
}

// activate signs a contract for both parties through the real state
// machine, in the store: the signing flow is not on this interface.
func (e *env) activate(id string) {
	e.t.Helper()
	fixture.Must(e.t, func() error {
		return e.DB.Update(func(tx signflow.Tx) error {
			c, err := tx.Contract(id)
			if err != nil {
				return err
			}
			for _, in := range []string{c.BuyerIN, c.SellerIN} {
				if _, err := c.Sign(in, signflow.Signature{Method: signflow.MethodOTP, At: e.Clock.Now()}, e.Clock.Now()); err != nil {
					return err
				}
			}
			return tx.PutContract(c)
		})
	})
}

// at is the fixture clock's time in the wire form.
func (e *env) at(d time.Duration) string { return e.Clock.Now().Add(d).UTC().Format(wire.TimeLayout) }

// Unknown routes and methods answer in the key interface's error body.
func TestUnknownRoutes(t *testing.T) {
	e := newEnv(t, 0)
	apitest.Run(t, e.api, []apitest.Scenario{
		{Name: "unknown path under /v1", Method: "GET", Path: "/v1/nothing", As: e.KeyA.Secret, Status: 404},
		{Name: "unknown path without a key", Method: "GET", Path: "/v1/nothing", Status: 404},
		{Name: "wrong method", Method: "DELETE", Path: "/v1/contracts", As: e.KeyA.Secret, Status: 405},
		{Name: "signing is not on this interface", Method: "POST", Path: "/v1/contracts/" + signflow.NewID() + "/sign-sessions",
			As: e.KeyA.Secret, Status: 404},
		{Name: "no token endpoint here", Method: "POST", Path: "/v1/auth/token", As: e.KeyA.Secret,
			Body: map[string]string{"appId": e.AppA.ID, "appSecret": e.AppA.Secret}, Status: 404},
	})
}
