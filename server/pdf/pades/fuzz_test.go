package pades

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// fuzzCert is the certificate the committed seeds were sealed with; its
// key was thrown away. CONTRACTS_WRITE_FUZZ_SEEDS=1 makes new ones.
const fuzzCert = "testdata/fuzz-seal.crt"

// FuzzVerify: no input makes the verifier or the PDF reader panic, and the
// answers keep their invariants. The seeds are small sealed files (with and
// without a time-stamp) and damaged copies of them.
func FuzzVerify(f *testing.F) {
	pemBytes, err := os.ReadFile(fuzzCert)
	if err != nil {
		f.Fatal(err)
	}
	b, _ := pem.Decode(pemBytes)
	if b == nil {
		f.Fatalf("%s holds no PEM", fuzzCert)
	}
	cert, err := x509.ParseCertificate(b.Bytes)
	if err != nil {
		f.Fatal(err)
	}
	v := NewVerifier(cert)
	f.Fuzz(func(t *testing.T, data []byte) {
		r := v.Verify(data)
		switch {
		case r.Intact && (!r.Sealed || r.Reason != ""):
			t.Fatalf("intact but %+v", r)
		case !r.Intact && r.Reason == "":
			t.Fatalf("not intact without a reason: %+v", r)
		case r.Contract != nil && !r.Intact && r.Reason != Appended:
			t.Fatalf("a contract from an unverified file: %+v", r)
		case !r.Sealed && (r.Contract != nil || !r.SignedAt.IsZero()):
			t.Fatalf("details of an unsealed file: %+v", r)
		}
		// The sealer's reader meets the same input.
		planUpdate(Document{PDF: data})
	})
}

// minimalPDF is a one-page PDF written by hand, with its Info dictionary
// as an object rather than inline as gopdf writes it.
func minimalPDF() []byte {
	var b bytes.Buffer
	var offsets []int
	b.WriteString("%PDF-1.4\n")
	for _, o := range []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Annots [] >>",
		"<< /Title (Fuzz \\(seed\\)) /Producer <FEFF0041> >>",
	} {
		offsets = append(offsets, b.Len())
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", len(offsets), o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(offsets)+1)
	for _, o := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R /Info 4 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(offsets)+1, xref)
	return b.Bytes()
}

// TestSealMinimalPDF: a PDF not made by gopdf (Info by reference, an
// empty /Annots array) is sealed too.
func TestSealMinimalPDF(t *testing.T) {
	_, _, ecID := testIdentities(t)
	out := mustSeal(t, mustSealer(t, ecID, nil, nil), sampleSeal("en", minimalPDF()))
	r := NewVerifier(ecID.Certificate()).Verify(out)
	if !r.Intact || r.Contract == nil || r.Contract.Number != "2026-000042" {
		t.Fatalf("%+v", r)
	}
	if !bytes.Contains(out, []byte("/Annots [ 6 0 R]")) {
		t.Errorf("the widget was not added to the page's annotations")
	}
	if !bytes.Contains(out, []byte(`/Title (Fuzz \(seed\))`)) {
		t.Error("the old Info entries were not kept")
	}
	mustPdfsig(t, out)
}

// TestWriteFuzzSeeds rewrites the committed seeds and their certificate
// when CONTRACTS_WRITE_FUZZ_SEEDS=1.
func TestWriteFuzzSeeds(t *testing.T) {
	if os.Getenv("CONTRACTS_WRITE_FUZZ_SEEDS") != "1" {
		t.Skip("set CONTRACTS_WRITE_FUZZ_SEEDS=1 to rewrite the seeds")
	}
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	cert := mustCert(t, &x509.Certificate{Subject: pkix.Name{CommonName: "Fuzz document seal"}}, nil, key.Public(), key)
	id := &Identity{Chain: []*x509.Certificate{cert}, Key: key}
	d := sampleSeal("en", minimalPDF())
	d.Attachments = d.Attachments[:1]
	sealed := mustSeal(t, mustSealer(t, id, nil, nil), d)
	tsa := fakeTSA(t)
	stamped := mustSeal(t, mustSealer(t, id, &TSA{URL: tsa.URL}, nil), d)
	hole := holeOf(t, sealed)
	edited := bytes.Clone(sealed)
	edited[40] ^= 1
	seeds := map[string][]byte{
		"sealed": sealed, "stamped": stamped, "appended": append(bytes.Clone(sealed), "\n%%EOF\n"...),
		"truncated": sealed[:hole[1]+20], "edited": edited, "unsealed": minimalPDF(),
	}
	dir := filepath.Join("testdata", "fuzz", "FuzzVerify")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range seeds {
		if err := os.WriteFile(filepath.Join(dir, name), fmt.Appendf(nil, "go test fuzz v1\n[]byte(%q)\n", data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(fuzzCert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert.Raw}), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestFuzzSeeds: the committed seeds still reach the verifier's deep
// paths: each gives the answer it was made for.
func TestFuzzSeeds(t *testing.T) {
	pemBytes, err := os.ReadFile(fuzzCert)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := pem.Decode(pemBytes)
	cert, err := x509.ParseCertificate(b.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	v := NewVerifier(cert)
	want := map[string]Reason{"sealed": "", "stamped": "", "appended": Appended, "truncated": Truncated, "edited": Modified, "unsealed": NoSeal}
	for name, reason := range want {
		raw, err := os.ReadFile(filepath.Join("testdata", "fuzz", "FuzzVerify", name))
		if err != nil {
			t.Fatal(err)
		}
		body, ok := strings.CutPrefix(string(raw), "go test fuzz v1\n[]byte(")
		quoted, ok2 := strings.CutSuffix(body, ")\n")
		data, err := strconv.Unquote(quoted)
		if !ok || !ok2 || err != nil {
			t.Fatalf("%s: not a seed file: %v", name, err)
		}
		if r := v.Verify([]byte(data)); r.Reason != reason {
			t.Errorf("%s: %+v, want reason %q", name, r, reason)
		}
	}
}
