package pdf

import (
	"context"
	"os"
	"sync"
	"testing"

	"contracts/internal/fixture"
	"contracts/server/pdf/pades"
	"contracts/signflow"
)

var (
	generatedOnce sync.Once
	generatedID   *pades.Identity
	generatedErr  error
)

// generatedSeal is the seal the appliance makes on first start (RSA
// 3072), made once per test binary.
func generatedSeal(tb testing.TB) *pades.Identity {
	tb.Helper()
	generatedOnce.Do(func() {
		dir, err := os.MkdirTemp("", "pdf-seal-")
		if err != nil {
			generatedErr = err
			return
		}
		defer os.RemoveAll(dir)
		generatedID, generatedErr = pades.GeneratedIdentity(pades.Dir(dir), "Contracts")
	})
	if generatedErr != nil {
		tb.Fatal(generatedErr)
	}
	return generatedID
}

// benchView is the two-page contract of the download benchmark, with its
// audit trail.
func benchView() (*signflow.ContractView, []*signflow.AuditEvent) {
	v, audit := fixture.SampleView(2, 1)
	v.WitnessIDs = nil
	return v, audit
}

const benchVerifyURL = "https://contracts.example.uz/verify/0192f0aa-7c1e-7d3a-9b1e-5f0c2a1d4e77?h=abababababababab"

// TestBenchContractIsTwoPages: the download benchmark's contract is two
// pages, and sealed by the generated seal.
func TestBenchContractIsTwoPages(t *testing.T) {
	needTools(t, "pdfinfo")
	s, err := pades.NewSealer(generatedSeal(t), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	v, audit := benchView()
	doc, err := NewSealedCache(DefaultCacheBytes, s).Contract(context.Background(), v, audit, "uz", benchVerifyURL)
	if err != nil {
		t.Fatal(err)
	}
	if n := MustPageCount(t, writePDF(t, doc)); n != 2 {
		t.Fatalf("%d pages, want 2", n)
	}
	if r := pades.NewVerifier(s.Certificate()).Verify(doc); !r.Intact {
		t.Fatalf("not an intact seal: %+v", r)
	}
}

// BenchmarkSealedDownload is a download the PDF cache does not hold: the
// digest, the document, the render and the seal with the generated RSA
// 3072 seal and audit.json attached (budget: 25 ms).
func BenchmarkSealedDownload(b *testing.B) {
	s, err := pades.NewSealer(generatedSeal(b), nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	v, audit := benchView()
	var size int
	b.ReportAllocs()
	for b.Loop() {
		doc, err := NewSealedCache(DefaultCacheBytes, s).Contract(context.Background(), v, audit, "uz", benchVerifyURL)
		if err != nil {
			b.Fatal(err)
		}
		size = len(doc)
	}
	b.ReportMetric(float64(size), "bytes/pdf")
}
