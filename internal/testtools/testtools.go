// Package testtools finds the outside tools tests drive (PDF tools,
// Chromium): a test skips without them on a developer machine, and fails
// when CONTRACTS_REQUIRE_TOOLS=1 (CI) says they must be there.
package testtools

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Need returns the path of each named tool, skipping or failing the test
// when one is missing.
func Need(tb testing.TB, names ...string) []string {
	tb.Helper()
	paths := make([]string, 0, len(names))
	for _, name := range names {
		p, err := exec.LookPath(name)
		if err != nil {
			if os.Getenv("CONTRACTS_REQUIRE_TOOLS") == "1" {
				tb.Fatalf("%s not found and CONTRACTS_REQUIRE_TOOLS=1 (apt-get install chromium poppler-utils qpdf)", name)
			}
			tb.Skipf("%s not found (apt-get install chromium poppler-utils qpdf)", name)
		}
		paths = append(paths, p)
	}
	return paths
}

// PDFText checks a PDF with qpdf and returns its text from pdftotext.
func PDFText(tb testing.TB, pdf []byte) string {
	tb.Helper()
	Need(tb, "pdftotext", "qpdf")
	path := filepath.Join(tb.TempDir(), "doc.pdf")
	if err := os.WriteFile(path, pdf, 0o600); err != nil {
		tb.Fatal(err)
	}
	if out, err := exec.Command("qpdf", "--check", path).CombinedOutput(); err != nil {
		tb.Fatalf("qpdf --check: %v\n%s", err, out)
	}
	out, err := exec.Command("pdftotext", path, "-").Output()
	if err != nil {
		tb.Fatalf("pdftotext: %v", err)
	}
	return string(out)
}
