package keyapi

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
	// client validates every request and answer against the OpenAPI document.
	client *http.Client
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
	client := &http.Client{Transport: apitest.Wrap(t, apitest.Key, srv.Client().Transport)}
	if _, bench := t.(*testing.B); bench {
		client = srv.Client()
	}
	return &env{Standard: w, t: t, srv: srv, client: client}
}

// reply is an answer of the server.
type reply struct {
	status int
	header http.Header
	body   []byte
}

func (r reply) String() string { return string(r.body) }

// json decodes the body as an object.
func (r reply) json(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("body is not a JSON object: %v: %s", err, r)
	}
	return m
}

// do sends a request with the key in X-API-Key (none when key is empty).
// body is sent as is when a string, else as JSON; header adds name, value pairs.
func (e *env) do(method, path, key string, body any, header ...string) reply {
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
	if key != "" {
		req.Header.Set(HeaderAPIKey, key)
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
	if r.status != 200 {
		e.t.Fatalf("create contract: %d %s", r.status, r)
	}
	return r.json(e.t)["id"].(string)
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

// scenario is one row of a route's table: a request and what must come back.
type scenario struct {
	name   string
	method string
	path   string
	key    string
	body   any
	status int
	want   []string // substrings of the body
	not    []string // substrings the body must not hold
}

func (e *env) run(t *testing.T, table []scenario) {
	t.Helper()
	for _, sc := range table {
		t.Run(sc.name, func(t *testing.T) {
			r := e.do(sc.method, sc.path, sc.key, sc.body)
			if r.status != sc.status {
				t.Fatalf("status %d, want %d: %s", r.status, sc.status, r)
			}
			checkJSONReply(t, r, sc.path)
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
// the content type and, for errors, the spec's error body with the key
// interface's path and description.
func checkJSONReply(t testing.TB, r reply, path string) {
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
	msg, _ := body["message"].(string)
	if msg == "" || body["description"] != msg {
		t.Errorf("error body message/description: %s", r)
	}
	if ts, _ := body["timestamp"].(string); !errorTimestamp.MatchString(ts) {
		t.Errorf("error timestamp %q", ts)
	}
	if p, _, _ := strings.Cut(path, "?"); body["path"] != p {
		t.Errorf("error path %v, want %s", body["path"], p)
	}
}

// wireDate is the only date-time form the interface writes.
var wireDate = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`)

// at is the fixture clock's time in the wire form.
func (e *env) at(d time.Duration) string { return e.Clock.Now().Add(d).UTC().Format(wire.TimeLayout) }

// Unknown routes and methods answer in the key interface's error body.
func TestUnknownRoutes(t *testing.T) {
	e := newEnv(t, 0)
	e.run(t, []scenario{
		{name: "unknown path under /v1", method: "GET", path: "/v1/nothing", key: e.KeyA.Secret, status: 404},
		{name: "unknown path without a key", method: "GET", path: "/v1/nothing", status: 404},
		{name: "wrong method", method: "DELETE", path: "/v1/contracts", key: e.KeyA.Secret, status: 405},
		{name: "signing is not on this interface", method: "POST", path: "/v1/contracts/" + signflow.NewID() + "/sign-sessions",
			key: e.KeyA.Secret, status: 404},
		{name: "no token endpoint here", method: "POST", path: "/v1/auth/token", key: e.KeyA.Secret,
			body: map[string]string{"appId": e.AppA.ID, "appSecret": e.AppA.Secret}, status: 404},
	})
}
