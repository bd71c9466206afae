package pdf

import (
	"strings"
	"testing"
)

func TestWrap(t *testing.T) {
	pdf, err := newPDF()
	if err != nil {
		t.Fatal(err)
	}
	w := &writer{pdf: pdf}
	w.font(false, sizeText)
	const max = 120.0
	long := strings.Repeat("Oʻzbekiston", 10)
	text := "Shartnoma  tuzildi\n\nИванов " + long + " end"
	lines := w.wrap(text, max)
	for _, line := range lines {
		if width := w.width(line); width > max {
			t.Errorf("line %q is %.1f wide, more than %.0f", line, width, max)
		}
	}
	if lines[0] != "Shartnoma tuzildi" || lines[1] != "" {
		t.Errorf("paragraphs not kept: %q", lines[:2])
	}
	if !strings.Contains(strings.Join(lines, ""), long) || !strings.HasSuffix(lines[len(lines)-1], "end") {
		t.Errorf("wrapping lost text: %q", lines)
	}
	if w.err != nil {
		t.Fatal(w.err)
	}
}
