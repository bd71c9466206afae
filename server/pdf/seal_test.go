package pdf

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"errors"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/internal/tsatest"
	"contracts/server/pdf/pades"
	"contracts/signflow"
)

var (
	sealIDOnce sync.Once
	sealID     *pades.Identity
)

// testSeal is a self-signed ECDSA seal, made once per test binary.
func testSeal(tb testing.TB) *pades.Identity {
	tb.Helper()
	sealIDOnce.Do(func() {
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			panic(err)
		}
		tmpl := &x509.Certificate{SerialNumber: big.NewInt(7), Subject: pkix.Name{CommonName: "Test document seal"},
			NotBefore: time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC), NotAfter: time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC),
			KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageContentCommitment}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
		if err != nil {
			panic(err)
		}
		cert, err := x509.ParseCertificate(der)
		if err != nil {
			panic(err)
		}
		sealID = &pades.Identity{Chain: []*x509.Certificate{cert}, Key: key}
	})
	return sealID
}

// sealedCache is a cache sealing with the test seal, with a time-stamp
// authority and its store of tokens when given.
func sealedCache(tb testing.TB, tsa *pades.TSA, stamps pades.Stamps) *Cache {
	tb.Helper()
	s, err := pades.NewSealer(testSeal(tb), tsa, stamps)
	if err != nil {
		tb.Fatal(err)
	}
	return NewSealedCache(DefaultCacheBytes, s)
}

func writePDF(tb testing.TB, data []byte) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "contract.pdf")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		tb.Fatal(err)
	}
	return path
}

// The cache serves sealed PDFs in every language: pdfsig calls the seal
// valid over the whole file, the verifier reads the contract and version
// from it, audit.json is attached; one byte changed breaks it.
func TestCacheSealsPDFs(t *testing.T) {
	needTools(t, "pdfsig", "pdfdetach", "qpdf")
	w := newCacheWorld(t, 1)
	pdfs := sealedCache(t, nil, nil)
	verifier := pades.NewVerifier(testSeal(t).Certificate())
	for _, lang := range []string{"uz", "ru", "en"} {
		doc := w.mustGet(pdfs, lang)
		path := writePDF(t, doc)
		MustCheckPDF(t, path)
		out, _ := runTool(t, "pdfsig", path)
		if !strings.Contains(out, "Signature is Valid") || !strings.Contains(out, "Total document signed") {
			t.Fatalf("%s: pdfsig:\n%s", lang, out)
		}
		r := verifier.Verify(doc)
		if !r.Intact || r.Contract == nil || r.Contract.ID != w.c.ID || r.Contract.Number != w.c.Number || r.Contract.Version != 1 ||
			!r.SignedAt.Equal(w.c.UpdatedAt) {
			t.Fatalf("%s: verifier %+v", lang, r)
		}
		if list := MustRun(t, "pdfdetach", "-list", path); !strings.Contains(list, "audit.json") || strings.Contains(list, ".p7s") {
			t.Fatalf("%s: attachments:\n%s", lang, list)
		}
		flipped := bytes.Clone(doc)
		flipped[len(flipped)/3] ^= 0x01
		if out, _ := runTool(t, "pdfsig", writePDF(t, flipped)); strings.Contains(out, "Signature is Valid") {
			t.Fatalf("%s: pdfsig on a changed file:\n%s", lang, out)
		}
		if r := verifier.Verify(flipped); r.Intact {
			t.Fatalf("%s: the verifier calls a changed file intact", lang)
		}
	}
}

// runTool runs a tool that may fail and returns its output.
func runTool(tb testing.TB, name string, args ...string) (string, error) {
	tb.Helper()
	out, err := exec.Command(name, args...).CombinedOutput()
	return string(out), err
}

// The same version in the same language is the same bytes from a new
// cache (as after a restart), even after an audit-only event and a new
// record of a party; a new version is other bytes.
func TestSealedPDFsAreDeterministic(t *testing.T) {
	w := newCacheWorld(t, 1)
	first := w.mustGet(sealedCache(t, nil, nil), "ru")
	if _, _, err := w.Service.OpenSession(w.a, w.c.ID, signflow.SessionRequest{SignerIN: fixture.CustomerIN}, signflow.Actor{IP: "10.0.0.9"}); err != nil {
		t.Fatal(err)
	}
	fixture.MustClaim(t, w.Service, fixture.OwnerIN, &signflow.Client{IN: fixture.CustomerIN, FirstName: "Aziz", LastName: "Karimov",
		Phone: "+998 90 123-45-67", Address: "Toshkent, Chilonzor 7"})
	w.Clock.Advance(time.Hour)
	if again := w.mustGet(sealedCache(t, nil, nil), "ru"); !bytes.Equal(again, first) {
		t.Fatal("a new cache sealed the same version into other bytes")
	}
	if _, err := w.Service.Cancel(w.a, w.c.ID, signflow.Actor{}); err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(w.mustGet(sealedCache(t, nil, nil), "ru"), first) {
		t.Fatal("the cancelled version is the bytes of the created one")
	}
}

// A contract an E-IMZO signer signed carries that signer's PKCS #7 as
// <in>.p7s, and audit.json says who signed how, with the events of the
// version only.
func TestSealedPDFAttachments(t *testing.T) {
	needTools(t, "pdfdetach")
	v, audit := fixture.SampleView(1, 1)
	p7 := []byte{0x30, 0x80, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02, 0xa0, 0x80, 1, 2, 3, 0, 0, 0, 0}
	v.Signatures[v.SellerIN].PKCS7 = p7
	v.Signatures[v.SellerIN].Certificate = &signflow.SignerCertificate{SerialNumber: "218711a92", CommonName: "GALABA", TIN: v.SellerIN}
	later := &signflow.AuditEvent{At: v.UpdatedAt.Add(time.Hour), Type: signflow.AuditSessionOpened, ActorIN: v.BuyerIN}
	doc, err := sealedCache(t, nil, nil).Contract(context.Background(), v, append(audit, later), "en", "https://sign.example/verify/x")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "contract.pdf")
	if err := os.WriteFile(path, doc, 0o600); err != nil {
		t.Fatal(err)
	}
	MustRun(t, "pdfdetach", "-saveall", "-o", dir, path)
	if got, err := os.ReadFile(filepath.Join(dir, v.SellerIN+".p7s")); err != nil || !bytes.Equal(got, p7) {
		t.Fatalf("%s.p7s: %x, %v", v.SellerIN, got, err)
	}
	if _, err := os.Stat(filepath.Join(dir, v.BuyerIN+".p7s")); err == nil {
		t.Fatal("the SMS signer has a .p7s")
	}
	data, err := os.ReadFile(filepath.Join(dir, "audit.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Contract struct {
			ID, Number, Status string
			Version            int64
		}
		Events []struct {
			Type    string
			At      time.Time
			ActorIN string `json:"actorIn"`
		}
		Signatures []struct {
			IN, Party, Method, PKCS7 string
			Certificate              *signflow.SignerCertificate
		}
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatalf("audit.json: %v\n%s", err, data)
	}
	if f.Contract.ID != v.ID || f.Contract.Number != v.Number || f.Contract.Version != v.Version || f.Contract.Status != v.Status {
		t.Fatalf("audit.json contract %+v", f.Contract)
	}
	if len(f.Events) != len(audit) || f.Events[0].Type != signflow.EventCreated || f.Events[len(f.Events)-1].Type != signflow.EventActive ||
		!f.Events[0].At.Equal(audit[0].At) || f.Events[0].ActorIN != v.SellerIN {
		t.Fatalf("audit.json events (the later session must not be there):\n%s", data)
	}
	if len(f.Signatures) != 2 || f.Signatures[0].Party != "SELLER" || f.Signatures[0].PKCS7 != v.SellerIN+".p7s" ||
		f.Signatures[0].Certificate == nil || f.Signatures[0].Certificate.SerialNumber != "218711a92" ||
		f.Signatures[1].Party != "BUYER" || f.Signatures[1].Method != signflow.MethodOTP || f.Signatures[1].PKCS7 != "" {
		t.Fatalf("audit.json signatures:\n%s", data)
	}
}

// With a time-stamp authority the seal is B-T and its token is kept, so a
// new cache (a restart) makes the same bytes without asking again. While
// the authority is down a download is refused with 503 and Retry-After,
// and nothing is kept; once it is back, the download works.
func TestSealedPDFTimestamps(t *testing.T) {
	clock := fixture.NewClock()
	authority := tsatest.New(t, clock.Now)
	tsa := &pades.TSA{URL: authority.URL}
	w := newCacheWorld(t, 1)
	stamps := &pades.MemoryStamps{}
	first := w.mustGet(sealedCache(t, tsa, stamps), "uz")
	r := pades.NewVerifier(testSeal(t).Certificate()).Verify(first)
	if !r.Intact || r.StampedAt.IsZero() || stamps.Len() != 1 || authority.Requests() != 1 {
		t.Fatalf("B-T seal: %+v; %d tokens kept, %d requests", r, stamps.Len(), authority.Requests())
	}
	clock.Advance(time.Hour)
	if again := w.mustGet(sealedCache(t, tsa, stamps), "uz"); !bytes.Equal(again, first) || authority.Requests() != 1 {
		t.Fatalf("a new cache: same bytes %v, %d requests", bytes.Equal(again, first), authority.Requests())
	}

	authority.SetMode(tsatest.Down)
	pdfs := sealedCache(t, tsa, stamps)
	_, err := w.get(context.Background(), pdfs, "ru")
	var stampErr *StampError
	if !errors.As(err, &stampErr) || signflow.ErrorCode(err) != signflow.EUNAVAILABLE || stampErr.RetryAfter() <= 0 ||
		!errors.Is(err, pades.ErrTimestamp) {
		t.Fatalf("with the authority down: %v", err)
	}
	if s := pdfs.Stats(); s.Entries != 0 || s.Renders != 0 {
		t.Fatalf("a refused PDF was kept: %+v", s)
	}
	authority.SetMode(tsatest.OK)
	if doc := w.mustGet(pdfs, "ru"); !pades.NewVerifier(testSeal(t).Certificate()).Verify(doc).Intact {
		t.Fatal("the PDF made once the authority is back is not an intact seal")
	}
}
