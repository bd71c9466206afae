package embedded

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
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
	// client validates every request and answer against the OpenAPI document.
	client *http.Client
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
	return &env{Standard: w, t: t, echo: e, srv: srv, client: validating(t, apitest.Embedded, srv)}
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

// reply is one HTTP answer.
type reply struct {
	status int
	header http.Header
	body   []byte
}

func (r reply) String() string { return string(r.body) }

// json decodes the body into a generic value.
func (r reply) json(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("body is not a JSON object: %v\n%s", err, r.body)
	}
	return m
}

// do sends a request; body is sent as is when a string, else as JSON.
func (e *env) do(method, path, token string, body any, header ...string) reply {
	e.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			e.t.Fatal(err)
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, e.srv.URL+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := e.client.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	return reply{status: res.StatusCode, header: res.Header, body: data}
}

// token obtains a bearer token for an app credential.
func (e *env) token(cred *signflow.NewCredential) string {
	e.t.Helper()
	r := e.do("POST", "/v1/auth/token", "", map[string]string{"appId": cred.ID, "appSecret": cred.Secret})
	if r.status != 200 {
		e.t.Fatalf("token: %d %s", r.status, r)
	}
	return r.json(e.t)["accessToken"].(string)
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
	if r.status != 200 {
		e.t.Fatalf("create contract: %d %s", r.status, r)
	}
	return r.json(e.t)["id"].(string)
}

// scenario is one row of a route's table: a request and what must come back.
type scenario struct {
	name   string
	method string
	path   string
	token  string
	body   any
	status int
	want   []string // substrings of the body
	not    []string // substrings the body must not hold
}

func (e *env) run(t *testing.T, table []scenario) {
	t.Helper()
	for _, sc := range table {
		t.Run(sc.name, func(t *testing.T) {
			r := e.do(sc.method, sc.path, sc.token, sc.body)
			if r.status != sc.status {
				t.Fatalf("status %d, want %d: %s", r.status, sc.status, r)
			}
			checkJSONReply(t, r)
			for _, w := range sc.want {
				if !strings.Contains(r.String(), w) {
					t.Errorf("body lacks %s: %s", w, r)
				}
			}
			for _, n := range sc.not {
				if strings.Contains(r.String(), n) {
					t.Errorf("body holds %s: %s", n, r)
				}
			}
		})
	}
}

var errorTimestamp = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$`)

// checkJSONReply checks what every JSON answer of the interface shares:
// the content type and, for errors, the spec's error body without the key
// interface's path and description.
func checkJSONReply(t *testing.T, r reply) {
	t.Helper()
	if ct := r.header.Get("Content-Type"); ct != server.MIMEJSON {
		t.Errorf("Content-Type %q", ct)
	}
	if r.status < 400 {
		return
	}
	var body map[string]any
	if err := json.Unmarshal(r.body, &body); err != nil {
		t.Fatalf("error body: %v", err)
	}
	if body["code"] != float64(r.status) || body["status"] != strconv.Itoa(r.status)+" "+http.StatusText(r.status) {
		t.Errorf("error body code/status: %s", r)
	}
	if msg, _ := body["message"].(string); msg == "" {
		t.Errorf("error body without message: %s", r)
	}
	if ts, _ := body["timestamp"].(string); !errorTimestamp.MatchString(ts) {
		t.Errorf("error timestamp %q", ts)
	}
	if _, ok := body["path"]; ok {
		t.Errorf("embedded error carries path: %s", r)
	}
	if _, ok := body["description"]; ok {
		t.Errorf("embedded error carries description: %s", r)
	}
}

// wireDate is the only date-time form the interface writes.
var wireDate = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`)

// validating is a client that checks each exchange against the interface's
// OpenAPI document; benchmarks get a plain one.
func validating(t testing.TB, which apitest.Interface, srv *httptest.Server) *http.Client {
	if _, bench := t.(*testing.B); bench {
		return srv.Client()
	}
	return &http.Client{Transport: apitest.Wrap(t, which, srv.Client().Transport)}
}
