package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/labstack/echo/v4"
	"github.com/rs/zerolog"
)

// The client address every listener sees: X-Forwarded-For counts only when
// the TCP peer is a trusted proxy, and then names the nearest address that
// is not itself one. echo's own defaults (trusting loopback and private
// peers, or, with no extractor, any caller's header) are never in force.
func TestClientAddress(t *testing.T) {
	proxies, err := ParseTrustedProxies([]string{"10.0.0.0/8", "2001:db8::1"})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		trusted bool
		peer    string
		xff     []string
		want    string
	}{
		{"no proxies: the header is not believed", false, "198.51.100.7:1234", []string{"203.0.113.5"}, "198.51.100.7"},
		{"no proxies, loopback peer", false, "127.0.0.1:1234", []string{"203.0.113.5"}, "127.0.0.1"},
		{"no proxies, private peer", false, "192.168.1.2:1234", []string{"203.0.113.5"}, "192.168.1.2"},
		{"a trusted proxy names the client", true, "10.1.2.3:1234", []string{"203.0.113.5"}, "203.0.113.5"},
		{"an IPv6 proxy of one address", true, "[2001:db8::1]:443", []string{"203.0.113.6"}, "203.0.113.6"},
		{"a proxy chain: the nearest untrusted address", true, "10.0.0.1:1234", []string{"203.0.113.5, 10.0.0.2"}, "203.0.113.5"},
		{"a spoofed first entry is passed over", true, "10.0.0.1:1234", []string{"6.6.6.6, 203.0.113.5"}, "203.0.113.5"},
		{"headers split over lines", true, "10.0.0.1:1234", []string{"6.6.6.6", "203.0.113.9"}, "203.0.113.9"},
		{"an untrusted peer's header is ignored", true, "198.51.100.7:1234", []string{"203.0.113.5"}, "198.51.100.7"},
		{"a loopback peer is not trusted unless listed", true, "127.0.0.1:1234", []string{"203.0.113.5"}, "127.0.0.1"},
		{"a private peer is not trusted unless listed", true, "192.168.1.2:1234", []string{"203.0.113.5"}, "192.168.1.2"},
		{"a trusted proxy without the header", true, "10.0.0.1:1234", nil, "10.0.0.1"},
		{"garbage in the header: the peer", true, "10.0.0.1:1234", []string{"not-an-ip"}, "10.0.0.1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var list []string
			if tc.trusted {
				list = []string{"10.0.0.0/8", "2001:db8::1"}
			}
			nets, _ := ParseTrustedProxies(list)
			if tc.trusted && len(nets) != len(proxies) {
				t.Fatalf("parsed %v", nets)
			}
			e := NewEcho("embedded", zerolog.Nop(), nil, false)
			e.IPExtractor = IPExtractor(nets)
			if got := realIP(e, tc.peer, tc.xff); got != tc.want {
				t.Fatalf("client %q, want %q", got, tc.want)
			}
		})
	}
}

// NewEcho reads the TCP peer by itself: a listener somebody forgets to
// configure still does not believe a caller's X-Forwarded-For.
func TestNewEchoIgnoresForwardedForByDefault(t *testing.T) {
	e := NewEcho("admin", zerolog.Nop(), nil, true)
	if got := realIP(e, "127.0.0.1:5555", []string{"203.0.113.5"}); got != "127.0.0.1" {
		t.Fatalf("client %q, want the peer 127.0.0.1", got)
	}
}

// The access log names the client address the extractor gives.
func TestAccessLogClientAddress(t *testing.T) {
	var buf logBuffer
	e := NewEcho("key", zerolog.New(&buf), NewMetrics(), true)
	nets, _ := ParseTrustedProxies([]string{"10.0.0.0/8"})
	e.IPExtractor = IPExtractor(nets)
	e.GET("/x", func(c echo.Context) error { return c.NoContent(http.StatusNoContent) })
	serve(e, "/x", "10.0.0.1:1234", []string{"203.0.113.5"})
	serve(e, "/x", "198.51.100.7:1234", []string{"203.0.113.6"})
	var ips []string
	for _, line := range bytes.Split(bytes.TrimSpace([]byte(buf.String())), []byte("\n")) {
		var m struct{ IP string }
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		ips = append(ips, m.IP)
	}
	if len(ips) != 2 || ips[0] != "203.0.113.5" || ips[1] != "198.51.100.7" {
		t.Fatalf("logged addresses %v", ips)
	}
}

// realIP serves one request from peer with the X-Forwarded-For lines and
// returns the client address its handler saw.
func realIP(e *echo.Echo, peer string, xff []string) string {
	var got string
	e.GET("/ip", func(c echo.Context) error { got = c.RealIP(); return c.NoContent(http.StatusNoContent) })
	serve(e, "/ip", peer, xff)
	return got
}

func serve(e *echo.Echo, path, peer string, xff []string) {
	req := httptest.NewRequest("GET", path, nil)
	req.RemoteAddr = peer
	for _, v := range xff {
		req.Header.Add("X-Forwarded-For", v)
	}
	e.ServeHTTP(httptest.NewRecorder(), req)
}
