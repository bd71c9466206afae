package pdf

import (
	"strconv"
	"strings"

	"contracts/server/document"
	"contracts/server/i18n"

	"github.com/signintech/gopdf"
)

// Page geometry in points (A4 portrait).
const (
	pageW      = 595.28
	pageH      = 841.89
	marginX    = 50.0
	marginTop  = 50.0
	contentW   = pageW - 2*marginX
	contentEnd = pageH - 62 // lowest y that content may reach
	footerLine = pageH - 48
	footerText = pageH - 42
)

// Text sizes in points.
const (
	sizeTitle   = 16.0
	sizeHeading = 11.5
	sizeText    = 9.5
	sizeSmall   = 8.0
	leading     = 1.35 // line height as a multiple of the font size
)

// writer draws flowing content top to bottom, adding pages as needed. The
// first error sticks: later calls do nothing and Render returns it.
type writer struct {
	pdf   *gopdf.GoPdf
	t     i18n.Dict // the document's words
	d     *document.Doc
	y     float64
	pages int
	err   error
	bold  bool
	size  float64
}

// fail keeps the first error.
func (w *writer) fail(err error) {
	if w.err == nil && err != nil {
		w.err = err
	}
}

// newPage starts a page. It draws the footer rule at once so that every page
// owns a content stream in page order, which the footer pass relies on.
func (w *writer) newPage() {
	w.pdf.AddPage()
	w.pages++
	w.pdf.SetLineWidth(0.5)
	w.pdf.SetStrokeColor(170, 170, 170)
	w.pdf.Line(marginX, footerLine, pageW-marginX, footerLine)
	w.y = marginTop
	if w.pages > 1 {
		w.font(false, sizeSmall)
		w.pdf.SetTextColor(110, 110, 110)
		w.text(marginX, marginTop-22, w.truncate(w.d.Title, contentW))
		w.pdf.SetTextColor(0, 0, 0)
	}
}

// footers writes "page N of M" on every page once the page count is known.
func (w *writer) footers() {
	w.font(false, sizeSmall)
	w.pdf.SetTextColor(110, 110, 110)
	for n := 1; n <= w.pages; n++ {
		w.fail(w.pdf.SetPage(n))
		w.text(marginX, footerText, w.t["number"]+" "+w.d.Number)
		w.textRight(pageW-marginX, footerText, w.t.F("pdfPage", "n", strconv.Itoa(n), "m", strconv.Itoa(w.pages)))
	}
}

// ensure starts a new page unless h more points fit on this one.
func (w *writer) ensure(h float64) {
	if w.y+h > contentEnd {
		w.newPage()
	}
}

// font selects the face and size for the following text and measurements.
func (w *writer) font(bold bool, size float64) {
	if w.err != nil || (w.bold == bold && w.size == size) {
		return
	}
	family := fontRegular
	if bold {
		family = fontBold
	}
	w.fail(w.pdf.SetFont(family, "", size))
	w.bold, w.size = bold, size
}

// lineH is the line height of the current font.
func (w *writer) lineH() float64 { return w.size * leading }

// text draws s with its top-left corner at x, y.
func (w *writer) text(x, y float64, s string) {
	if w.err != nil || s == "" {
		return
	}
	w.pdf.SetXY(x, y)
	w.fail(w.pdf.Cell(nil, s))
}

// textRight draws s so that it ends at x.
func (w *writer) textRight(x, y float64, s string) {
	w.text(x-w.width(s), y, s)
}

// width measures s in the current font.
func (w *writer) width(s string) float64 {
	if w.err != nil {
		return 0
	}
	v, err := w.pdf.MeasureTextWidth(s)
	w.fail(err)
	return v
}

// wrap breaks s into lines no wider than max in the current font. Newlines
// start new lines; a word wider than max is split between characters.
func (w *writer) wrap(s string, max float64) []string {
	var lines []string
	space := w.width(" ")
	for _, para := range strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n") {
		var line strings.Builder
		lineW := 0.0
		flush := func() {
			lines = append(lines, line.String())
			line.Reset()
			lineW = 0
		}
		words := strings.FieldsFunc(para, func(r rune) bool { return r == ' ' || r == '\t' })
		for _, word := range words {
			ww := w.width(word)
			switch {
			case line.Len() > 0 && lineW+space+ww <= max:
				line.WriteByte(' ')
				line.WriteString(word)
				lineW += space + ww
				continue
			case line.Len() > 0:
				flush()
			}
			if ww > max {
				word, ww = w.splitWord(word, max, &lines)
			}
			line.WriteString(word)
			lineW = ww
		}
		flush()
	}
	return lines
}

// splitWord appends to lines the full-width pieces of a word wider than max
// and returns the remaining tail with its width.
func (w *writer) splitWord(word string, max float64, lines *[]string) (string, float64) {
	start, cur := 0, 0.0
	for i, r := range word {
		rw := w.width(string(r))
		if cur+rw > max && i > start {
			*lines = append(*lines, word[start:i])
			start, cur = i, 0
		}
		cur += rw
	}
	return word[start:], cur
}

// truncate shortens s with an ellipsis to fit max.
func (w *writer) truncate(s string, max float64) string {
	if w.width(s) <= max {
		return s
	}
	r := []rune(s)
	for len(r) > 0 && w.width(string(r)+"…") > max {
		r = r[:len(r)-1]
	}
	return string(r) + "…"
}

// paragraph flows wrapped text over the content width, breaking pages
// between lines.
func (w *writer) paragraph(s string, bold bool, size float64) {
	w.font(bold, size)
	for _, line := range w.wrap(s, contentW) {
		w.ensure(w.lineH())
		w.font(bold, size)
		w.text(marginX, w.y, line)
		w.y += w.lineH()
	}
}

// heading prints a section title with a rule under it, kept with at least
// keep points of what follows.
func (w *writer) heading(s string, keep float64) {
	w.y += 9
	w.font(true, sizeHeading)
	w.ensure(w.lineH() + 6 + keep)
	w.font(true, sizeHeading)
	w.text(marginX, w.y, s)
	w.y += w.lineH() + 1
	w.pdf.SetLineWidth(0.8)
	w.pdf.SetStrokeColor(60, 60, 60)
	w.pdf.Line(marginX, w.y, pageW-marginX, w.y)
	w.y += 5
}
