package pades

import (
	"bytes"
	"contracts/internal/testtools"
	"strings"
	"sync"
	"testing"
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
	ids := map[string]*Identity{"generated": gen, "ca-rsa": rsaID, "ca-ecdsa": ecID}
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
