package pades

import (
	"bytes"
	"context"
	"contracts/internal/testtools"
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	genOnce sync.Once
	genID   *Identity
	genDir  string
	genErr  error
)

// generated is the self-signed seal generated once for the test binary,
// as the appliance makes it on first start.
func generated(tb testing.TB) (*Identity, Dir) {
	tb.Helper()
	genOnce.Do(func() {
		genDir, genErr = osTempDir()
		if genErr == nil {
			genID, genErr = GeneratedIdentity(Dir(genDir), "Contracts")
		}
	})
	if genErr != nil {
		tb.Fatal(genErr)
	}
	return genID, Dir(genDir)
}

// TestSealPdfsig: pdfsig calls the seal valid and covering the whole file
// in each language, with the generated seal and with CA-issued RSA and
// ECDSA seals read from PEM files; qpdf finds the file sound.
func TestSealPdfsig(t *testing.T) {
	testtools.Need(t, "pdfsig", "qpdf")
	_, rsaID, ecID := testIdentities(t)
	gen, _ := generated(t)
	ids := map[string]*Identity{"generated": gen}
	// The CA-issued seals come from PEM files, as seal.certFile and seal.keyFile give them.
	for name, id := range map[string]*Identity{"ca-rsa": rsaID, "ca-ecdsa": ecID} {
		certFile, keyFile := pemFiles(t, id, "PKCS8")
		loaded, err := OpenIdentity(certFile, keyFile, nil, "Contracts")
		if err != nil {
			t.Fatal(err)
		}
		ids[name] = loaded
	}
	for name, id := range ids {
		for _, lang := range []string{"uz", "ru", "en"} {
			t.Run(name+"/"+lang, func(t *testing.T) {
				t.Parallel()
				s := mustSealer(t, id, nil, nil)
				out := mustSeal(t, s, sampleSeal(lang, mustRender(t, lang)))
				report := mustPdfsig(t, out)
				if cn := id.Certificate().Subject.CommonName; !strings.Contains(report, cn) {
					t.Errorf("pdfsig does not name the signer %q:\n%s", cn, report)
				}
				if !strings.Contains(report, "Mar 02 2026") {
					t.Errorf("pdfsig shows no signing time of 2 March 2026:\n%s", report)
				}
				if msg, ok := run(t, "qpdf", "--check", writeTemp(t, "sealed.pdf", out)); !ok {
					t.Errorf("qpdf --check: %s", msg)
				}
				if r := NewVerifier(id.Certificate()).Verify(out); !r.Sealed || !r.Intact || r.Reason != "" {
					t.Errorf("our verifier: %+v", r)
				}
			})
		}
	}
}

// TestSealFlippedByte: one changed byte of the rendered content makes
// pdfsig and our verifier call the seal invalid.
func TestSealFlippedByte(t *testing.T) {
	testtools.Need(t, "pdfsig")
	_, rsaID, _ := testIdentities(t)
	out := mustSeal(t, mustSealer(t, rsaID, nil, nil), sampleSeal("en", mustRender(t, "en")))
	i := bytes.Index(out, []byte("/Type /Catalog"))
	if i < 0 {
		t.Fatal("no catalog in the rendered PDF")
	}
	bad := bytes.Clone(out)
	bad[i+len("/Type /Cat")] = 'k' // /Catakog
	report, _ := run(t, "pdfsig", writeTemp(t, "edited.pdf", bad))
	if strings.Contains(report, "Signature is Valid") || !strings.Contains(report, "Signature Validation: Digest Mismatch.") {
		t.Errorf("pdfsig on an edited file:\n%s", report)
	}
	if r := NewVerifier(rsaID.Certificate()).Verify(bad); !r.Sealed || r.Intact || r.Reason != Modified || r.Contract != nil {
		t.Errorf("our verifier on an edited file: %+v", r)
	}
}

// TestSealAttachments: pdfdetach lists the attachments and gives back
// their bytes.
func TestSealAttachments(t *testing.T) {
	testtools.Need(t, "pdfdetach")
	_, rsaID, _ := testIdentities(t)
	out := mustSeal(t, mustSealer(t, rsaID, nil, nil), sampleSeal("ru", mustRender(t, "ru")))
	path := writeTemp(t, "sealed.pdf", out)
	list, ok := run(t, "pdfdetach", "-list", path)
	if !ok || !strings.Contains(list, "2 embedded files") || !strings.Contains(list, "audit.json") || !strings.Contains(list, "302123456.p7s") {
		t.Fatalf("pdfdetach -list:\n%s", list)
	}
	dir := t.TempDir()
	if msg, ok := run(t, "pdfdetach", "-saveall", "-o", dir, path); !ok {
		t.Fatalf("pdfdetach -saveall: %s", msg)
	}
	for _, a := range sampleAttachments() {
		got, err := os.ReadFile(filepath.Join(dir, a.Name))
		if err != nil || !bytes.Equal(got, a.Data) {
			t.Errorf("%s: %q, %v; want %q", a.Name, got, err, a.Data)
		}
	}
}

// TestSealContractInfo: the contract id, number and version are in the
// signed Info dictionary, where pdfinfo and our verifier read them.
func TestSealContractInfo(t *testing.T) {
	testtools.Need(t, "pdfinfo")
	_, rsaID, _ := testIdentities(t)
	d := sampleSeal("en", mustRender(t, "en"))
	out := mustSeal(t, mustSealer(t, rsaID, nil, nil), d)
	info, _ := run(t, "pdfinfo", "-custom", writeTemp(t, "sealed.pdf", out))
	for _, want := range []string{"ContractId:      " + d.Contract.ID, "ContractNumber:  2026-000042", "ContractVersion: 3", "Sales contract 2026-000042"} {
		if !strings.Contains(info, want) {
			t.Errorf("pdfinfo -custom lacks %q:\n%s", want, info)
		}
	}
	r := NewVerifier(rsaID.Certificate()).Verify(out)
	if r.Contract == nil || *r.Contract != d.Contract || !r.SignedAt.Equal(signedAt) {
		t.Errorf("verifier: contract %+v, signed at %v; want %+v at %v", r.Contract, r.SignedAt, d.Contract, signedAt)
	}
}

// TestSealDeterministic: the same document gives the same bytes, with RSA
// and with ECDSA (RFC 6979), and after the generated key is read back
// from its directory as on a restart.
func TestSealDeterministic(t *testing.T) {
	_, rsaID, ecID := testIdentities(t)
	gen, dir := generated(t)
	reloaded, err := GeneratedIdentity(dir, "Contracts")
	if err != nil {
		t.Fatal(err)
	}
	d := sampleSeal("uz", mustRender(t, "uz"))
	for name, ids := range map[string][2]*Identity{"rsa": {rsaID, rsaID}, "ecdsa": {ecID, ecID}, "generated": {gen, reloaded}} {
		first := mustSeal(t, mustSealer(t, ids[0], nil, nil), d)
		// Render again, as a later download does.
		d2 := sampleSeal("uz", mustRender(t, "uz"))
		second := mustSeal(t, mustSealer(t, ids[1], nil, nil), d2)
		if !bytes.Equal(first, second) {
			t.Errorf("%s: two seals of one document differ", name)
		}
	}
	other := d
	other.Contract.Version++
	if bytes.Equal(mustSeal(t, mustSealer(t, rsaID, nil, nil), d), mustSeal(t, mustSealer(t, rsaID, nil, nil), other)) {
		t.Error("another version gives the same bytes")
	}
}

// TestSealRefusals: what cannot be sealed is refused with a clear error.
func TestSealRefusals(t *testing.T) {
	_, rsaID, _ := testIdentities(t)
	s := mustSealer(t, rsaID, nil, nil)
	good := sampleSeal("en", mustRender(t, "en"))
	sealed := mustSeal(t, s, good)
	cases := map[string]func(d *Document){
		"no time":          func(d *Document) { d.SigningTime = time.Time{} },
		"not a pdf":        func(d *Document) { d.PDF = []byte("hello") },
		"truncated":        func(d *Document) { d.PDF = d.PDF[:len(d.PDF)/2] },
		"already sealed":   func(d *Document) { d.PDF = sealed },
		"path in name":     func(d *Document) { d.Attachments[0].Name = "../audit.json" },
		"duplicate names":  func(d *Document) { d.Attachments[1].Name = d.Attachments[0].Name },
		"bad relationship": func(d *Document) { d.Attachments[0].Relationship = "Owner" },
	}
	for name, edit := range cases {
		d := good
		d.Attachments = sampleAttachments()
		edit(&d)
		if out, err := s.Seal(context.Background(), d); err == nil || out != nil {
			t.Errorf("%s: sealed (%d bytes)", name, len(out))
		}
	}
	if _, err := NewSealer(&Identity{Chain: rsaID.Chain, Key: testCA.Key}, nil, nil); err == nil {
		t.Error("a key that does not match the certificate was accepted")
	}
}

// TestRecipientRecipes runs what docs/sealed-documents.md tells a
// recipient: pdfsig -dump and openssl print the seal's fingerprint, and
// pdfsig no longer says "Total document signed" once bytes are appended.
func TestRecipientRecipes(t *testing.T) {
	testtools.Need(t, "pdfsig", "openssl")
	gen, _ := generated(t)
	out := mustSeal(t, mustSealer(t, gen, nil, nil), sampleSeal("en", mustRender(t, "en")))
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "contract.pdf"), out, 0o600); err != nil {
		t.Fatal(err)
	}
	dump := exec.Command("pdfsig", "-dump", "contract.pdf")
	dump.Dir = dir
	if msg, err := dump.CombinedOutput(); err != nil {
		t.Fatalf("pdfsig -dump: %v %s", err, msg)
	}
	certs, ok := run(t, "openssl", "pkcs7", "-inform", "DER", "-in", filepath.Join(dir, "contract.pdf.sig0"), "-print_certs")
	if !ok {
		t.Fatalf("openssl pkcs7: %s", certs)
	}
	x509 := exec.Command("openssl", "x509", "-noout", "-fingerprint", "-sha256")
	x509.Stdin = strings.NewReader(certs)
	fp, err := x509.Output()
	if err != nil || strings.TrimSpace(string(fp)) != "sha256 Fingerprint="+gen.Fingerprint() {
		t.Errorf("openssl: %q (%v), want %s", fp, err, gen.Fingerprint())
	}
	appended := append(bytes.Clone(out), "% later\n"...)
	report, _ := run(t, "pdfsig", writeTemp(t, "appended.pdf", appended))
	if strings.Contains(report, "Total document signed") || !strings.Contains(report, "Signature is Valid") {
		t.Errorf("pdfsig on an appended file:\n%s", report)
	}
}

// TestSealAcrossProcesses: another process, reading the generated seal
// from its directory as after a restart, seals the same contract into the
// same bytes.
func TestSealAcrossProcesses(t *testing.T) {
	gen, dir := generated(t)
	want := sha256.Sum256(mustSeal(t, mustSealer(t, gen, nil, nil), sampleSeal("ru", mustRender(t, "ru"))))
	cmd := exec.Command(os.Args[0], "-test.run=^TestSealChildProcess$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), "PADES_SEAL_CHILD="+string(dir))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), fmt.Sprintf("sealed-sha256=%x", want)) {
		t.Errorf("the child sealed other bytes than %x:\n%s", want, out)
	}
}

// TestSealChildProcess is the other process of TestSealAcrossProcesses.
func TestSealChildProcess(t *testing.T) {
	dir := os.Getenv("PADES_SEAL_CHILD")
	if dir == "" {
		t.Skip("run by TestSealAcrossProcesses")
	}
	id, err := GeneratedIdentity(Dir(dir), "Contracts")
	if err != nil {
		t.Fatal(err)
	}
	out := mustSeal(t, mustSealer(t, id, nil, nil), sampleSeal("ru", mustRender(t, "ru")))
	fmt.Printf("sealed-sha256=%x\n", sha256.Sum256(out))
}
