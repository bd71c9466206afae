package admin_test

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"contracts/internal/fixture"
	"contracts/server"
	"contracts/server/admin"
	"contracts/signflow"

	"github.com/rs/zerolog"
)

// hostServer is the admin routes behind HostCheck, as the appliance mounts
// them, configured to listen on admin.internal:8082 and to accept
// console.lan and 10.9.8.7 as well.
func hostServer(t *testing.T) http.Handler {
	t.Helper()
	w := fixture.New(t, signflow.Options{})
	m := server.NewMetrics()
	e := server.NewEcho("admin", zerolog.New(io.Discard), m, true)
	e.Use(admin.HostCheck("admin.internal:8082", []string{"Console.LAN", "10.9.8.7"}))
	admin.Register(e, admin.Deps{Service: w.Service, DB: w.DB, Token: adminToken, Metrics: m})
	return e
}

// getWithHost sends GET path to base with the Host header set to host.
func getWithHost(t *testing.T, base, path, host string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest("GET", base+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Host = host
	req.Header.Set("Authorization", "Bearer "+adminToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, data
}

// A page whose name an attacker points at 127.0.0.1 (DNS rebinding) sends
// its own name as Host: the admin listener answers 421 to it on every
// route, and to loopback names, its own names and addresses as before.
func TestAdminHostCheck(t *testing.T) {
	srv := httptest.NewServer(hostServer(t))
	t.Cleanup(srv.Close)
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(srv.URL, "http://"))

	allowed := []string{"127.0.0.1:" + port, "127.0.0.1", "127.8.9.10:" + port, "localhost:" + port, "LOCALHOST.",
		"console.localhost:" + port, "[::1]:" + port, "[::1]", "[::ffff:127.0.0.1]:" + port,
		"console.lan", "CONSOLE.LAN:8082", "10.9.8.7:" + port, "admin.internal:8082", "admin.internal"}
	for _, host := range allowed {
		for _, path := range []string{"/metrics", "/readyz", "/admin/v1/deliveries"} {
			if status, body := getWithHost(t, srv.URL, path, host); status != 200 {
				t.Errorf("Host %q %s: %d, want 200: %.200s", host, path, status, body)
			}
		}
	}

	refused := []string{"evil.example", "evil.example:" + port, "127.0.0.1.evil.example", "localhost.evil.example:" + port,
		"xlocalhost", "console.lan.evil.example", "0.0.0.0:" + port, "[::]:" + port, "10.0.0.1", "169.254.169.254",
		"admin.internal.evil.example"}
	for _, host := range refused {
		for _, path := range []string{"/metrics", "/healthz", "/readyz", "/admin/v1/deliveries", "/no/such/route"} {
			status, body := getWithHost(t, srv.URL, path, host)
			var e server.ErrorBody
			if status != 421 || json.Unmarshal(body, &e) != nil || e.Code != 421 || e.Status != "421 Misdirected Request" ||
				!strings.Contains(e.Message, "admin.allowedHosts") || strings.Contains(string(body), "go_goroutines") {
				t.Errorf("Host %q %s: %d %s, want 421 in the error body", host, path, status, body)
			}
		}
	}
}

// With a listen address such as :8082 the listener's own address is the
// one each connection arrives on: a caller on the LAN may use it, and not
// another address.
func TestAdminHostCheckOwnAddress(t *testing.T) {
	ip := nonLoopbackIP(t)
	ln, err := net.Listen("tcp", ":0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: hostServer(t)}}
	srv.Start()
	t.Cleanup(srv.Close)
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	own := "http://" + net.JoinHostPort(ip, port)

	for _, host := range []string{net.JoinHostPort(ip, port), ip} {
		if status, body := getWithHost(t, own, "/metrics", host); status != 200 {
			t.Errorf("Host %q over %s: %d, want 200: %.200s", host, ip, status, body)
		}
	}
	// The same connection naming another address, and loopback naming this one.
	if status, _ := getWithHost(t, own, "/metrics", "192.0.2.1:"+port); status != 421 {
		t.Errorf("Host of another address over %s: %d, want 421", ip, status)
	}
	if status, _ := getWithHost(t, "http://127.0.0.1:"+port, "/metrics", net.JoinHostPort(ip, port)); status != 421 {
		t.Errorf("Host %s over loopback: %d, want 421", ip, status)
	}
}

// nonLoopbackIP is an address of this machine that is not loopback.
func nonLoopbackIP(t *testing.T) string {
	t.Helper()
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() && !n.IP.IsLinkLocalUnicast() && n.IP.To4() != nil {
			return n.IP.String()
		}
	}
	t.Skip("this machine has no IPv4 address besides loopback")
	return ""
}
