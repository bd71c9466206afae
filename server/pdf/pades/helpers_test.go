package pades

import (
	"bytes"
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"contracts/assets"
	"contracts/internal/testtools"

	"github.com/signintech/gopdf"
)

// signedAt is the sample contract's last change: the seal's /M.
var signedAt = time.Date(2026, 3, 2, 9, 31, 7, 0, time.UTC)

// sampleText is a contract's words in each language, one page each.
var sampleText = map[string][2][]string{
	"uz": {{"Oldi-sotdi shartnomasi", "Raqam: 2026-000042", "Sotuvchi: Alpha Savdo MChJ", "Xaridor: Karimov Aziz", "Narx: 1 500,25 UZS"},
		{"Audit izi", "Shartnoma tuzildi", "Imzolandi: SMS-kod"}},
	"ru": {{"Договор купли-продажи", "Номер: 2026-000042", "Продавец: ООО «Альфа Савдо»", "Покупатель: Каримов Азиз", "Цена: 1 500,25 UZS"},
		{"Журнал событий", "Договор создан", "Подписан: SMS-код"}},
	"en": {{"Sales contract", "Number: 2026-000042", "Seller: Alpha Savdo LLC", "Buyer: Aziz Karimov", "Price: 1,500.25 UZS"},
		{"Audit trail", "Contract created", "Signed: SMS code"}},
}

// mustRender makes a two-page contract in lang as the service's renderer
// does (gopdf, embedded DejaVu fonts, a classic cross-reference table).
// The rendering of real contracts through the PDF cache is tested and
// measured in server/pdf, which imports this package.
func mustRender(tb testing.TB, lang string) []byte {
	tb.Helper()
	doc := &gopdf.GoPdf{}
	doc.Start(gopdf.Config{PageSize: *gopdf.PageSizeA4, Unit: gopdf.UnitPT})
	if err := doc.AddTTFFontData("DejaVuSans", assets.DejaVuSans); err != nil {
		tb.Fatal(err)
	}
	doc.SetInfo(gopdf.PdfInfo{Title: sampleText[lang][0][0] + " 2026-000042", Creator: "contracts", CreationDate: signedAt})
	for _, page := range sampleText[lang] {
		doc.AddPage()
		if err := doc.SetFont("DejaVuSans", "", 12); err != nil {
			tb.Fatal(err)
		}
		for i, line := range page {
			doc.SetXY(56, 60+float64(i)*20)
			if err := doc.Text(line); err != nil {
				tb.Fatal(err)
			}
		}
	}
	var buf bytes.Buffer
	if err := doc.Write(&buf); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// sampleAttachments are what the appliance attaches: the audit trail and
// one E-IMZO party's PKCS #7.
func sampleAttachments() []Attachment {
	return []Attachment{
		{Name: "audit.json", MIME: "application/json", Description: "Audit trail", Data: []byte(`[{"event":"SIGNED","actor":"302123456"}]`)},
		{Name: "302123456.p7s", MIME: "application/pkcs7-signature", Description: "E-IMZO signature of 302123456", Data: []byte{0x30, 0x80, 1, 2, 3}},
	}
}

func sampleSeal(lang string, pdfBytes []byte) Document {
	return Document{PDF: pdfBytes, SigningTime: signedAt, Attachments: sampleAttachments(),
		Contract: Contract{ID: "0192f0aa-7c1e-7d3a-9b1e-5f0c2a1d4e77", Number: "2026-000042", Version: 3}}
}

// mustSeal seals with s, failing the test on error.
func mustSeal(tb testing.TB, s *Sealer, d Document) []byte {
	tb.Helper()
	out, err := s.Seal(context.Background(), d)
	if err != nil {
		tb.Fatalf("seal: %v", err)
	}
	return out
}

// mustSealer wraps NewSealer.
func mustSealer(tb testing.TB, id *Identity, tsa *TSA, stamps Stamps) *Sealer {
	tb.Helper()
	s, err := NewSealer(id, tsa, stamps)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// writeTemp writes data to a file in a test directory.
func writeTemp(tb testing.TB, name string, data []byte) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), name)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		tb.Fatal(err)
	}
	return path
}

// run runs a tool and returns its combined output and whether it succeeded.
func run(tb testing.TB, name string, args ...string) (string, bool) {
	tb.Helper()
	testtools.Need(tb, name)
	out, err := exec.Command(name, args...).CombinedOutput()
	return string(out), err == nil
}

// mustPdfsig runs pdfsig on data and fails unless it calls the one
// signature valid and covering the whole document.
func mustPdfsig(tb testing.TB, data []byte) string {
	tb.Helper()
	out, _ := run(tb, "pdfsig", writeTemp(tb, "sealed.pdf", data))
	for _, want := range []string{"Signature #1", "Signature Validation: Signature is Valid.", "Total document signed",
		"Signature Type: ETSI.CAdES.detached", "Signing Hash Algorithm: SHA-256"} {
		if !strings.Contains(out, want) {
			tb.Errorf("pdfsig lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Signature #2") {
		tb.Errorf("pdfsig sees more than one signature:\n%s", out)
	}
	return out
}

// A test CA and seal identities, made once per test binary: RSA key
// generation is slow under the race detector.
var (
	caOnce  sync.Once
	testCA  *Identity
	rsaSeal *Identity
	ecSeal  *Identity
)

func testIdentities(tb testing.TB) (ca, rsaID, ecID *Identity) {
	tb.Helper()
	caOnce.Do(func() {
		caKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		caCert := mustCert(tb, &x509.Certificate{Subject: pkix.Name{CommonName: "Test Seal CA"}, IsCA: true,
			KeyUsage: x509.KeyUsageCertSign, BasicConstraintsValid: true}, nil, caKey.Public(), caKey)
		testCA = &Identity{Chain: []*x509.Certificate{caCert}, Key: caKey}
		rk, _ := rsa.GenerateKey(rand.Reader, 2048)
		rsaSeal = issue(tb, testCA, "Alpha Savdo document seal", rk)
		ek, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		ecSeal = issue(tb, testCA, "Alpha Savdo document seal (EC)", ek)
	})
	return testCA, rsaSeal, ecSeal
}

// issue makes a seal certificate for key signed by ca.
func issue(tb testing.TB, ca *Identity, cn string, key crypto.Signer) *Identity {
	tb.Helper()
	c := mustCert(tb, &x509.Certificate{Subject: pkix.Name{CommonName: cn, Organization: []string{"Alpha Savdo"}},
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageContentCommitment}, ca.Chain[0], key.Public(), ca.Key)
	return &Identity{Chain: []*x509.Certificate{c, ca.Chain[0]}, Key: key}
}

var serial int64 = 1000

func mustCert(tb testing.TB, tmpl, parent *x509.Certificate, pub crypto.PublicKey, signer crypto.Signer) *x509.Certificate {
	tb.Helper()
	serial++
	tmpl.SerialNumber = big.NewInt(serial)
	tmpl.NotBefore, tmpl.NotAfter = time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2040, 1, 1, 0, 0, 0, 0, time.UTC)
	if parent == nil {
		parent = tmpl
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, pub, signer)
	if err != nil {
		tb.Fatal(err)
	}
	c, err := x509.ParseCertificate(der)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// pemFiles writes an identity as PEM files: the chain, and the key in
// the given form (PKCS1, PKCS8 or SEC1).
func pemFiles(tb testing.TB, id *Identity, form string) (certFile, keyFile string) {
	tb.Helper()
	var certs []byte
	for _, c := range id.Chain {
		certs = append(certs, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: c.Raw})...)
	}
	var block *pem.Block
	switch form {
	case "PKCS1":
		block = &pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(id.Key.(*rsa.PrivateKey))}
	case "SEC1":
		der, err := x509.MarshalECPrivateKey(id.Key.(*ecdsa.PrivateKey))
		if err != nil {
			tb.Fatal(err)
		}
		block = &pem.Block{Type: "EC PRIVATE KEY", Bytes: der}
	default:
		der, err := x509.MarshalPKCS8PrivateKey(id.Key)
		if err != nil {
			tb.Fatal(err)
		}
		block = &pem.Block{Type: "PRIVATE KEY", Bytes: der}
	}
	dir := tb.TempDir()
	certFile, keyFile = filepath.Join(dir, "seal.pem"), filepath.Join(dir, "seal-key.pem")
	if err := os.WriteFile(certFile, certs, 0o600); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(block), 0o600); err != nil {
		tb.Fatal(err)
	}
	return certFile, keyFile
}

// osTempDir makes a directory outside any one test, for values shared by
// the whole test binary; TestMain removes it.
func osTempDir() (string, error) { return os.MkdirTemp("", "pades-test-") }

func TestMain(m *testing.M) {
	code := m.Run()
	if genDir != "" {
		os.RemoveAll(genDir)
	}
	os.Exit(code)
}
