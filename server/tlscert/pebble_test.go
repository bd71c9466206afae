package tlscert

import (
	"crypto/x509"
	"encoding/pem"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"contracts/internal/testtools"

	"github.com/letsencrypt/pebble/v2/ca"
	"github.com/letsencrypt/pebble/v2/db"
	"github.com/letsencrypt/pebble/v2/va"
	"github.com/letsencrypt/pebble/v2/wfe"
	"github.com/miekg/dns"
)

func TestMain(m *testing.M) {
	// Pebble reads these when it starts: validate at once instead of after
	// a random pause, never reject a good nonce (autocert would back off
	// for seconds), and always validate afresh.
	os.Setenv("PEBBLE_VA_NOSLEEP", "1")
	os.Setenv("PEBBLE_WFE_NONCEREJECT", "0")
	os.Setenv("PEBBLE_AUTHZREUSE", "0")
	os.Exit(m.Run())
}

// pebble is a real ACME server, Let's Encrypt's Pebble, run in-process on
// loopback: its directory over TLS with a certificate of its own CA (the
// caFile), and its validation authority resolving every name to 127.0.0.1
// through a DNS server of the test's.
type pebble struct {
	t       testing.TB
	dirURL  string
	caFile  string
	dnsAddr string
	srv     *httptest.Server
	handler atomic.Pointer[http.Handler]
	log     *testtools.Buffer
	roots   *x509.CertPool // the root that signs issued certificates; set by start
}

// newPebble serves the directory address at once; start gives it its CA
// and validation ports, which the listeners under test know only later.
func newPebble(t testing.TB) *pebble {
	t.Helper()
	p := &pebble{t: t, log: &testtools.Buffer{}}
	p.dnsAddr = serveDNS(t)
	p.srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if h := p.handler.Load(); h != nil {
			(*h).ServeHTTP(w, r)
			return
		}
		http.Error(w, "pebble not started", http.StatusServiceUnavailable)
	}))
	p.srv.StartTLS()
	t.Cleanup(p.srv.Close)
	p.dirURL = p.srv.URL + "/dir"
	p.caFile = filepath.Join(t.TempDir(), "pebble-ca.pem")
	writeFile(t, p.caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: p.srv.Certificate().Raw}))
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("pebble log:\n%s", p.log.String())
		}
	})
	return p
}

// start runs Pebble's CA, validation authority and front end, validating
// HTTP-01 on httpPort and TLS-ALPN-01 on tlsPort; validity is the lifetime
// of issued certificates in seconds (0: Pebble's default, 90 days).
func (p *pebble) start(httpPort, tlsPort int, validity uint64) {
	logger := log.New(p.log, "pebble ", log.Lmicroseconds)
	store := db.NewMemoryStore()
	authority := ca.New(logger, store, "", "ecdsa", 0, 1, map[string]ca.Profile{"default": {ValidityPeriod: validity}})
	validator := va.New(logger, httpPort, tlsPort, false, p.dnsAddr, store)
	front := wfe.New(logger, store, validator, authority, []string{"pebble.letsencrypt.org"}, false, false, 0, 0)
	h := front.Handler()
	p.roots = x509.NewCertPool()
	p.roots.AddCert(authority.GetRootCert(0).Cert)
	p.handler.Store(&h)
}

// serveDNS answers every A question with 127.0.0.1 and nothing else, over
// TCP as Pebble asks.
func serveDNS(t testing.TB) string {
	t.Helper()
	ln := listen(t)
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
	t.Cleanup(func() { srv.Shutdown() })
	return ln.Addr().String()
}
