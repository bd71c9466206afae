package pades

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"contracts/internal/testtools"
)

// TestLoadIdentityForms reads CA-issued seals from PEM in each key form,
// with the chain in either order.
func TestLoadIdentityForms(t *testing.T) {
	ca, rsaID, ecID := testIdentities(t)
	cases := []struct {
		name string
		id   *Identity
		form string
	}{{"rsa-pkcs1", rsaID, "PKCS1"}, {"rsa-pkcs8", rsaID, "PKCS8"}, {"ecdsa-sec1", ecID, "SEC1"}, {"ecdsa-pkcs8", ecID, "PKCS8"}}
	for _, c := range cases {
		certFile, keyFile := pemFiles(t, c.id, c.form)
		got, err := OpenIdentity(certFile, keyFile, nil, "Contracts")
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(got.Chain) != 2 || !got.Chain[0].Equal(c.id.Certificate()) || !got.Chain[1].Equal(ca.Certificate()) {
			t.Errorf("%s: chain %v", c.name, got.Chain)
		}
	}
	// The CA first in the file: the seal certificate is still found.
	reversed := &Identity{Chain: []*x509.Certificate{ca.Certificate(), rsaID.Certificate()}, Key: rsaID.Key}
	certFile, keyFile := pemFiles(t, reversed, "PKCS8")
	got, err := LoadIdentity(certFile, keyFile)
	if err != nil || !got.Certificate().Equal(rsaID.Certificate()) {
		t.Errorf("reversed chain: %v, %v", got, err)
	}
}

// TestLoadIdentityErrors: keys and certificates that cannot seal are
// refused, naming the problem.
func TestLoadIdentityErrors(t *testing.T) {
	_, rsaID, ecID := testIdentities(t)
	rsaCert, _ := pemFiles(t, rsaID, "PKCS8")
	_, ecKey := pemFiles(t, ecID, "SEC1")
	weak, _ := rsa.GenerateKey(rand.Reader, 1024)
	_, edKey, _ := ed25519.GenerateKey(rand.Reader)
	p224, _ := ecdsa.GenerateKey(elliptic.P224(), rand.Reader)
	keyPEM := func(k any) string {
		der, err := x509.MarshalPKCS8PrivateKey(k)
		if err != nil {
			t.Fatal(err)
		}
		return writeTemp(t, "key.pem", pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
	}
	cases := []struct{ name, cert, key, want string }{
		{"mismatch", rsaCert, ecKey, "none matches the seal key"},
		{"weak rsa", rsaCert, keyPEM(weak), "at least 2048"},
		{"ed25519", rsaCert, keyPEM(edKey), "use RSA or ECDSA"},
		{"p224", rsaCert, keyPEM(p224), "not supported"},
		{"encrypted", rsaCert, writeTemp(t, "enc.pem", pem.EncodeToMemory(&pem.Block{Type: "ENCRYPTED PRIVATE KEY", Bytes: []byte{1}})), "encrypted"},
		{"no key", rsaCert, rsaCert, "no PEM private key"},
		{"no cert", ecKey, ecKey, "no PEM CERTIFICATE"},
		{"missing file", rsaCert, filepath.Join(t.TempDir(), "absent.pem"), "no such file"},
	}
	for _, c := range cases {
		if _, err := LoadIdentity(c.cert, c.key); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want an error with %q", c.name, err, c.want)
		}
	}
	if _, err := OpenIdentity(rsaCert, "", Dir(t.TempDir()), "Contracts"); err == nil {
		t.Error("a certificate without a key was accepted")
	}
}

// TestGeneratedIdentity: the first start makes "<name> document seal",
// kept as seal.crt and seal.key with mode 0600; the next start reads the
// same pair; openssl prints the same fingerprint.
func TestGeneratedIdentity(t *testing.T) {
	dir := t.TempDir()
	id, err := OpenIdentity("", "", Dir(dir), "Acme Sign")
	if err != nil {
		t.Fatal(err)
	}
	c := id.Certificate()
	if c.Subject.CommonName != "Acme Sign document seal" {
		t.Errorf("CN %q", c.Subject.CommonName)
	}
	if k, ok := id.Key.(*rsa.PrivateKey); !ok || k.N.BitLen() != 3072 {
		t.Errorf("key %T, want RSA 3072", id.Key)
	}
	if c.NotAfter.Before(time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC)) || c.NotBefore.After(time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("validity %v to %v", c.NotBefore, c.NotAfter)
	}
	for _, name := range []string{CertName, KeyName} {
		st, err := os.Stat(filepath.Join(dir, name))
		if err != nil || st.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v, mode %v", name, err, st.Mode())
		}
	}
	again, err := GeneratedIdentity(Dir(dir), "Acme Sign")
	if err != nil || !again.Certificate().Equal(c) || again.Fingerprint() != id.Fingerprint() {
		t.Fatalf("second start: %v, same certificate %v", err, err == nil && again.Certificate().Equal(c))
	}

	testtools.Need(t, "openssl")
	out, _ := run(t, "openssl", "x509", "-noout", "-fingerprint", "-sha256", "-in", filepath.Join(dir, CertName))
	if got := strings.TrimSpace(out); got != "sha256 Fingerprint="+id.Fingerprint() {
		t.Errorf("openssl: %q, we: %q", got, id.Fingerprint())
	}
}

// TestGeneratedIdentityHalfPair: a key without its certificate gets one; a
// certificate without its key is an error and nothing is overwritten.
func TestGeneratedIdentityHalfPair(t *testing.T) {
	gen, dir := generated(t)
	keyPEM, err := dir.Read(KeyName)
	if err != nil {
		t.Fatal(err)
	}
	onlyKey := Dir(t.TempDir())
	if err := onlyKey.Write(KeyName, keyPEM); err != nil {
		t.Fatal(err)
	}
	id, err := GeneratedIdentity(onlyKey, "Contracts")
	if err != nil || !samePublicKey(id.Certificate().PublicKey, gen.Key.Public()) {
		t.Fatalf("key without certificate: %v", err)
	}
	if _, err := onlyKey.Read(CertName); err != nil {
		t.Errorf("the new certificate was not kept: %v", err)
	}

	certPEM, _ := dir.Read(CertName)
	onlyCert := Dir(t.TempDir())
	onlyCert.Write(CertName, certPEM)
	if _, err := GeneratedIdentity(onlyCert, "Contracts"); err == nil || !strings.Contains(err.Error(), "seal.key is missing") {
		t.Errorf("certificate without key: %v", err)
	}
	if _, err := onlyCert.Read(KeyName); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a key was written beside the orphan certificate: %v", err)
	}
}
