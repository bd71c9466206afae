// Package apitest holds the interface test suites to the OpenAPI documents
// the service publishes (assets/openapi), so that a document cannot drift
// from the code: every exchange a test makes through its round tripper is
// checked against the document, and a mismatch fails the test.
//
// Adopt it by sending a suite's requests through a validating client:
//
//	client := apitest.Client(t, apitest.Embedded)            // real listener or httptest.Server
//	client := &http.Client{Transport: apitest.Wrap(t, apitest.Key, apitest.HandlerTransport(e))} // in process
//
// What is checked, for a request whose method and path the document
// describes (anything else — /sign/..., /verify/..., /sdk.js, /api-docs, a
// method the path does not have — passes through unchecked):
//
//   - The response, always, error responses included: the status must be one
//     the operation lists; headers, content type and body must match its
//     schema (unknown fields in a response fail, as the schemas close their
//     objects); JSON must be sent as "application/json; charset=utf-8";
//     date-times must be UTC "YYYY-MM-DDThh:mm:ssZ"; an error body's code
//     must equal the status (and, where present, path the request path and
//     description the message); a PDF must begin with "%PDF-".
//   - The request, only when the response status is below 400. A test that
//     sends a deliberately bad request (malformed JSON, a missing field, no
//     credentials) to prove a 4xx needs no marking: only the error answer is
//     checked. A request the server accepted must match the document, or the
//     document is stricter than the code. The security requirement is met by
//     the presence of the credential (a Bearer token or X-API-Key); whether
//     it is good is the server's business.
//   - A test that proves the server accepts an input the document does not
//     describe (a lenient form) sets the header X-Test-Invalid-Request: 1; the
//     request is then not checked whatever the answer, and the header is
//     removed before the request leaves.
//
// Mismatches are reported with tb.Errorf, naming the method, path, status
// and every reason, so one run shows them all.
//
// The suites of the interfaces and pages (server/embedded, server/keyapi,
// server/signpage, server/cabinet, server/console) send their requests
// through a Caller and write their scenarios as tables of Scenario rows
// for Run, the one runner: a request, its status, refusal reason, headers
// and body parts. A page's forms are sent as url.Values, their CSRF token
// put in by FormField.
// ScopeMatrix proves an interface's scopes route by route.
package apitest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"

	"contracts/assets"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
)

// Interface names one of the two documents.
type Interface string

// The interfaces with an OpenAPI document.
const (
	Embedded Interface = "embedded"
	Key      Interface = "key"
)

// HeaderInvalidRequest marks a request that must not be checked against the
// document; the validator removes it before sending.
const HeaderInvalidRequest = "X-Test-Invalid-Request"

// Validator returns a round tripper over http.DefaultTransport that checks
// every exchange with the interface's document and fails tb on a mismatch.
func Validator(tb testing.TB, which Interface) http.RoundTripper {
	tb.Helper()
	return Wrap(tb, which, http.DefaultTransport)
}

// Client returns an HTTP client whose transport is Validator(tb, which).
func Client(tb testing.TB, which Interface) *http.Client {
	tb.Helper()
	return &http.Client{Transport: Validator(tb, which)}
}

// Wrap is Validator over another transport, such as an httptest.Server's
// TLS client transport or HandlerTransport.
func Wrap(tb testing.TB, which Interface, base http.RoundTripper) http.RoundTripper {
	tb.Helper()
	s, err := specOf(which)
	if err != nil {
		tb.Fatalf("apitest: %s document: %v", which, err)
	}
	return &transport{tb: tb, spec: s, base: base}
}

// Document returns the interface's document, loaded and validated. It is
// shared: do not modify it.
func Document(which Interface) (*openapi3.T, error) {
	s, err := specOf(which)
	if err != nil {
		return nil, err
	}
	return s.doc, nil
}

// HandlerTransport serves each request in process with h, as a server
// would receive it from 127.0.0.1, without a network listener.
func HandlerTransport(h http.Handler) http.RoundTripper { return handlerTransport{h} }

type handlerTransport struct{ h http.Handler }

func (t handlerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	in := req.Clone(req.Context())
	in.RequestURI = req.URL.RequestURI()
	in.RemoteAddr = "127.0.0.1:40000"
	if in.Host == "" {
		in.Host = req.URL.Host
	}
	if in.Body == nil {
		in.Body = http.NoBody
	}
	rec := httptest.NewRecorder()
	t.h.ServeHTTP(rec, in)
	resp := rec.Result()
	resp.Request = req
	if req.Body != nil {
		req.Body.Close()
	}
	return resp, nil
}

// spec is one loaded document with its router.
type spec struct {
	doc    *openapi3.T
	router routers.Router

	mu   sync.Mutex
	seen map[string]bool // "METHOD /path" answered below 400 and checked
}

var specs = map[Interface]func() (*spec, error){
	Embedded: sync.OnceValues(func() (*spec, error) { return loadSpec(assets.OpenAPIEmbedded) }),
	Key:      sync.OnceValues(func() (*spec, error) { return loadSpec(assets.OpenAPIKey) }),
}

func specOf(which Interface) (*spec, error) {
	load, ok := specs[which]
	if !ok {
		return nil, fmt.Errorf("unknown interface %q", which)
	}
	return load()
}

func loadSpec(data []byte) (*spec, error) {
	doc, err := openapi3.NewLoader().LoadFromData(data)
	if err != nil {
		return nil, err
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, err
	}
	// Route by path alone: tests reach the service on any host and port.
	doc.Servers = nil
	r, err := legacy.NewRouter(doc)
	if err != nil {
		return nil, err
	}
	return &spec{doc: doc, router: r, seen: map[string]bool{}}, nil
}

// transport checks each exchange it carries.
type transport struct {
	tb   testing.TB
	spec *spec
	base http.RoundTripper
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	skipRequest := req.Header.Get(HeaderInvalidRequest) != ""
	if skipRequest {
		req = req.Clone(req.Context())
		req.Header.Del(HeaderInvalidRequest)
	}
	route, params, err := t.spec.router.FindRoute(req)
	if err != nil {
		return t.base.RoundTrip(req) // not described: not ours to check
	}
	var reqBody []byte
	if req.Body != nil && req.Body != http.NoBody {
		reqBody, err = io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		req = req.Clone(req.Context())
		req.Body = io.NopCloser(bytes.NewReader(reqBody))
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(reqBody)), nil }
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	respBody, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(respBody))
	ex := &exchange{req: req, reqBody: reqBody, route: route, params: params, resp: resp, respBody: respBody}
	problems := t.spec.check(ex, !skipRequest && resp.StatusCode < 400)
	for _, p := range problems {
		t.tb.Errorf("apitest: %s %s → %d: %s", req.Method, req.URL.RequestURI(), resp.StatusCode, p)
	}
	if len(problems) > 0 {
		t.tb.Logf("apitest: response %s: %s", resp.Header.Get("Content-Type"), excerpt(resp.Header.Get("Content-Type"), respBody))
	}
	return resp, nil
}

// Unexercised lists the operations of the interface ("METHOD /path") that
// no checked exchange in this process has reached with a status below 400,
// so that a suite can prove, after its tests ran, that it covered the whole
// document.
func Unexercised(which Interface) []string {
	s, err := specOf(which)
	if err != nil {
		return []string{err.Error()}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, path := range s.doc.Paths.InMatchingOrder() {
		for method := range s.doc.Paths.Value(path).Operations() {
			if !s.seen[method+" "+path] {
				out = append(out, method+" "+path)
			}
		}
	}
	sort.Strings(out)
	return out
}

// excerpt is the start of a text body, or the size of a binary one.
func excerpt(contentType string, b []byte) string {
	const max = 600
	if !strings.Contains(contentType, "json") && !strings.HasPrefix(contentType, "text/") {
		return fmt.Sprintf("%d bytes", len(b))
	}
	if len(b) > max {
		return fmt.Sprintf("%q… (%d bytes)", b[:max], len(b))
	}
	return fmt.Sprintf("%q", b)
}
