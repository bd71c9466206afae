package apitest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// Caller sends a suite's requests to one listener, as one caller: the
// embedded interface with a bearer token, the key interface with an API
// key, the signing page, a browser in the cabinet.
type Caller struct {
	// URL is put before every path; empty when the paths are whole URLs.
	URL string
	// HTTP sends the requests; nil is http.DefaultClient. A Validator's
	// client checks every exchange against the interface's document.
	HTTP *http.Client
	// Auth puts a credential on a request (a bearer token, an API key, a
	// page's CSRF token); it is called only for a credential that is not
	// empty, so "" sends none.
	Auth func(req *http.Request, credential string)
	// Read, when set, sees every answer before the caller does and may
	// change it: a browser keeps the CSRF token of the page it loaded. An
	// error fails the test.
	Read func(req *http.Request, r *Reply) error
	// Answer, when set, returns what is wrong with an answer to a
	// scenario by the rules every answer of the suite shares (JSONAnswers).
	Answer func(path string, r Reply) []string
}

// Reply is one answer, its body read whole.
type Reply struct {
	Status int
	Header http.Header
	Body   string
}

// String is the body, for failure messages.
func (r Reply) String() string { return r.Body }

// JSON decodes the body as a JSON object, failing tb when it is not one.
func (r Reply) JSON(tb testing.TB) map[string]any {
	tb.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(r.Body), &m); err != nil {
		tb.Fatalf("body is not a JSON object: %v\n%s", err, r.Body)
	}
	return m
}

// Cookie returns the cookie the answer sets under name, or nil.
func (r Reply) Cookie(name string) *http.Cookie {
	for _, c := range (&http.Response{Header: r.Header}).Cookies() {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// Do sends one request and reads the whole answer. body is sent as JSON
// ("application/json"): a string or func() string as it is, nil as no body
// at all, anything else encoded; url.Values is sent as a form
// ("application/x-www-form-urlencoded"). header holds name, value pairs,
// set after the body's type and the credential, so that they can replace
// either.
func (c *Caller) Do(tb testing.TB, method, path, credential string, body any, header ...string) Reply {
	tb.Helper()
	var rd io.Reader
	contentType := "application/json"
	switch b := body.(type) {
	case nil:
	case url.Values:
		rd, contentType = strings.NewReader(b.Encode()), formType
	case string:
		rd = strings.NewReader(b)
	case func() string:
		rd = strings.NewReader(b())
	default:
		data, err := json.Marshal(b)
		if err != nil {
			tb.Fatal(err)
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, c.URL+path, rd)
	if err != nil {
		tb.Fatal(err)
	}
	if rd != nil {
		req.Header.Set("Content-Type", contentType)
	}
	if credential != "" && c.Auth != nil {
		c.Auth(req, credential)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	client := c.HTTP
	if client == nil {
		client = http.DefaultClient
	}
	res, err := client.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		tb.Fatal(err)
	}
	r := Reply{Status: res.StatusCode, Header: res.Header, Body: string(data)}
	if c.Read != nil {
		if err := c.Read(req, &r); err != nil {
			tb.Fatalf("%s %s: %v", method, path, err)
		}
	}
	return r
}

// Bearer is the Auth of the embedded interface.
func Bearer(req *http.Request, token string) { req.Header.Set("Authorization", "Bearer "+token) }

// ServerClient is the client of a test server that checks every exchange
// against the interface's document; a benchmark gets the plain client,
// whose measure the checks would spoil.
func ServerClient(tb testing.TB, which Interface, srv *httptest.Server) *http.Client {
	tb.Helper()
	if _, bench := tb.(*testing.B); bench {
		return srv.Client()
	}
	return &http.Client{Transport: Wrap(tb, which, srv.Client().Transport)}
}

// Check fails tb with every way an answer to a request for path breaks
// the Caller's Answer rules.
func (c *Caller) Check(tb testing.TB, path string, r Reply) {
	tb.Helper()
	if c.Answer == nil {
		return
	}
	for _, p := range c.Answer(path, r) {
		tb.Error(p)
	}
}
