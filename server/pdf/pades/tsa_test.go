package pades

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"contracts/internal/testtools"
	"contracts/internal/tsatest"
)

// stampedAt is the fake authority's clock.
var stampedAt = time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)

func fakeTSA(t *testing.T) *tsatest.TSA {
	return tsatest.New(t, func() time.Time { return stampedAt })
}

// TestSealTimestamp: with an authority the seal carries a signature
// time-stamp that pdfsig accepts and our verifier reads; a kept token is
// reused, so a second seal is the same bytes without asking again.
func TestSealTimestamp(t *testing.T) {
	testtools.Need(t, "pdfsig")
	_, rsaID, ecID := testIdentities(t)
	for name, id := range map[string]*Identity{"rsa": rsaID, "ecdsa": ecID} {
		t.Run(name, func(t *testing.T) {
			tsa := fakeTSA(t)
			stamps := &MemoryStamps{}
			s := mustSealer(t, id, &TSA{URL: tsa.URL}, stamps)
			d := sampleSeal("uz", mustRender(t, "uz"))
			out := mustSeal(t, s, d)
			mustPdfsig(t, out)
			mustOpensslToken(t, out, tsa)
			r := NewVerifier(id.Certificate()).Verify(out)
			if !r.Intact || !r.StampedAt.Equal(stampedAt) {
				t.Errorf("verifier: %+v, want intact and stamped at %v", r, stampedAt)
			}
			if tsa.Requests() != 1 || stamps.Len() != 1 {
				t.Fatalf("%d requests, %d kept tokens; want 1 and 1", tsa.Requests(), stamps.Len())
			}
			again := mustSeal(t, s, d)
			if !bytes.Equal(out, again) || tsa.Requests() != 1 {
				t.Errorf("second seal: same bytes %v, %d requests; want the kept token reused", bytes.Equal(out, again), tsa.Requests())
			}
			// Without the store a new token is fetched: a B-T seal is then not reproducible.
			fresh := mustSeal(t, mustSealer(t, id, &TSA{URL: tsa.URL}, nil), d)
			if tsa.Requests() != 2 || len(fresh) != len(out) {
				t.Errorf("unkept seal: %d requests, %d bytes vs %d", tsa.Requests(), len(fresh), len(out))
			}
		})
	}
}

// TestSealTimestampFailures: an authority that is down, refuses or answers
// nonsense makes Seal fail with ErrTimestamp and return nothing; a broken
// kept token is replaced.
func TestSealTimestampFailures(t *testing.T) {
	_, rsaID, _ := testIdentities(t)
	tsa := fakeTSA(t)
	d := sampleSeal("en", mustRender(t, "en"))
	for _, m := range []tsatest.Mode{tsatest.Down, tsatest.Unavailable, tsatest.Garbage, tsatest.Refuse, tsatest.WrongImprint, tsatest.WrongNonce} {
		tsa.SetMode(m)
		stamps := &MemoryStamps{}
		out, err := mustSealer(t, rsaID, &TSA{URL: tsa.URL}, stamps).Seal(context.Background(), d)
		if !errors.Is(err, ErrTimestamp) || out != nil || stamps.Len() != 0 {
			t.Errorf("mode %d: %d bytes, err %v, %d kept; want ErrTimestamp and nothing", m, len(out), err, stamps.Len())
		}
	}
	// Nothing listens at all.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
	if out, err := mustSealer(t, rsaID, &TSA{URL: "http://" + ln.Addr().String()}, nil).Seal(context.Background(), d); !errors.Is(err, ErrTimestamp) || out != nil {
		t.Errorf("no listener: %d bytes, err %v", len(out), err)
	}

	tsa.SetMode(tsatest.OK)
	stamps := &MemoryStamps{}
	s := mustSealer(t, rsaID, &TSA{URL: tsa.URL}, stamps)
	first := mustSeal(t, s, d)
	for k := range stamps.m {
		stamps.m[k] = []byte("not a token")
	}
	second := mustSeal(t, s, d)
	if r := NewVerifier(rsaID.Certificate()).Verify(second); !r.Intact || len(first) != len(second) {
		t.Errorf("after a broken kept token: %+v", r)
	}
	if tsa.Requests() == 0 {
		t.Error("no new token was asked for")
	}
}

// mustOpensslToken takes the signature out of the PDF with pdfsig -dump and
// has openssl verify its time-stamp token: issued by the authority's CA,
// over the signature value, at the authority's time.
func mustOpensslToken(t *testing.T, sealed []byte, tsa *tsatest.TSA) {
	t.Helper()
	testtools.Need(t, "pdfsig", "openssl")
	dir := t.TempDir()
	pdfPath := filepath.Join(dir, "sealed.pdf")
	if err := os.WriteFile(pdfPath, sealed, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("pdfsig", "-dump", pdfPath)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pdfsig -dump: %v\n%s", err, out)
	}
	dump, err := os.ReadFile(filepath.Join(dir, "sealed.pdf.sig0"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := parseCMS(dump)
	if err != nil {
		t.Fatalf("the dumped signature: %v", err)
	}
	token, ok := attrValue(p.si.UnsignedAttrs, oidSignatureStamp)
	if !ok {
		t.Fatal("the dumped signature has no time-stamp token")
	}
	tokenPath := filepath.Join(dir, "token.der")
	caPath := filepath.Join(dir, "ca.pem")
	os.WriteFile(tokenPath, token, 0o600)
	os.WriteFile(caPath, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: tsa.CA.Raw}), 0o600)
	out, ok := run(t, "openssl", "ts", "-verify", "-digest", hex.EncodeToString(sha256Sum(p.si.Signature)),
		"-in", tokenPath, "-token_in", "-CAfile", caPath)
	if !ok || !strings.Contains(out, "Verification: OK") {
		t.Errorf("openssl ts -verify: %s", out)
	}
	out, _ = run(t, "openssl", "ts", "-reply", "-in", tokenPath, "-token_in", "-text")
	if !strings.Contains(out, "Time stamp: Nov 22 09:00:00 2026 GMT") {
		t.Errorf("openssl shows no time-stamp of the authority's time:\n%s", out)
	}
}
