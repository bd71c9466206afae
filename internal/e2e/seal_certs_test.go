package e2e

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"os"
	"path/filepath"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/server/pdf"
	"contracts/server/pdf/pades"
)

// caIssuedSeal makes a test CA and a seal certificate it issues (RSA), and
// writes the chain and the key as seal.certFile and seal.keyFile take them.
func caIssuedSeal(t *testing.T, dir, cn string) (certFile, keyFile string, leaf *x509.Certificate) {
	t.Helper()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "Test Seal CA"}, IsCA: true,
		BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().AddDate(5, 0, 0)}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, caKey.Public(), caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ := x509.ParseCertificate(caDER)
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: cn, Organization: []string{"Alpha Savdo MChJ"}},
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageContentCommitment, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().AddDate(2, 0, 0)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, key.Public(), caKey)
	if err != nil {
		t.Fatal(err)
	}
	leaf, _ = x509.ParseCertificate(der)
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, "seal.pem"), filepath.Join(dir, "seal-key.pem")
	chain := append(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER})...)
	if err := os.WriteFile(certFile, chain, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	return certFile, keyFile, leaf
}

// foreignPDF is a contract PDF sealed by someone else's certificate.
func foreignPDF(t *testing.T) []byte {
	t.Helper()
	dir := t.TempDir()
	certFile, keyFile, _ := caIssuedSeal(t, dir, "Someone else's seal")
	id, err := pades.LoadIdentity(certFile, keyFile)
	if err != nil {
		t.Fatal(err)
	}
	s, err := pades.NewSealer(id, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	v, audit := fixture.SampleView(1, 1)
	var buf bytes.Buffer
	if err := pdf.Contract(&buf, v, audit, "en", "https://other.example/verify/x"); err != nil {
		t.Fatal(err)
	}
	out, err := s.Seal(t.Context(), pades.Document{PDF: buf.Bytes(), SigningTime: v.UpdatedAt,
		Contract: pades.Contract{ID: v.ID, Number: v.Number, Version: v.Version}})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
