package pdf

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"contracts/server/document"
)

// needTools skips the test when a PDF tool is missing, or fails it when
// CONTRACTS_REQUIRE_TOOLS=1 says the tools must be there.
func needTools(tb testing.TB, names ...string) {
	tb.Helper()
	for _, name := range names {
		if _, err := exec.LookPath(name); err != nil {
			if os.Getenv("CONTRACTS_REQUIRE_TOOLS") == "1" {
				tb.Fatalf("%s not found and CONTRACTS_REQUIRE_TOOLS=1 (apt-get install poppler-utils qpdf)", name)
			}
			tb.Skipf("%s not found (apt-get install poppler-utils qpdf)", name)
		}
	}
}

// MustRenderFile renders d into a file in a temporary directory and returns
// its path and the page count render reported.
func MustRenderFile(tb testing.TB, d *document.Doc) (string, int) {
	tb.Helper()
	var buf bytes.Buffer
	pages, err := render(&buf, d)
	if err != nil {
		tb.Fatalf("render: %v", err)
	}
	path := filepath.Join(tb.TempDir(), "contract.pdf")
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		tb.Fatal(err)
	}
	return path, pages
}

// MustRun runs a tool and returns its standard output.
func MustRun(tb testing.TB, name string, args ...string) string {
	tb.Helper()
	cmd := exec.Command(name, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		tb.Fatalf("%s %s: %v\n%s%s", name, strings.Join(args, " "), err, out, stderr.String())
	}
	return string(out)
}

// MustCheckPDF fails unless qpdf finds the file structurally sound.
func MustCheckPDF(tb testing.TB, path string) {
	tb.Helper()
	MustRun(tb, "qpdf", "--check", path)
}

// MustText returns the text of each page, as pdftotext -layout lays it out.
func MustText(tb testing.TB, path string) []string {
	tb.Helper()
	pages := strings.Split(MustRun(tb, "pdftotext", "-layout", path, "-"), "\f")
	if n := len(pages); n > 0 && strings.TrimSpace(pages[n-1]) == "" {
		pages = pages[:n-1]
	}
	return pages
}

// MustPageCount reads the page count with pdfinfo.
func MustPageCount(tb testing.TB, path string) int {
	tb.Helper()
	for _, line := range strings.Split(MustRun(tb, "pdfinfo", path), "\n") {
		if v, ok := strings.CutPrefix(line, "Pages:"); ok {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				tb.Fatalf("pdfinfo pages %q: %v", v, err)
			}
			return n
		}
	}
	tb.Fatalf("pdfinfo printed no page count for %s", path)
	return 0
}
