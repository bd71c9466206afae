package pdf

// column is one column of a table; the widths of a table's columns add up
// to contentW at most.
type column struct {
	title string
	width float64
	right bool // right-align, for numbers
	bold  bool
}

// table draws rows of wrapped cells that flow over pages: a row that does
// not fit moves to the next page (or is split line by line if it is taller
// than a page), and the header row is repeated at the top of each new page.
type table struct {
	w      *writer
	cols   []column
	size   float64
	header bool    // print the column titles as a header row
	grid   bool    // draw cell borders
	headH  float64 // height of the header row, set by start
}

// Cell padding and shading in points and grey levels.
const (
	cellPad   = 3.0
	plainPad  = 1.5 // vertical padding of borderless rows
	shadeGrey = 232
	gridGrey  = 150
)

// padY is the space above and below the text of a cell.
func (t *table) padY() float64 {
	if t.grid {
		return cellPad
	}
	return plainPad
}

// start prints the header, on a new page unless it fits here together with
// the first line of a row.
func (t *table) start() {
	if t.header {
		_, n := t.lines(t.titles(), true)
		t.headH = float64(n)*t.size*leading + 2*t.padY()
	}
	t.w.ensure(t.headH + t.size*leading + 2*t.padY())
	if t.header {
		t.drawHeader()
	}
}

func (t *table) titles() []string {
	s := make([]string, len(t.cols))
	for i, c := range t.cols {
		s[i] = c.title
	}
	return s
}

func (t *table) drawHeader() {
	lines, n := t.lines(t.titles(), true)
	t.draw(lines, 0, n, true, true)
}

// lines wraps each cell to its column and returns the row's line count.
func (t *table) lines(cells []string, bold bool) ([][]string, int) {
	out := make([][]string, len(t.cols))
	n := 1
	for i, c := range t.cols {
		t.w.font(bold || c.bold, t.size)
		if i < len(cells) {
			out[i] = t.w.wrap(cells[i], c.width-2*cellPad)
		}
		n = max(n, len(out[i]))
	}
	return out, n
}

// room is how many lines of a row fit between y and the page end.
func (t *table) room(y float64) int {
	return int((contentEnd - y - 2*t.padY()) / (t.size * leading))
}

// row prints one row; bold and shade mark totals.
func (t *table) row(cells []string, bold, shade bool) {
	w := t.w
	lines, n := t.lines(cells, bold)
	fresh := marginTop + t.headH
	for from := 0; from < n && w.err == nil; {
		need, room := n-from, t.room(w.y)
		if room < need && (room < 1 || need <= t.room(fresh)) {
			w.newPage()
			if t.header {
				t.drawHeader()
			}
			room = t.room(w.y)
		}
		k := min(need, room)
		t.draw(lines, from, from+k, bold, shade)
		from += k
	}
}

// draw prints lines [from, to) of a row at the writer's y and moves y below.
func (t *table) draw(lines [][]string, from, to int, bold, shade bool) {
	w := t.w
	lh := t.size * leading
	h := float64(to-from)*lh + 2*t.padY()
	// Borderless text lines up with the margin, as paragraphs do.
	x := marginX
	if !t.grid {
		x -= cellPad
	}
	w.pdf.SetLineWidth(0.4)
	w.pdf.SetStrokeColor(gridGrey, gridGrey, gridGrey)
	for i, c := range t.cols {
		switch {
		case shade && t.grid:
			w.pdf.SetFillColor(shadeGrey, shadeGrey, shadeGrey)
			w.pdf.RectFromUpperLeftWithStyle(x, w.y, c.width, h, "FD")
		case shade:
			w.pdf.SetFillColor(shadeGrey, shadeGrey, shadeGrey)
			w.pdf.RectFromUpperLeftWithStyle(x, w.y, c.width, h, "F")
		case t.grid:
			w.pdf.RectFromUpperLeftWithStyle(x, w.y, c.width, h, "D")
		}
		w.font(bold || c.bold, t.size)
		for j := from; j < to && j < len(lines[i]); j++ {
			y := w.y + t.padY() + float64(j-from)*lh + (lh-t.size)/2
			if c.right {
				w.textRight(x+c.width-cellPad, y, lines[i][j])
			} else {
				w.text(x+cellPad, y, lines[i][j])
			}
		}
		x += c.width
	}
	w.y += h
}

// keyValues prints label: value pairs as a borderless two-column table.
func (w *writer) keyValues(pairs ...[2]string) {
	const labelW = 150.0
	t := &table{w: w, size: sizeText, cols: []column{
		{width: labelW, bold: true},
		{width: contentW - labelW},
	}}
	for _, p := range pairs {
		if p[1] == "" {
			continue
		}
		t.row([]string{p[0] + ":", p[1]}, false, false)
	}
}
