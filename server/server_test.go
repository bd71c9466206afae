package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"contracts/signflow"

	"github.com/labstack/echo/v4"
	"github.com/rs/zerolog"
)

// logBuffer collects log output written from server goroutines.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// entries decodes the JSON lines whose message is msg.
func (b *logBuffer) entries(t *testing.T, msg string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		if line == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line is not JSON: %q", line)
		}
		if m["message"] == msg {
			out = append(out, m)
		}
	}
	return out
}

// waitEntries waits for n log lines with the message (the access log is
// written as the handler returns, around the time the client reads).
func (b *logBuffer) waitEntries(t *testing.T, msg string, n int) []map[string]any {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		got := b.entries(t, msg)
		if len(got) >= n || time.Now().After(deadline) {
			return got
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// testServer is a real HTTP server running NewEcho with test routes.
type testServer struct {
	url     string
	log     *logBuffer
	metrics *Metrics
}

func newTestServer(t *testing.T, iface string, withPath bool) *testServer {
	t.Helper()
	lb := &logBuffer{}
	m := NewMetrics()
	e := NewEcho(iface, zerolog.New(lb), m, withPath)
	e.GET("/ok", func(c echo.Context) error { return JSON(c, http.StatusOK, map[string]bool{"ok": true}) })
	e.POST("/echo", func(c echo.Context) error {
		data, err := ReadBody(c)
		if err != nil {
			return err
		}
		return JSON(c, http.StatusOK, map[string]int{"bytes": len(data)})
	})
	e.POST("/bind", func(c echo.Context) error {
		var v struct {
			Price int64 `json:"price"`
		}
		if err := Bind(c, &v); err != nil {
			return err
		}
		return JSON(c, http.StatusOK, v)
	})
	e.GET("/sign/:token", func(c echo.Context) error { return c.HTML(http.StatusOK, "<p>sign</p>") })
	e.POST("/sign/:token/otp", func(c echo.Context) error {
		return signflow.Errorf(signflow.EINVALID, "The code is wrong.")
	})
	e.GET("/sign/:session/view", func(c echo.Context) error { return c.String(http.StatusOK, "view") })
	e.GET("/fail/:code", func(c echo.Context) error {
		return signflow.Errorf(c.Param("code"), "Domain says %s.", c.Param("code"))
	})
	e.GET("/boom", func(c echo.Context) error { return errors.New("bbolt: page 42 corrupt at /var/secret") })
	e.GET("/panic", func(c echo.Context) error { panic("handler bug") })
	e.GET("/limited", func(c echo.Context) error {
		return &RetryAfterError{Err: signflow.Errorf(signflow.ERATELIMIT, "Too many requests."), After: 1500 * time.Millisecond}
	})
	e.GET("/echoerr", func(c echo.Context) error { return echo.NewHTTPError(http.StatusBadRequest, "query: bad") })
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return &testServer{url: srv.URL, log: lb, metrics: m}
}

// call makes one request and returns the response with its body read.
func (s *testServer) call(t *testing.T, method, path string, body io.Reader, header map[string]string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, s.url+path, body)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, data
}

func TestRequestID(t *testing.T) {
	s := newTestServer(t, "embedded", false)
	cases := []struct {
		name, sent string
		kept       bool
	}{
		{"sane id is kept", "req-42_abc.DEF:9", true},
		{"absent id is made", "", false},
		{"id with a space is replaced", "two words", false},
		{"id with non-ASCII is replaced", "идентификатор", false},
		{"overlong id is replaced", strings.Repeat("a", 129), false},
		{"128 characters are kept", strings.Repeat("b", 128), true},
	}
	seen := map[string]bool{}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := map[string]string{}
			if c.sent != "" {
				h["X-Request-Id"] = c.sent
			}
			resp, _ := s.call(t, "GET", "/ok", nil, h)
			got := resp.Header.Get("X-Request-Id")
			if c.kept && got != c.sent {
				t.Fatalf("X-Request-Id %q came back as %q", c.sent, got)
			}
			if !c.kept && (got == "" || got == c.sent || !saneID(got)) {
				t.Fatalf("X-Request-Id %q: answered %q, want a fresh sane id", c.sent, got)
			}
			if seen[got] {
				t.Fatalf("id %q was given twice", got)
			}
			seen[got] = true
		})
	}
}

// TestAccessLog checks one line per request, whatever its outcome, with
// the request id, the route template and the status.
func TestAccessLog(t *testing.T) {
	s := newTestServer(t, "key", true)
	reqs := []struct {
		method, path, route string
		status              int
	}{
		{"GET", "/ok", "/ok", 200},
		{"GET", "/fail/forbidden", "/fail/:code", 403},
		{"GET", "/boom", "/boom", 500},
		{"GET", "/panic", "/panic", 500},
		{"GET", "/no/such/route", "", 404},
		{"POST", "/ok", "-", 405},
	}
	ids := map[string]int{}
	for i, r := range reqs {
		resp, _ := s.call(t, r.method, r.path, nil, nil)
		if resp.StatusCode != r.status {
			t.Fatalf("%s %s: status %d, want %d", r.method, r.path, resp.StatusCode, r.status)
		}
		ids[resp.Header.Get("X-Request-Id")] = i
	}
	lines := s.log.waitEntries(t, "request", len(reqs))
	if len(lines) != len(reqs) {
		t.Fatalf("%d access-log lines for %d requests:\n%s", len(lines), len(reqs), s.log.String())
	}
	for _, l := range lines {
		id, _ := l["request_id"].(string)
		i, ok := ids[id]
		if !ok {
			t.Fatalf("access-log line with unknown request id: %v", l)
		}
		delete(ids, id)
		r := reqs[i]
		if int(l["status"].(float64)) != r.status || l["method"] != r.method || l["interface"] != "key" {
			t.Errorf("line for %s %s: %v", r.method, r.path, l)
		}
		if r.route != "" && r.route != "-" && l["route"] != r.route {
			t.Errorf("line for %s %s has route %v, want the template %s", r.method, r.path, l["route"], r.route)
		}
		if r.route == "" && l["route"] == r.path {
			t.Errorf("an unmatched path is logged as its own route: %v", l)
		}
	}
	// The unknown error and the panic are logged with their request id; the
	// caller saw neither.
	failed := append(s.log.entries(t, "request failed"), s.log.entries(t, "panic")...)
	if len(failed) < 2 {
		t.Fatalf("the 500s were not logged as errors:\n%s", s.log.String())
	}
}

// TestAccessLogHidesSigningTokens: the token of /sign/<token> is a bearer
// secret; it must appear in no log line and no metric label.
func TestAccessLogHidesSigningTokens(t *testing.T) {
	s := newTestServer(t, "embedded", false)
	const token = "tOkEn-SeCrEt-0123456789abcdefghij"
	paths := []struct {
		method, path string
		status       int
	}{
		{"GET", "/sign/" + token, 200},
		{"POST", "/sign/" + token + "/otp", 400},
		{"GET", "/sign/" + token + "/view", 200},
		{"GET", "/sign/" + token + "/no/such/page", 404},
		{"GET", "/sign/" + token + "?lang=en", 200},
	}
	for _, p := range paths {
		if resp, _ := s.call(t, p.method, p.path, nil, nil); resp.StatusCode != p.status {
			t.Fatalf("%s %s: %d, want %d", p.method, p.path, resp.StatusCode, p.status)
		}
	}
	lines := s.log.waitEntries(t, "request", len(paths))
	if len(lines) != len(paths) {
		t.Fatalf("%d access-log lines for %d requests", len(lines), len(paths))
	}
	if strings.Contains(s.log.String(), token) || strings.Contains(s.log.String(), "SeCrEt") {
		t.Fatalf("the signing token is in the log:\n%s", s.log.String())
	}
	for _, l := range lines {
		if p, _ := l["path"].(string); !strings.HasPrefix(p, "/sign/") && p != "unmatched" {
			t.Errorf("path logged as %q, want the route template", p)
		}
	}
	rec := httptest.NewRecorder()
	s.metrics.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if !strings.Contains(rec.Body.String(), "contracts_http_requests_total") || strings.Contains(rec.Body.String(), token) {
		t.Fatal("no request metrics, or the signing token is a metric label")
	}
	const series = `contracts_http_requests_total{interface="embedded",route="/sign/:token",status="200"} 2`
	if !strings.Contains(rec.Body.String(), series+"\n") {
		t.Fatalf("metrics lack %s:\n%s", series, rec.Body.String())
	}
}

// TestBodyLimit: 1 MiB is accepted; one byte more is 413 in the spec's
// error body, whether the length is declared or the body is chunked.
func TestBodyLimit(t *testing.T) {
	s := newTestServer(t, "embedded", false)
	client := &http.Client{Transport: &http.Transport{ExpectContinueTimeout: 5 * time.Second}}
	post := func(body io.Reader, length int64) (*http.Response, []byte) {
		t.Helper()
		req, err := http.NewRequest("POST", s.url+"/echo", body)
		if err != nil {
			t.Fatal(err)
		}
		req.ContentLength = length
		// The client waits for the server's go-ahead, so a refusal before
		// the body is read arrives as an answer, not a reset connection.
		req.Header.Set("Expect", "100-continue")
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		return resp, data
	}
	resp, data := post(bytes.NewReader(make([]byte, MaxBody)), MaxBody)
	if resp.StatusCode != 200 || !strings.Contains(string(data), `"bytes":1048576`) {
		t.Fatalf("exactly 1 MiB: %d %s", resp.StatusCode, data)
	}
	for name, length := range map[string]int64{"declared": MaxBody + 1, "chunked": -1} {
		t.Run(name, func(t *testing.T) {
			// A plain reader hides the length: the request goes chunked.
			body := io.MultiReader(bytes.NewReader(make([]byte, MaxBody)), strings.NewReader("x"))
			resp, data := post(body, length)
			assertErrorBody(t, resp, data, 413, "larger than 1 MiB", false)
		})
	}
}

// TestErrorBodies checks the one mapping from errors to the spec's body.
func TestErrorBodies(t *testing.T) {
	emb := newTestServer(t, "embedded", false)
	key := newTestServer(t, "key", true)
	cases := []struct {
		method, path string
		body         string
		status       int
		message      string
	}{
		{"GET", "/no/such/route", "", 404, "No such route."},
		{"DELETE", "/ok", "", 405, "Method not allowed"},
		{"GET", "/fail/" + signflow.EINVALID, "", 400, "Domain says invalid."},
		{"GET", "/fail/" + signflow.EUNAUTHORIZED, "", 401, "Domain says unauthorized."},
		{"GET", "/fail/" + signflow.EFORBIDDEN, "", 403, "Domain says forbidden."},
		{"GET", "/fail/" + signflow.ENOTFOUND, "", 404, "Domain says not_found."},
		{"GET", "/fail/" + signflow.ETOOLARGE, "", 413, "Domain says too_large."},
		{"GET", "/fail/" + signflow.ERATELIMIT, "", 429, "Domain says rate_limited."},
		{"GET", "/fail/" + signflow.EUNAVAILABLE, "", 503, "Domain says unavailable."},
		{"GET", "/fail/made_up_code", "", 500, "Domain says made_up_code."},
		{"GET", "/boom", "", 500, "Internal error."},
		{"GET", "/panic", "", 500, "Internal error."},
		{"GET", "/echoerr", "", 400, "query: bad"},
		{"POST", "/bind", `{"price": "ten"}`, 400, "price: must be a number"},
		{"POST", "/bind", `{"price": 1`, 400, "Malformed request"},
		{"POST", "/bind", ``, 400, "empty"},
	}
	for _, srv := range []struct {
		name     string
		s        *testServer
		withPath bool
	}{{"embedded", emb, false}, {"key", key, true}} {
		for _, c := range cases {
			t.Run(srv.name+" "+c.method+" "+c.path, func(t *testing.T) {
				var body io.Reader
				if c.body != "" {
					body = strings.NewReader(c.body)
				}
				resp, data := srv.s.call(t, c.method, c.path, body, map[string]string{"Content-Type": "application/json"})
				m := assertErrorBody(t, resp, data, c.status, c.message, srv.withPath)
				if srv.withPath && m["path"] != strings.SplitN(c.path, "?", 2)[0] {
					t.Errorf("path = %v, want %s", m["path"], c.path)
				}
			})
		}
	}
	if !strings.Contains(emb.log.String(), "page 42 corrupt") {
		t.Error("the cause of a 500 is not in the log")
	}

	t.Run("Retry-After", func(t *testing.T) {
		resp, data := emb.call(t, "GET", "/limited", nil, nil)
		assertErrorBody(t, resp, data, 429, "Too many requests.", false)
		if got := resp.Header.Get("Retry-After"); got != "2" {
			t.Fatalf("Retry-After = %q, want 2 (1.5s rounded up)", got)
		}
	})
	t.Run("HEAD has no body", func(t *testing.T) {
		resp, data := emb.call(t, "HEAD", "/no/such/route", nil, nil)
		if resp.StatusCode != 404 || len(data) != 0 {
			t.Fatalf("HEAD: %d with %d bytes", resp.StatusCode, len(data))
		}
	})
	t.Run("success JSON content type", func(t *testing.T) {
		resp, _ := emb.call(t, "GET", "/ok", nil, nil)
		if ct := resp.Header.Get("Content-Type"); ct != MIMEJSON {
			t.Fatalf("Content-Type %q, want %q", ct, MIMEJSON)
		}
	})
}

// assertErrorBody checks the spec's error body and returns it decoded.
func assertErrorBody(t *testing.T, resp *http.Response, data []byte, status int, message string, withPath bool) map[string]any {
	t.Helper()
	if resp.StatusCode != status {
		t.Fatalf("status %d, want %d: %s", resp.StatusCode, status, data)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
		t.Fatalf("Content-Type %q", ct)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("error body is not JSON: %s", data)
	}
	if m["code"] != float64(status) || m["status"] != itoa(status)+" "+http.StatusText(status) {
		t.Errorf("code/status = %v/%v for %d", m["code"], m["status"], status)
	}
	if msg, _ := m["message"].(string); !strings.Contains(msg, message) {
		t.Errorf("message %q does not contain %q", msg, message)
	}
	if ts, _ := m["timestamp"].(string); ts == "" {
		t.Error("no timestamp")
	} else if _, err := time.Parse("2006-01-02T15:04:05-07:00", ts); err != nil {
		t.Errorf("timestamp %q: %v", ts, err)
	}
	_, hasPath := m["path"]
	_, hasDesc := m["description"]
	if hasPath != withPath || hasDesc != withPath {
		t.Errorf("path/description present = %v/%v, want %v", hasPath, hasDesc, withPath)
	}
	if withPath && m["description"] != m["message"] {
		t.Errorf("description %v differs from message %v", m["description"], m["message"])
	}
	if strings.Contains(string(data), "page 42") || strings.Contains(string(data), "handler bug") {
		t.Errorf("an internal error leaks to the caller: %s", data)
	}
	return m
}

// TestListener: a busy port fails Start naming the address; Shutdown
// lets a request in flight finish.
func TestListener(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(started)
		<-release
		io.WriteString(w, "done")
	})
	tm := Timeouts{ReadHeader: time.Second, Read: 5 * time.Second, Write: 5 * time.Second, Idle: time.Second}
	lb := &logBuffer{}
	l := NewListener("key", "127.0.0.1:0", h, tm, zerolog.New(lb))
	if err := l.Start(); err != nil {
		t.Fatal(err)
	}
	addr := l.BoundAddr()
	if ls := lb.entries(t, "listening"); len(ls) != 1 || ls[0]["addr"] != addr || ls[0]["listener"] != "key" {
		t.Fatalf("listening line: %v, want addr %s", ls, addr)
	}

	busy := NewListener("admin", addr, h, tm, zerolog.New(io.Discard))
	if err := busy.Start(); err == nil {
		busy.Shutdown(t.Context())
		t.Fatal("a second listener started on a busy port")
	} else if !strings.Contains(err.Error(), addr) || !strings.Contains(err.Error(), "admin") {
		t.Fatalf("error %q does not name the listener and the address %s", err, addr)
	}
	if err := busy.Shutdown(t.Context()); err != nil {
		t.Fatalf("shutting down a listener that never started: %v", err)
	}

	answer := make(chan string, 1)
	go func() {
		resp, err := http.Get("http://" + addr + "/slow")
		if err != nil {
			answer <- err.Error()
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		answer <- string(b)
	}()
	<-started
	stopped := make(chan error, 1)
	go func() { stopped <- l.Shutdown(t.Context()) }()
	select {
	case err := <-stopped:
		t.Fatalf("Shutdown returned (%v) with a request in flight", err)
	case <-time.After(100 * time.Millisecond):
	}
	close(release)
	if got := <-answer; got != "done" {
		t.Fatalf("request in flight got %q during shutdown", got)
	}
	if err := <-stopped; err != nil {
		t.Fatal(err)
	}
	if _, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
		t.Fatal("the port still accepts connections after Shutdown")
	}
}
