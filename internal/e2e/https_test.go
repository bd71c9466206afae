package e2e

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"contracts/internal/pebbletest"
	"contracts/internal/testtools"
	"contracts/server/tlscert"
)

// acmeDomain is the name certificates are for: dotted, as ACME wants, and
// resolved to 127.0.0.1 by the Pebble harness's DNS server.
const acmeDomain = "contracts.localhost"

// TestServeACME: with embedded.tls.acme.domains the appliance gets its
// certificate from a real ACME CA (Pebble) by itself, serves it with HSTS
// on every answer and under an https base URL, redirects plain HTTP on
// acme.httpListen, keeps the certificate in <data.dir>/acme, and a backup
// keeps it too: restored on a new data directory, it is served again with
// the CA gone.
func TestServeACME(t *testing.T) {
	p := pebbletest.New(t)
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	env := []string{"CONTRACTS_EMBEDDED__TLS__ACME__DOMAINS=" + acmeDomain, "CONTRACTS_ACME__EMAIL=ops@example.com",
		"CONTRACTS_ACME__DIRECTORYURL=" + p.DirURL, "CONTRACTS_ACME__CAFILE=" + p.CAFile, "CONTRACTS_ACME__HTTPLISTEN=127.0.0.1:0"}
	in := startInstance(t, dir, data, env...)
	embedded, plain := strings.TrimPrefix(in.embedded, "http://"), acmeHTTPAddr(t, in.proc)
	p.Start(testtools.Port(t, plain), testtools.Port(t, embedded), 0)

	// A client that trusts Pebble's root only gets the page over a
	// certificate Pebble issued for the name, with HSTS, refusals included.
	client := clientTo(embedded, p.Roots)
	res, body := get(t, client, "https://"+acmeDomain+"/sdk.js")
	if res.StatusCode != 200 || res.Header.Get("Strict-Transport-Security") != tlscert.HSTSValue {
		t.Fatalf("/sdk.js over ACME: %d, HSTS %q", res.StatusCode, res.Header.Get("Strict-Transport-Security"))
	}
	leaf := res.TLS.PeerCertificates[0]
	if len(leaf.DNSNames) != 1 || leaf.DNSNames[0] != acmeDomain || !strings.HasPrefix(leaf.Issuer.CommonName, "Pebble Intermediate CA") {
		t.Fatalf("certificate for %v from %q", leaf.DNSNames, leaf.Issuer.CommonName)
	}
	if res, _ := get(t, client, "https://"+acmeDomain+"/no/such/route"); res.StatusCode != 404 ||
		res.Header.Get("Strict-Transport-Security") != tlscert.HSTSValue {
		t.Fatalf("a 404 over TLS: %d, HSTS %q", res.StatusCode, res.Header.Get("Strict-Transport-Security"))
	}
	// The base URL is https://<domain> (listen's port is 0: none); the key
	// listener, without TLS, keeps its own and sends no HSTS.
	if _, body = get(t, client, "https://"+acmeDomain+"/api-docs"); serverURL(t, body) != "https://"+acmeDomain {
		t.Fatalf("embedded servers: %s", serverURL(t, body))
	}
	res, body = get(t, http.DefaultClient, in.key+"/api-docs")
	if serverURL(t, body) != "http://localhost:8081" || res.Header.Get("Strict-Transport-Security") != "" {
		t.Fatalf("key listener: servers %s, HSTS %q", serverURL(t, body), res.Header.Get("Strict-Transport-Security"))
	}

	// acme.httpListen redirects GET to https, refuses a POST in clear, and
	// answers nothing for names not configured.
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, c := range []struct{ method, host, want, location string }{
		{"GET", acmeDomain, "308", "https://" + acmeDomain + "/sign/abc?lang=en"},
		{"POST", acmeDomain, "400", ""},
		{"GET", "other.localhost", "421", ""},
	} {
		req, _ := http.NewRequest(c.method, "http://"+plain+"/sign/abc?lang=en", nil)
		req.Host = c.host
		res, err := noRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if strconv.Itoa(res.StatusCode) != c.want || res.Header.Get("Location") != c.location {
			t.Fatalf("%s http://%s/sign/abc: %d %q", c.method, c.host, res.StatusCode, res.Header.Get("Location"))
		}
	}

	// The account and the certificate are kept in a 0700 directory.
	if fi, err := os.Stat(filepath.Join(data, "acme")); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("data/acme: %v", err)
	}
	if _, err := os.Stat(filepath.Join(data, "acme", acmeDomain)); err != nil {
		t.Fatalf("the certificate is not cached: %v", err)
	}

	// A backup keeps it beside the snapshot.
	backup := filepath.Join(dir, "backup.db")
	if out := mustRun(t, dir, "backup", "--out", backup, "--url", in.admin, "--data-dir", data); !strings.Contains(out,
		"backup: copied master.key, admin.token, seal.crt, seal.key, acme from "+data+" to "+backup+".files") {
		t.Fatalf("backup printed:\n%s", out)
	}
	in.stop(t)
	p.Stop()

	// Restored on a new host, the appliance serves the certificate it had,
	// without a CA to ask.
	fresh := filepath.Join(dir, "fresh")
	out := mustRun(t, dir, "restore", "--from", backup, "--data-dir", fresh)
	if !strings.Contains(out, "put master.key back into "+fresh) || !strings.Contains(out, "files back into "+filepath.Join(fresh, "acme")) {
		t.Fatalf("restore printed:\n%s", out)
	}
	in = startInstance(t, dir, fresh, env...)
	res, _ = get(t, clientTo(strings.TrimPrefix(in.embedded, "http://"), p.Roots), "https://"+acmeDomain+"/sdk.js")
	if res.StatusCode != 200 || res.TLS.PeerCertificates[0].SerialNumber.Cmp(leaf.SerialNumber) != 0 {
		t.Fatalf("after the restore: %d, serial %v, want %v", res.StatusCode, res.TLS.PeerCertificates[0].SerialNumber, leaf.SerialNumber)
	}
	in.stop(t)
}

// TestServeACMEPortTaken: a busy acme.httpListen stops the start, naming
// the key and the address, and releases the database.
func TestServeACMEPortTaken(t *testing.T) {
	busy := busyPort(t)
	dir := t.TempDir()
	_, errOut, code := runCommand(t, dir, []string{"CONTRACTS_EMBEDDED__TLS__ACME__DOMAINS=" + acmeDomain, "CONTRACTS_ACME__HTTPLISTEN=" + busy},
		"serve", "--embedded-listen", "127.0.0.1:0", "--key-listen", "127.0.0.1:0", "--admin-listen", "127.0.0.1:0")
	if code == 0 || !strings.Contains(errOut, "acme.httpListen: cannot listen on "+busy) {
		t.Fatalf("start with a busy acme.httpListen: exit %d\n%s", code, errOut)
	}
	assertReleased(t, filepath.Join(dir, "data", "contracts.db"))
}

// TestServeCertificateFiles: a listener with tls.certFile and keyFile
// serves that certificate, with HSTS.
func TestServeCertificateFiles(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile, want := writeCertificate(t, dir, "sign.example.com")
	in := startInstance(t, dir, filepath.Join(dir, "data"), "CONTRACTS_KEY__TLS__CERTFILE="+certFile, "CONTRACTS_KEY__TLS__KEYFILE="+keyFile)
	roots := x509.NewCertPool()
	roots.AddCert(want)
	res, _ := get(t, clientTo(strings.TrimPrefix(in.key, "http://"), roots), "https://sign.example.com/api-docs")
	if res.StatusCode != 200 || res.Header.Get("Strict-Transport-Security") != tlscert.HSTSValue ||
		!res.TLS.PeerCertificates[0].Equal(want) {
		t.Fatalf("key listener with certificate files: %d, HSTS %q", res.StatusCode, res.Header.Get("Strict-Transport-Security"))
	}
	if lines := logLines(in.stderr.String(), "listening"); len(lines) != 3 {
		t.Fatalf("listening lines: %v", lines)
	} else {
		for _, l := range lines {
			if l["tls"] != (l["listener"] == "key") {
				t.Fatalf("listening line %v", l)
			}
		}
	}
	in.stop(t)
}

// acmeHTTPAddr waits for the log line of the ACME HTTP listener and
// returns its address.
func acmeHTTPAddr(t *testing.T, p *proc) string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if lines := logLines(p.stderr.String(), "listening for HTTP-01 challenges"); len(lines) == 1 {
			addr, _ := lines[0]["addr"].(string)
			return addr
		}
		if time.Now().After(deadline) {
			t.Fatalf("no ACME HTTP listener:\n%s", p.stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// clientTo is an HTTPS client that connects to addr whatever the URL's
// host, trusting roots only.
func clientTo(addr string, roots *x509.CertPool) *http.Client {
	return &http.Client{Timeout: time.Minute, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots},
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, network, addr)
		}}}
}

// get fetches url and returns the answer with its body read.
func get(t *testing.T, c *http.Client, url string) (*http.Response, string) {
	t.Helper()
	res, err := c.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, string(data)
}

// serverURL is the first server of an OpenAPI document.
func serverURL(t *testing.T, doc string) string {
	t.Helper()
	var d struct{ Servers []struct{ URL string } }
	if err := json.Unmarshal([]byte(doc), &d); err != nil || len(d.Servers) == 0 {
		t.Fatalf("not an OpenAPI document with servers (%v): %.200s", err, doc)
	}
	return d.Servers[0].URL
}

// writeCertificate writes a self-signed certificate for name and its key
// as PEM files in dir.
func writeCertificate(t *testing.T, dir, name string) (certFile, keyFile string, cert *x509.Certificate) {
	t.Helper()
	certPEM, keyPEM, cert := testtools.SelfSignedCert(t, name, time.Now().Add(-time.Hour), time.Now().Add(24*time.Hour))
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	for path, data := range map[string][]byte{certFile: certPEM, keyFile: keyPEM} {
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return certFile, keyFile, cert
}
