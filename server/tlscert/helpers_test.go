package tlscert

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"sync"
	"testing"
	"time"

	"contracts/internal/testtools"

	"github.com/labstack/echo/v4"
	"github.com/rs/zerolog"
)

// domain is the name certificates are for in tests: dotted, as ACME
// wants, and resolved to 127.0.0.1 by the tests' DNS server.
const domain = "contracts.localhost"

// testNow is when certificates made by tests begin.
var testNow = time.Now().Add(-time.Hour)

// clock is a clock the test moves.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// testLog is a logger whose output the test can read, printed on failure.
func testLog(t testing.TB) (zerolog.Logger, *testtools.Buffer) {
	buf := &testtools.Buffer{}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("log:\n%s", buf.String())
		}
	})
	return zerolog.New(buf), buf
}

func listen(t testing.TB) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return ln
}

func writeFile(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// app is a listener's echo server as the appliance builds it: HSTS first.
func app() *echo.Echo {
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.Use(HSTS)
	e.GET("/", func(c echo.Context) error { return c.String(http.StatusOK, "hello") })
	return e
}

// serveTLS serves h over TLS on ln, as a listener of the appliance would.
func serveTLS(t testing.TB, ln net.Listener, cfg *tls.Config, h http.Handler) {
	t.Helper()
	srv := &http.Server{Handler: h, TLSConfig: cfg, ReadHeaderTimeout: 10 * time.Second, ErrorLog: log.New(io.Discard, "", 0)}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.ServeTLS(ln, "", ""); err != nil && !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("serve: %v", err)
		}
	}()
	t.Cleanup(func() {
		srv.Close()
		<-done
	})
}

// handshake connects to addr asking for name and returns the certificate
// served. With roots, the chain and the name are verified; without, the
// certificate is taken as it is.
func handshake(addr, name string, roots *x509.CertPool) (*x509.Certificate, error) {
	cfg := &tls.Config{ServerName: name, RootCAs: roots, InsecureSkipVerify: roots == nil}
	conn, err := tls.DialWithDialer(&net.Dialer{Timeout: 10 * time.Second}, "tcp", addr, cfg)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	return conn.ConnectionState().PeerCertificates[0], nil
}

// get fetches https://<name>/ from the listener at addr, trusting roots.
func get(t testing.TB, addr, name string, roots *x509.CertPool) *http.Response {
	t.Helper()
	tr := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots},
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, network, addr)
		}}
	defer tr.CloseIdleConnections()
	res, err := (&http.Client{Transport: tr, Timeout: time.Minute}).Get("https://" + name + "/")
	if err != nil {
		t.Fatal(err)
	}
	return res
}
