package tlscert

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"contracts/internal/pebbletest"

	"contracts/internal/testtools"

	"golang.org/x/crypto/acme/autocert"
)

var embedded = Listener{Name: "embedded", Domains: []string{domain}}

// startACME runs ACME for the listeners against the directory at dirURL
// (trusting caFile), its HTTP listener on loopback.
func startACME(t testing.TB, dirURL, caFile string, cache autocert.Cache, ls ...Listener) *ACME {
	t.Helper()
	log, _ := testLog(t)
	a, err := NewACME(ACMEConfig{Email: "admin@example.com", DirectoryURL: dirURL, CAFile: caFile, HTTPListen: "127.0.0.1:0"},
		cache, log, ls...)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Shutdown(context.Background()) })
	return a
}

func dirCache(t testing.TB, dir string) autocert.Cache {
	t.Helper()
	c, err := DirCache(dir)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestACMEIssuesWithTLSALPN01(t *testing.T) {
	p := pebbletest.New(t)
	ln := listen(t)
	cacheDir := filepath.Join(t.TempDir(), "acme")
	a := startACME(t, p.DirURL, p.CAFile, dirCache(t, cacheDir),
		Listener{Name: "embedded", Domains: []string{domain}, BaseURL: "https://" + domain + ":" + strconv.Itoa(testtools.Port(t, ln.Addr().String()))})
	serveTLS(t, ln, a.TLSConfig("embedded"), app())
	// HTTP-01 cannot pass: the CA's HTTP connections are cut.
	cut, _ := cutListener(t)
	p.Start(testtools.Port(t, cut), testtools.Port(t, ln.Addr().String()), 0)

	// A client that trusts Pebble's root only gets the page over a
	// certificate Pebble issued for the name, with HSTS.
	res := get(t, ln.Addr().String(), domain, p.Roots)
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if string(body) != "hello" || res.Header.Get("Strict-Transport-Security") != HSTSValue {
		t.Fatalf("got %q, HSTS %q", body, res.Header.Get("Strict-Transport-Security"))
	}
	leaf := res.TLS.PeerCertificates[0]
	if len(leaf.DNSNames) != 1 || leaf.DNSNames[0] != domain || !strings.HasPrefix(leaf.Issuer.CommonName, "Pebble Intermediate CA") {
		t.Fatalf("certificate for %v from %q", leaf.DNSNames, leaf.Issuer.CommonName)
	}

	// The certificate and the account key are kept in a 0700 directory.
	if fi, err := os.Stat(cacheDir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("cache dir: %v %v", fi.Mode(), err)
	}
	if fi, err := os.Stat(filepath.Join(cacheDir, domain)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("cached certificate: %v", err)
	}

	// Other names get nothing; a handshake without a name gets the first.
	if _, err := handshake(ln.Addr().String(), "other.localhost", nil); err == nil {
		t.Fatal("a handshake for a name not configured succeeded")
	}
	if c, err := handshake(ln.Addr().String(), "", nil); err != nil || c.SerialNumber.Cmp(leaf.SerialNumber) != 0 {
		t.Fatalf("handshake without a name: %v", err)
	}

	// After a restart the certificate comes from the cache: the CA is gone.
	p.Stop()
	ln2 := listen(t)
	a2 := startACME(t, p.DirURL, p.CAFile, dirCache(t, cacheDir), embedded)
	serveTLS(t, ln2, a2.TLSConfig("embedded"), app())
	c, err := handshake(ln2.Addr().String(), domain, p.Roots)
	if err != nil || c.SerialNumber.Cmp(leaf.SerialNumber) != 0 {
		t.Fatalf("after restart: %v", err)
	}
}

func TestACMEIssuesWithHTTP01(t *testing.T) {
	p := pebbletest.New(t)
	ln := listen(t)
	a := startACME(t, p.DirURL, p.CAFile, dirCache(t, t.TempDir()), embedded)
	serveTLS(t, ln, a.TLSConfig("embedded"), app())
	// TLS-ALPN-01 cannot pass: the CA's TLS connections are cut. The
	// certificate can only come through HTTP-01 on acme.httpListen.
	cut, tried := cutListener(t)
	p.Start(testtools.Port(t, a.HTTPAddr()), testtools.Port(t, cut), 0)

	leaf, err := handshake(ln.Addr().String(), domain, p.Roots)
	if err != nil {
		t.Fatal(err)
	}
	if leaf.DNSNames[0] != domain || tried.Load() == 0 {
		t.Fatalf("certificate for %v; TLS-ALPN-01 tried %d times", leaf.DNSNames, tried.Load())
	}
}

func TestACMERenewsNearExpiry(t *testing.T) {
	p := pebbletest.New(t)
	ln := listen(t)
	// The cache holds a certificate that ends in an hour, out of 60 days.
	now := time.Now()
	certPEM, keyPEM, old := testtools.SelfSignedCert(t, domain, now.Add(-60*24*time.Hour), now.Add(time.Hour))
	dir := dirCache(t, t.TempDir())
	if err := dir.Put(context.Background(), domain, append(keyPEM, certPEM...)); err != nil {
		t.Fatal(err)
	}
	stored := make(chan struct{}, 1)
	a := startACME(t, p.DirURL, p.CAFile, notifyCache{Cache: dir, key: domain, put: stored}, embedded)
	serveTLS(t, ln, a.TLSConfig("embedded"), app())
	p.Start(testtools.Port(t, a.HTTPAddr()), testtools.Port(t, ln.Addr().String()), 0)

	// It is served, and its renewal starts at once.
	c, err := handshake(ln.Addr().String(), domain, nil)
	if err != nil || c.SerialNumber.Cmp(old.SerialNumber) != 0 {
		t.Fatalf("first handshake: %v", err)
	}
	select {
	case <-stored:
	case <-time.After(time.Minute):
		t.Fatal("no renewed certificate stored")
	}
	// autocert swaps the served certificate just after storing it.
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err = handshake(ln.Addr().String(), domain, p.Roots)
		if err == nil || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("renewed certificate: %v", err)
	}
	if c.NotAfter.Before(now.Add(80 * 24 * time.Hour)) {
		t.Fatalf("renewed certificate ends %v", c.NotAfter)
	}
}

func TestACMEAnswersTLSALPN01ForAnotherListener(t *testing.T) {
	p := pebbletest.New(t)
	on443, other := listen(t), listen(t)
	api := "api." + domain
	a := startACME(t, p.DirURL, p.CAFile, dirCache(t, t.TempDir()), embedded, Listener{Name: "key", Domains: []string{api}})
	serveTLS(t, on443, a.TLSConfig("embedded"), app())
	serveTLS(t, other, a.TLSConfig("key"), app())
	// The CA checks every name on one port (443), where the embedded
	// listener is; HTTP-01 is cut.
	cut, _ := cutListener(t)
	p.Start(testtools.Port(t, cut), testtools.Port(t, on443.Addr().String()), 0)

	leaf, err := handshake(other.Addr().String(), api, p.Roots)
	if err != nil || leaf.DNSNames[0] != api {
		t.Fatalf("key listener: %v", err)
	}
	// The embedded listener answered the challenge but serves api's
	// certificate to no one.
	if _, err := handshake(on443.Addr().String(), api, nil); err == nil {
		t.Fatal("embedded listener served the key listener's name")
	}
}

// cutListener closes every connection at once, counting them.
func cutListener(t testing.TB) (string, *atomic.Int32) {
	ln := listen(t)
	var n atomic.Int32
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			n.Add(1)
			conn.Close()
		}
	}()
	return ln.Addr().String(), &n
}

// notifyCache says when key is stored.
type notifyCache struct {
	autocert.Cache
	key string
	put chan struct{}
}

func (c notifyCache) Put(ctx context.Context, key string, data []byte) error {
	err := c.Cache.Put(ctx, key, data)
	if key == c.key {
		select {
		case c.put <- struct{}{}:
		default:
		}
	}
	return err
}

func TestACMEHTTPListenBusy(t *testing.T) {
	busy := listen(t)
	log, _ := testLog(t)
	a, err := NewACME(ACMEConfig{HTTPListen: busy.Addr().String()}, dirCache(t, t.TempDir()), log,
		Listener{Name: "embedded", Domains: []string{domain}})
	if err != nil {
		t.Fatal(err)
	}
	err = a.Start()
	if err == nil || !strings.Contains(err.Error(), "acme.httpListen") || !strings.Contains(err.Error(), busy.Addr().String()) {
		t.Fatalf("got %v", err)
	}
	if err := a.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func TestNewACMERefusesBadConfig(t *testing.T) {
	log, _ := testLog(t)
	_, err := NewACME(ACMEConfig{}, dirCache(t, t.TempDir()), log, Listener{Name: "key", Domains: []string{"localhost"}})
	if err == nil || !strings.HasPrefix(err.Error(), "key.tls.acme.domains: ") {
		t.Fatalf("got %v", err)
	}
	if _, err := NewACME(ACMEConfig{}, nil, log, Listener{Name: "key", Domains: []string{domain}}); err == nil {
		t.Fatal("no cache accepted")
	}
}

func TestTLSConfigOnlyForACMEListeners(t *testing.T) {
	log, _ := testLog(t)
	a, err := NewACME(ACMEConfig{}, dirCache(t, t.TempDir()), log,
		Listener{Name: "embedded", Domains: []string{domain}}, Listener{Name: "key"})
	if err != nil {
		t.Fatal(err)
	}
	if a.TLSConfig("embedded") == nil || a.TLSConfig("key") != nil {
		t.Fatal("TLSConfig per listener is wrong")
	}
}
