// Package pebbletest runs Pebble, Let's Encrypt's test ACME server, inside
// a test's process on loopback: a real ACME CA for the tests of automatic
// HTTPS (server/tlscert, internal/e2e).
package pebbletest

import (
	"crypto/x509"
	"encoding/pem"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"contracts/internal/testtools"

	"github.com/letsencrypt/pebble/v2/ca"
	"github.com/letsencrypt/pebble/v2/db"
	"github.com/letsencrypt/pebble/v2/va"
	"github.com/letsencrypt/pebble/v2/wfe"
	"github.com/miekg/dns"
)

// Pebble is the ACME server: its directory over TLS with a certificate of
// its own CA (CAFile), and its validation authority resolving every name
// to 127.0.0.1 through a DNS server of the test's.
type Pebble struct {
	DirURL string         // the ACME directory: acme.directoryURL
	CAFile string         // PEM of the CA of the directory's certificate: acme.caFile
	Roots  *x509.CertPool // the root that signs issued certificates; set by Start

	dnsAddr string
	srv     *httptest.Server
	handler atomic.Pointer[http.Handler]
	log     *testtools.Buffer
}

var setEnv sync.Once

// New serves the directory address at once; Start gives it its CA and
// validation ports, which the listeners under test know only later. The
// test's log shows Pebble's when it fails.
func New(tb testing.TB) *Pebble {
	tb.Helper()
	// Pebble reads these when it starts: validate at once instead of after
	// a random pause, never reject a good nonce (autocert would back off
	// for seconds), and always validate afresh.
	setEnv.Do(func() {
		os.Setenv("PEBBLE_VA_NOSLEEP", "1")
		os.Setenv("PEBBLE_WFE_NONCEREJECT", "0")
		os.Setenv("PEBBLE_AUTHZREUSE", "0")
	})
	p := &Pebble{log: &testtools.Buffer{}}
	p.dnsAddr = serveDNS(tb)
	p.srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if h := p.handler.Load(); h != nil {
			(*h).ServeHTTP(w, r)
			return
		}
		http.Error(w, "pebble not started", http.StatusServiceUnavailable)
	}))
	p.srv.StartTLS()
	tb.Cleanup(p.srv.Close)
	p.DirURL = p.srv.URL + "/dir"
	p.CAFile = filepath.Join(tb.TempDir(), "pebble-ca.pem")
	if err := os.WriteFile(p.CAFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: p.srv.Certificate().Raw}), 0o600); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if tb.Failed() {
			tb.Logf("pebble log:\n%s", p.log.String())
		}
	})
	return p
}

// Start runs Pebble's CA, validation authority and front end, validating
// HTTP-01 on httpPort and TLS-ALPN-01 on tlsPort; validity is the lifetime
// of issued certificates in seconds (0: Pebble's default, 90 days).
func (p *Pebble) Start(httpPort, tlsPort int, validity uint64) {
	logger := log.New(p.log, "pebble ", log.Lmicroseconds)
	store := db.NewMemoryStore()
	authority := ca.New(logger, store, "", "ecdsa", 0, 1, map[string]ca.Profile{"default": {ValidityPeriod: validity}})
	validator := va.New(logger, httpPort, tlsPort, false, p.dnsAddr, store)
	front := wfe.New(logger, store, validator, authority, []string{"pebble.letsencrypt.org"}, false, false, 0, 0)
	h := front.Handler()
	p.Roots = x509.NewCertPool()
	p.Roots.AddCert(authority.GetRootCert(0).Cert)
	p.handler.Store(&h)
}

// Stop closes the directory: a certificate served after it came from a
// cache, not from a new order.
func (p *Pebble) Stop() { p.srv.Close() }

// serveDNS answers every A question with 127.0.0.1 and nothing else, over
// TCP as Pebble asks.
func serveDNS(tb testing.TB) string {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	srv := &dns.Server{Listener: ln, Handler: dns.HandlerFunc(func(w dns.ResponseWriter, r *dns.Msg) {
		m := new(dns.Msg)
		m.SetReply(r)
		for _, q := range r.Question {
			if q.Qtype == dns.TypeA {
				m.Answer = append(m.Answer, &dns.A{A: net.IPv4(127, 0, 0, 1),
					Hdr: dns.RR_Header{Name: q.Name, Rrtype: dns.TypeA, Class: dns.ClassINET, Ttl: 60}})
			}
		}
		w.WriteMsg(m)
	})}
	go srv.ActivateAndServe()
	tb.Cleanup(func() { srv.Shutdown() })
	return ln.Addr().String()
}
