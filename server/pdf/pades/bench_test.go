package pades

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"contracts/internal/testtools"
)

// TestSampleDocumentPages: the sample contract is two pages.
func TestSampleDocumentPages(t *testing.T) {
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

// BenchmarkSeal is the seal alone, with the generated RSA-3072 seal, on a
// two-page PDF; a whole download (render and seal, through the PDF
// cache's miss) is server/pdf's BenchmarkSealedDownload.
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
