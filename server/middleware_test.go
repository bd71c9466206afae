package server

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"

	"contracts/server/tlscert"

	"github.com/labstack/echo/v4"
	"github.com/rs/zerolog"
)

// TestAccessLogFields holds every field of the access line and of the
// panic line, as log pipelines read them: names, values and levels.
func TestAccessLogFields(t *testing.T) {
	s := newTestServer(t, "embedded", false)
	resp, body := s.call(t, "GET", "/ok?x=1", nil, map[string]string{"X-Request-Id": "fields-1"})
	if resp.StatusCode != 200 {
		t.Fatalf("GET /ok: %d", resp.StatusCode)
	}
	s.call(t, "GET", "/boom", nil, map[string]string{"X-Request-Id": "fields-2"})
	s.call(t, "GET", "/panic", nil, map[string]string{"X-Request-Id": "fields-3"})
	lines := s.log.waitEntries(t, "request", 3)
	if len(lines) != 3 {
		t.Fatalf("%d access lines:\n%s", len(lines), s.log.String())
	}
	want := []string{"bytes", "duration", "interface", "ip", "level", "message", "method", "path", "request_id", "route", "status"}
	byID := map[string]map[string]any{}
	for _, l := range lines {
		var keys []string
		for k := range l {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		if strings.Join(keys, ",") != strings.Join(want, ",") {
			t.Fatalf("access line fields %v, want %v", keys, want)
		}
		byID[l["request_id"].(string)] = l
	}
	ok := byID["fields-1"]
	if ok["level"] != "info" || ok["interface"] != "embedded" || ok["method"] != "GET" || ok["path"] != "/ok" ||
		ok["route"] != "/ok" || ok["status"] != 200.0 || ok["bytes"] != float64(len(body)) || ok["ip"] != "127.0.0.1" {
		t.Errorf("line of GET /ok: %v", ok)
	}
	if d, _ := ok["duration"].(float64); d < 0 || d > 10_000 {
		t.Errorf("duration %v, want milliseconds", ok["duration"])
	}
	for _, id := range []string{"fields-2", "fields-3"} {
		if l := byID[id]; l["level"] != "warn" || l["status"] != 500.0 {
			t.Errorf("line of a 500: %v", l)
		}
	}
	panics := s.log.entries(t, "panic")
	if len(panics) != 1 {
		t.Fatalf("%d panic lines:\n%s", len(panics), s.log.String())
	}
	if p := panics[0]; p["level"] != "error" || p["error"] != "handler bug" || p["request_id"] != "fields-3" || p["stack"] != "" {
		t.Errorf("panic line: %v", p)
	}
}

// TestHSTSOnEveryTLSAnswer: a listener built by NewEcho sends
// Strict-Transport-Security over TLS on answers, refusals, unknown routes
// and panics, and never over plain HTTP.
func TestHSTSOnEveryTLSAnswer(t *testing.T) {
	e := NewEcho("embedded", zerolog.New(io.Discard), NewMetrics(), false)
	e.GET("/ok", func(c echo.Context) error { return c.String(http.StatusOK, "ok") })
	e.GET("/panic", func(c echo.Context) error { panic("handler bug") })
	tls := httptest.NewTLSServer(e)
	defer tls.Close()
	plain := httptest.NewServer(e)
	defer plain.Close()
	for _, tc := range []struct {
		client *http.Client
		url    string
		status int
		want   string
	}{
		{tls.Client(), tls.URL + "/ok", 200, tlscert.HSTSValue},
		{tls.Client(), tls.URL + "/missing", 404, tlscert.HSTSValue},
		{tls.Client(), tls.URL + "/panic", 500, tlscert.HSTSValue},
		{plain.Client(), plain.URL + "/ok", 200, ""},
		{plain.Client(), plain.URL + "/missing", 404, ""},
	} {
		res, err := tc.client.Get(tc.url)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if got := res.Header.Values("Strict-Transport-Security"); res.StatusCode != tc.status ||
			tc.want != "" && (len(got) != 1 || got[0] != tc.want) || tc.want == "" && len(got) != 0 {
			t.Errorf("%s: %d, HSTS %q", tc.url, res.StatusCode, got)
		}
	}
}

// TestReadBodyOfDeclaredLength: a body of a declared length is read whole;
// one cut short of its length is refused as unreadable, as a chunked one is.
func TestReadBodyOfDeclaredLength(t *testing.T) {
	s := newTestServer(t, "embedded", false)
	for _, n := range []int{1, 511, 512, 513, 4096, 70_000} {
		resp, data := s.call(t, "POST", "/echo", strings.NewReader(strings.Repeat("x", n)), nil)
		if resp.StatusCode != 200 || string(data) != fmt.Sprintf("{\"bytes\":%d}\n", n) {
			t.Fatalf("%d bytes: %d %s", n, resp.StatusCode, data)
		}
	}
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n%s", strings.Repeat("y", 10))
	conn.(*net.TCPConn).CloseWrite()
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	assertErrorBody(t, resp, data, 400, "could not be read", false)
}
