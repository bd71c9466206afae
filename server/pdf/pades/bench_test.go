package pades

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"testing"

	"contracts/internal/testtools"
	"contracts/server/pdf"
)

// TestBenchDocumentPages: the benchmark's contract is two pages.
func TestBenchDocumentPages(t *testing.T) {
	testtools.Need(t, "pdfinfo")
	out, _ := run(t, "pdfinfo", writeTemp(t, "c.pdf", mustRender(t, "uz")))
	for _, line := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(line, "Pages:"); ok {
			if n, _ := strconv.Atoi(strings.TrimSpace(v)); n != 2 {
				t.Fatalf("%d pages, want 2", n)
			}
			return
		}
	}
	t.Fatalf("pdfinfo printed no page count:\n%s", out)
}

// BenchmarkRenderSeal is a download: render a two-page contract and seal it
// with the generated RSA-3072 seal (budget: 25 ms).
func BenchmarkRenderSeal(b *testing.B) {
	id, _ := generated(b)
	s := mustSealer(b, id, nil, nil)
	doc := sampleDocument("uz")
	var buf bytes.Buffer
	var size int
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		if err := pdf.Render(&buf, doc); err != nil {
			b.Fatal(err)
		}
		out, err := s.Seal(context.Background(), sampleSeal("uz", buf.Bytes()))
		if err != nil {
			b.Fatal(err)
		}
		size = len(out)
	}
	b.ReportMetric(float64(size), "bytes/pdf")
}

// BenchmarkSeal is the seal alone, on a rendered contract.
func BenchmarkSeal(b *testing.B) {
	id, _ := generated(b)
	s := mustSealer(b, id, nil, nil)
	d := sampleSeal("uz", mustRender(b, "uz"))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Seal(context.Background(), d); err != nil {
			b.Fatal(err)
		}
	}
}
