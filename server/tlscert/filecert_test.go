package tlscert

import (
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"contracts/internal/testtools"
)

// certFiles writes a new certificate for domain and its key to the two
// files, each replaced at once (written aside, then renamed), as
// certificate tools do; it returns the certificate's serial.
func certFiles(t testing.TB, certFile, keyFile string) *big.Int {
	t.Helper()
	certPEM, keyPEM, leaf := testtools.SelfSignedCert(t, domain, testNow, testNow.AddDate(0, 3, 0))
	replaceFile(t, certFile, certPEM)
	replaceFile(t, keyFile, keyPEM)
	return leaf.SerialNumber
}

func replaceFile(t testing.TB, path string, data []byte) {
	t.Helper()
	writeFile(t, path+".new", data)
	if err := os.Rename(path+".new", path); err != nil {
		t.Fatal(err)
	}
}

// serveFileCert serves a FileCert on a loopback listener with a clock the
// test moves, and returns a function reporting the serial served.
func serveFileCert(t *testing.T, certFile, keyFile string) (*clock, func() *big.Int, *testtools.Buffer) {
	t.Helper()
	clk := &clock{t: time.Now()}
	log, buf := testLog(t)
	f, err := NewFileCert(certFile, keyFile, log, clk.Now)
	if err != nil {
		t.Fatal(err)
	}
	ln := listen(t)
	serveTLS(t, ln, f.TLSConfig(), app())
	return clk, func() *big.Int {
		t.Helper()
		c, err := handshake(ln.Addr().String(), domain, nil)
		if err != nil {
			t.Fatal(err)
		}
		return c.SerialNumber
	}, buf
}

func TestFileCertRotation(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	first := certFiles(t, certFile, keyFile)
	clk, served, log := serveFileCert(t, certFile, keyFile)
	if served().Cmp(first) != 0 {
		t.Fatal("first certificate not served")
	}

	second := certFiles(t, certFile, keyFile)
	// The files are looked at no more than every CheckEvery.
	clk.Add(CheckEvery - time.Millisecond)
	if served().Cmp(first) != 0 {
		t.Fatal("files looked at too soon")
	}
	clk.Add(time.Millisecond)
	if served().Cmp(second) != 0 {
		t.Fatal("new certificate not served")
	}
	if !strings.Contains(log.String(), "certificate reloaded") {
		t.Fatalf("log: %s", log)
	}

	// Written in place, not renamed, a minute later (the test's writes are
	// closer together than the file system's clock can tell apart).
	certPEM, keyPEM, leaf := testtools.SelfSignedCert(t, domain, testNow, testNow.AddDate(0, 3, 0))
	writeFile(t, keyFile, keyPEM)
	writeFile(t, certFile, certPEM)
	later := time.Now().Add(time.Minute)
	for _, f := range []string{certFile, keyFile} {
		if err := os.Chtimes(f, later, later); err != nil {
			t.Fatal(err)
		}
	}
	clk.Add(CheckEvery)
	if served().Cmp(leaf.SerialNumber) != 0 {
		t.Fatal("certificate written in place not served")
	}
}

func TestFileCertKeepsOldWhenBroken(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	first := certFiles(t, certFile, keyFile)
	clk, served, log := serveFileCert(t, certFile, keyFile)
	failures := func() int { return strings.Count(log.String(), "keeping the old one") }

	// A half-written certificate: the old one stays, and it is said once.
	writeFile(t, certFile, []byte("-----BEGIN CERTIFICATE-----\nMIIB"))
	for range 3 {
		clk.Add(CheckEvery)
		if served().Cmp(first) != 0 {
			t.Fatal("broken certificate replaced the old one")
		}
	}
	if failures() != 1 {
		t.Fatalf("%d failures logged:\n%s", failures(), log)
	}

	// A new certificate whose key is not written yet: still the old one.
	certPEM, keyPEM, leaf := testtools.SelfSignedCert(t, domain, testNow, testNow.AddDate(0, 3, 0))
	replaceFile(t, certFile, certPEM)
	clk.Add(CheckEvery)
	if served().Cmp(first) != 0 || failures() != 2 {
		t.Fatalf("mismatched pair: %d failures", failures())
	}
	// The key arrives: the new pair is served.
	replaceFile(t, keyFile, keyPEM)
	clk.Add(CheckEvery)
	if served().Cmp(leaf.SerialNumber) != 0 {
		t.Fatal("completed pair not served")
	}

	// Files removed: the last good certificate stays.
	os.Remove(certFile)
	clk.Add(CheckEvery)
	if served().Cmp(leaf.SerialNumber) != 0 || failures() != 3 {
		t.Fatalf("removed files: %d failures", failures())
	}
}

func TestNewFileCertFails(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	log, _ := testLog(t)
	if _, err := NewFileCert(certFile, keyFile, log, nil); err == nil || !strings.Contains(err.Error(), certFile) {
		t.Fatalf("got %v", err)
	}
	certFiles(t, certFile, keyFile)
	other := filepath.Join(dir, "other.pem")
	_, keyPEM, _ := testtools.SelfSignedCert(t, domain, testNow, testNow.AddDate(0, 3, 0))
	writeFile(t, other, keyPEM)
	if _, err := NewFileCert(certFile, other, log, nil); err == nil || !strings.Contains(err.Error(), "does not match") {
		t.Fatalf("got %v", err)
	}
}
