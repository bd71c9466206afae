package apitest_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"contracts/internal/apitest"
	"contracts/server"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
	"github.com/rs/zerolog"
)

// recorder is a testing.TB that records Errorf instead of failing, so the
// tests can prove that the validator fails a test.
type recorder struct {
	testing.TB
	mu   sync.Mutex
	errs []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func (r *recorder) Logf(string, ...any) {}

func (r *recorder) Helper() {}

func (r *recorder) failures() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.errs)
}

// Bodies in the embedded document's shapes.
const (
	templateJSON = `[{"id":"3fa85f64-5717-4562-b3fc-2c963f66afa6","nameUz":"a","nameRu":"b","nameEn":"c",` +
		`"individualVerificationType":"OTP_SMS","legalVerificationType":"E_IMZO","productEnabled":true,` +
		`"productRequired":false,"paymentScheduleEnabled":false,"witnessCount":0}]`
	sessionJSON = `{"id":"6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d","contractId":"1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f",` +
		`"signerIn":"31234567890123","status":"PENDING","method":"OTP_SMS","expiresAt":"%s","completedAt":null}`
	contractID = "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f"
	validBody  = `{"templateId":"3fa85f64-5717-4562-b3fc-2c963f66afa6","buyerIn":"31234567890123","price":1500.5}`
	bearer     = "Bearer t0ken"
)

// answer is a handler that replies with a fixed status, type and body, or
// with a domain error through the real error handler.
func answer(status int, contentType, body string) echo.HandlerFunc {
	return func(c echo.Context) error { return c.Blob(status, contentType, []byte(body)) }
}

func fail(code, msg string) echo.HandlerFunc {
	return func(echo.Context) error { return signflow.Errorf(code, "%s", msg) }
}

// serve builds the tiny server: the real echo setup of the interface with
// one handler on the route.
func serve(iface apitest.Interface, method, route string, h echo.HandlerFunc) *echo.Echo {
	e := server.NewEcho(string(iface), zerolog.Nop(), nil, iface == apitest.Key)
	e.Add(method, route, h)
	return e
}

type exchange struct {
	name          string
	iface         apitest.Interface
	method, route string // echo route of the handler
	handler       echo.HandlerFunc
	path, body    string // request sent
	header        http.Header
	wantStatus    int
	wantFailures  []string // substrings, each of some failure; none means it must pass
}

func (x exchange) run(t *testing.T) {
	rec := &recorder{TB: t}
	e := serve(x.iface, x.method, x.route, x.handler)
	client := &http.Client{Transport: apitest.Wrap(rec, x.iface, apitest.HandlerTransport(e))}
	var body *strings.Reader
	if x.body != "" {
		body = strings.NewReader(x.body)
	}
	req, err := http.NewRequest(x.method, "http://service.test"+x.path, nil)
	if body != nil {
		req, err = http.NewRequest(x.method, "http://service.test"+x.path, body)
		req.Header.Set("Content-Type", "application/json")
	}
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range x.header {
		req.Header[k] = v
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if x.wantStatus != 0 && resp.StatusCode != x.wantStatus {
		t.Fatalf("status %d, want %d", resp.StatusCode, x.wantStatus)
	}
	got := rec.failures()
	if len(x.wantFailures) == 0 && len(got) > 0 {
		t.Fatalf("the validator failed a right exchange:\n%s", strings.Join(got, "\n"))
	}
	if len(x.wantFailures) > 0 && len(got) == 0 {
		t.Fatalf("the validator passed a wrong exchange (want %q)", x.wantFailures)
	}
	for _, want := range x.wantFailures {
		found := false
		for _, g := range got {
			found = found || strings.Contains(g, want)
		}
		if !found {
			t.Errorf("no failure mentions %q; got:\n%s", want, strings.Join(got, "\n"))
		}
	}
	for _, g := range got {
		if !strings.HasPrefix(g, fmt.Sprintf("apitest: %s %s → %d: ", x.method, x.path, resp.StatusCode)) {
			t.Errorf("failure does not name method, path and status: %s", g)
		}
	}
}

func auth() http.Header { return http.Header{"Authorization": {bearer}} }

func TestResponses(t *testing.T) {
	get := func(name string, h echo.HandlerFunc, want ...string) exchange {
		return exchange{name: name, iface: apitest.Embedded, method: http.MethodGet, route: "/v1/templates", handler: h,
			path: "/v1/templates", header: auth(), wantFailures: want}
	}
	replace := func(old, new string) string { return strings.Replace(templateJSON, old, new, 1) }
	for _, x := range []exchange{
		get("right shape", answer(200, server.MIMEJSON, templateJSON)),
		get("wrong type", answer(200, server.MIMEJSON, replace(`"witnessCount":0`, `"witnessCount":"0"`)), "at /0/witnessCount"),
		get("unknown field", answer(200, server.MIMEJSON, replace(`"id"`, `"body":"secret","id"`)), `property "body" is unsupported`),
		get("missing field", answer(200, server.MIMEJSON, replace(`"nameEn":"c",`, ``)), `property "nameEn" is missing`),
		get("enum value", answer(200, server.MIMEJSON, replace(`"OTP_SMS"`, `"SMS"`)), "at /0/individualVerificationType"),
		get("null where not nullable", answer(200, server.MIMEJSON, replace(`"nameUz":"a"`, `"nameUz":null`)), "at /0/nameUz"),
		get("not an array", answer(200, server.MIMEJSON, `{}`), "response body"),
		get("JSON without charset", answer(200, "application/json", templateJSON), `want "application/json; charset=utf-8"`),
		get("undocumented status", answer(http.StatusTeapot, server.MIMEJSON, `{}`), "status is not supported"),
		get("real 401", fail(signflow.EUNAUTHORIZED, "no token")),
		get("real 503", fail(signflow.EUNAVAILABLE, "later")),
		get("real 500 from an unknown error", func(echo.Context) error { return fmt.Errorf("boom") }),
		get("error code not the status", answer(401, server.MIMEJSON,
			`{"code":400,"status":"401 Unauthorized","message":"m","timestamp":"2026-11-22T14:00:00+05:00"}`), "error body code 400, want the status 401"),
		get("error status text", answer(401, server.MIMEJSON,
			`{"code":401,"status":"401","message":"m","timestamp":"2026-11-22T14:00:00+05:00"}`), `error body status "401"`),
		get("key-interface fields in an embedded error", answer(401, server.MIMEJSON,
			`{"code":401,"status":"401 Unauthorized","message":"m","timestamp":"t","path":"/v1/templates","description":"m"}`),
			`property "path" is unsupported`),
		get("error without message", answer(403, server.MIMEJSON,
			`{"code":403,"status":"403 Forbidden","timestamp":"t"}`), `property "message" is missing`),
	} {
		t.Run(x.name, x.run)
	}
}

func TestDateTimesAreUTC(t *testing.T) {
	id := "6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d"
	for at, want := range map[string]string{
		"2026-11-22T09:30:00Z":      "",
		"2026-11-22T14:30:00+05:00": "at /expiresAt",
		"2026-11-22T09:30:00.5Z":    "at /expiresAt",
		"tomorrow":                  "at /expiresAt",
	} {
		x := exchange{name: at, iface: apitest.Embedded, method: http.MethodGet, route: "/v1/sign-sessions/:id",
			handler: answer(200, server.MIMEJSON, fmt.Sprintf(sessionJSON, at)), path: "/v1/sign-sessions/" + id, header: auth()}
		if want != "" {
			x.wantFailures = []string{want}
		}
		t.Run(at, x.run)
	}
}

func TestPDF(t *testing.T) {
	pdf := func(name string, h echo.HandlerFunc, want ...string) exchange {
		return exchange{name: name, iface: apitest.Key, method: http.MethodGet, route: "/v1/contracts/:id/pdf", handler: h,
			path: "/v1/contracts/" + contractID + "/pdf?lang=ru", header: http.Header{"X-Api-Key": {"k"}}, wantFailures: want}
	}
	for _, x := range []exchange{
		pdf("a PDF", answer(200, "application/pdf", "%PDF-1.7\n%…")),
		pdf("not a PDF", answer(200, "application/pdf", "<html>"), "does not begin with %PDF-"),
		pdf("JSON instead", answer(200, server.MIMEJSON, `{}`), "Content-Type"),
		pdf("key error", fail(signflow.ENOTFOUND, "Contract not found.")),
	} {
		t.Run(x.name, x.run)
	}
}

// TestKeyErrors: path and description are required and must agree with
// the request and the message.
func TestKeyErrors(t *testing.T) {
	key := http.Header{"X-Api-Key": {"k"}}
	body := func(path, desc string) string {
		return fmt.Sprintf(`{"code":404,"status":"404 Not Found","message":"Contract not found.","timestamp":"t","path":%q,"description":%q}`, path, desc)
	}
	p := "/v1/contracts/" + contractID
	for _, x := range []exchange{
		{name: "real error handler", handler: fail(signflow.ENOTFOUND, "Contract not found.")},
		{name: "right", handler: answer(404, server.MIMEJSON, body(p, "Contract not found."))},
		{name: "other path", handler: answer(404, server.MIMEJSON, body("/v1/x", "Contract not found.")), wantFailures: []string{`error body path "/v1/x"`}},
		{name: "other description", handler: answer(404, server.MIMEJSON, body(p, "x")), wantFailures: []string{`description "x" differs`}},
		{name: "no path", handler: answer(404, server.MIMEJSON, `{"code":404,"status":"404 Not Found","message":"m","timestamp":"t","description":"m"}`),
			wantFailures: []string{`property "path" is missing`}},
	} {
		x.iface, x.method, x.route, x.path, x.header = apitest.Key, http.MethodGet, "/v1/contracts/:id", p, key
		t.Run(x.name, x.run)
	}
}

func TestRequests(t *testing.T) {
	created := answer(200, server.MIMEJSON, `{"id":"`+contractID+`"}`)
	post := func(name, body string, h echo.HandlerFunc, header http.Header, want ...string) exchange {
		if header == nil {
			header = auth()
		}
		return exchange{name: name, iface: apitest.Embedded, method: http.MethodPost, route: "/v1/contracts", handler: h,
			path: "/v1/contracts", body: body, header: header, wantFailures: want}
	}
	marked := auth()
	marked.Set(apitest.HeaderInvalidRequest, "1")
	for _, x := range []exchange{
		post("valid and accepted", validBody, created, nil),
		post("invalid but accepted", `{"buyerIn":"31234567890123"}`, created, nil, `request body at /templateId: property "templateId" is missing`),
		post("wrong type accepted", `{"templateId":"3fa85f64-5717-4562-b3fc-2c963f66afa6","price":"1500"}`, created, nil, "request body at /price"),
		post("malformed JSON proving a 400", `{"templateId":`, fail(signflow.EINVALID, "Malformed request"), nil),
		post("missing field proving a 400", `{}`, fail(signflow.EINVALID, "templateId: required"), nil),
		post("marked invalid and accepted", `{"templateId":"x","deliveryAt":"2026-12-01"}`, func(c echo.Context) error {
			if c.Request().Header.Get(apitest.HeaderInvalidRequest) != "" {
				return c.String(599, "the marker reached the server")
			}
			return created(c)
		}, marked),
		post("accepted without a token", validBody, created, http.Header{}, "request"),
		post("refused without a token", validBody, fail(signflow.EUNAUTHORIZED, "no token"), http.Header{}),
		post("a 413", validBody, fail(signflow.ETOOLARGE, "too large"), nil),
		{name: "open token endpoint", iface: apitest.Embedded, method: http.MethodPost, route: "/v1/auth/token",
			handler: answer(200, server.MIMEJSON, `{"accessToken":"a","tokenType":"Bearer","expiresIn":3600}`),
			path:    "/v1/auth/token", body: `{"appId":"a","appSecret":"s"}`},
		{name: "429 needs Retry-After", iface: apitest.Embedded, method: http.MethodPost, route: "/v1/auth/token",
			handler: fail(signflow.ERATELIMIT, "slow down"), path: "/v1/auth/token", body: `{"appId":"a","appSecret":"s"}`,
			wantFailures: []string{"Retry-After"}},
		{name: "429 with Retry-After", iface: apitest.Embedded, method: http.MethodPost, route: "/v1/auth/token",
			handler: func(echo.Context) error {
				return &server.RetryAfterError{Err: signflow.Errorf(signflow.ERATELIMIT, "slow down"), After: 3e9}
			}, path: "/v1/auth/token", body: `{"appId":"a","appSecret":"s"}`},
		{name: "query out of range", iface: apitest.Key, method: http.MethodGet, route: "/v1/contracts",
			handler: answer(200, server.MIMEJSON, `{"content":[],"totalElements":0,"totalPages":0,"number":0,"size":100}`),
			path:    "/v1/contracts?size=0&statuses=CREATED", header: http.Header{"X-Api-Key": {"k"}}, wantFailures: []string{"query parameter size"}},
		{name: "query in range", iface: apitest.Key, method: http.MethodGet, route: "/v1/contracts",
			handler: answer(200, server.MIMEJSON, `{"content":[],"totalElements":0,"totalPages":0,"number":0,"size":100}`),
			path:    "/v1/contracts?size=100&statuses=CREATED&statuses=ACTIVE", header: http.Header{"X-Api-Key": {"k"}}},
		{name: "path parameter not a UUID but answered", iface: apitest.Embedded, method: http.MethodGet, route: "/v1/sign-sessions/:id",
			handler: answer(200, server.MIMEJSON, fmt.Sprintf(sessionJSON, "2026-11-22T09:30:00Z")),
			path:    "/v1/sign-sessions/42", header: auth(), wantFailures: []string{"path parameter id"}},
	} {
		t.Run(x.name, x.run)
	}
}

// TestMarkerStaysOnCallersRequest: the validator does not change the
// request the test holds.
func TestMarkerStaysOnCallersRequest(t *testing.T) {
	e := serve(apitest.Embedded, http.MethodPost, "/v1/contracts", answer(200, server.MIMEJSON, `{"id":"`+contractID+`"}`))
	client := &http.Client{Transport: apitest.Wrap(t, apitest.Embedded, apitest.HandlerTransport(e))}
	req, _ := http.NewRequest(http.MethodPost, "http://service.test/v1/contracts", strings.NewReader(`{}`))
	req.Header.Set(apitest.HeaderInvalidRequest, "1")
	req.Header.Set("Authorization", bearer)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if req.Header.Get(apitest.HeaderInvalidRequest) != "1" {
		t.Fatal("the caller's request lost its header")
	}
}

// TestUndescribedPassesThrough: routes outside the document are not checked.
func TestUndescribedPassesThrough(t *testing.T) {
	for _, x := range []exchange{
		{name: "signing page", method: http.MethodGet, route: "/sign/:token", path: "/sign/abc", handler: answer(200, "text/html", "<p>")},
		{name: "verify page", method: http.MethodGet, route: "/verify/:id", path: "/verify/" + contractID, handler: answer(404, "text/html", "<p>")},
		{name: "method not described", method: http.MethodDelete, route: "/v1/contracts/:id", path: "/v1/contracts/" + contractID,
			handler: answer(405, "text/plain", "no")},
	} {
		x.iface = apitest.Embedded
		t.Run(x.name, x.run)
	}
}

// TestOverTheNetwork: Validator over the default transport against a real
// listener, concurrently (for -race), and its failures reach the TB.
func TestOverTheNetwork(t *testing.T) {
	e := server.NewEcho("embedded", zerolog.Nop(), nil, false)
	e.GET("/v1/templates", answer(200, server.MIMEJSON, templateJSON))
	e.GET("/v1/clients/:in", answer(200, server.MIMEJSON, `{"in":"31234567890123"}`))
	srv := httptest.NewServer(e)
	defer srv.Close()
	rec := &recorder{TB: t}
	client := &http.Client{Transport: apitest.Validator(rec, apitest.Embedded)}
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			path := "/v1/templates"
			if i%4 == 0 {
				path = "/v1/clients/31234567890123"
			}
			req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
			req.Header.Set("Authorization", bearer)
			resp, err := client.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
		}()
	}
	wg.Wait()
	missingID := 0
	for _, g := range rec.failures() {
		if !strings.Contains(g, "GET /v1/clients/31234567890123 → 200") {
			t.Errorf("failure of a right exchange: %q", g)
		}
		if strings.Contains(g, `property "id" is missing`) {
			missingID++
		}
	}
	if missingID != 4 {
		t.Fatalf("want the 4 wrong client answers caught, got %d", missingID)
	}
}

// TestUnexercised: an operation answered below 400 with a valid exchange
// is exercised; one never reached is listed.
func TestUnexercised(t *testing.T) {
	e := serve(apitest.Key, http.MethodGet, "/v1/me", answer(200, server.MIMEJSON,
		`{"name":"k","ownerIn":"301234567","ownerLegalName":"Alpha Savdo MChJ","scopes":["CONTRACTS_READ"],"allTemplates":true,"templateIds":[],"expiresAt":null}`))
	client := &http.Client{Transport: apitest.Wrap(t, apitest.Key, apitest.HandlerTransport(e))}
	req, _ := http.NewRequest(http.MethodGet, "http://service.test/v1/me", nil)
	req.Header.Set("X-API-Key", "k")
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	left := apitest.Unexercised(apitest.Key)
	if slices.Contains(left, "GET /v1/me") || !slices.Contains(left, "POST /v1/contracts/{id}/complete") {
		t.Fatalf("unexercised %q", left)
	}
}

func TestDocument(t *testing.T) {
	for _, which := range []apitest.Interface{apitest.Embedded, apitest.Key} {
		doc, err := apitest.Document(which)
		if err != nil || doc.Info.Version != "1.0" {
			t.Fatalf("%s: %v", which, err)
		}
	}
	if _, err := apitest.Document("admin"); err == nil {
		t.Fatal("an unknown interface has a document")
	}
}
