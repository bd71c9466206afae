package pdf

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"contracts/server/document"

	"github.com/signintech/gopdf"
)

// Render writes the PDF of d to w: the contract pages, then an audit-trail
// page with the document hash and a QR code of d.VerifyURL. It waits for a
// slot of the document's lane.
func Render(w io.Writer, d *document.Doc) error {
	return renderIn(context.Background(), w, d)
}

// renderIn is Render waiting for its slot only while ctx lasts; a large
// document is ErrBusy while the heavy lane's queue is full.
func renderIn(ctx context.Context, w io.Writer, d *document.Doc) error {
	l := laneFor(d)
	if err := l.acquire(ctx); err != nil {
		return err
	}
	defer l.release()
	_, err := render(w, d)
	return err
}

// render writes the PDF and returns its page count.
func render(out io.Writer, d *document.Doc) (int, error) {
	pdf, err := newPDF()
	if err != nil {
		return 0, err
	}
	pdf.SetInfo(gopdf.PdfInfo{Title: d.Title + " " + d.Number, Creator: "contracts", CreationDate: d.Created})
	w := &writer{pdf: pdf, t: d.T, d: d}
	if w.t == nil {
		w.t = document.Words(d.Lang)
	}
	pdf.SetTextColor(0, 0, 0)
	w.newPage()
	w.title()
	w.parties()
	if body := strings.TrimSpace(d.Body); body != "" {
		w.heading(w.t["body"], sizeText*leading)
		w.paragraph(body, false, sizeText)
	}
	if len(d.Terms) > 0 {
		w.heading(w.t["terms"], sizeText*leading)
		for _, v := range d.Terms {
			w.keyValues([2]string{v.Label, v.Value})
		}
	}
	w.products()
	w.payments()
	w.witnesses()
	w.signatures()
	w.auditPage()
	w.footers()
	if w.err != nil {
		return 0, fmt.Errorf("render contract pdf: %w", w.err)
	}
	if err := pdf.Write(out); err != nil {
		return 0, fmt.Errorf("write contract pdf: %w", err)
	}
	return w.pages, nil
}

// newPDF starts an A4 document measured in points, with the fonts added.
func newPDF() (*gopdf.GoPdf, error) {
	pdf := &gopdf.GoPdf{}
	pdf.Start(gopdf.Config{PageSize: *gopdf.PageSizeA4, Unit: gopdf.UnitPT})
	if err := addFonts(pdf); err != nil {
		return nil, err
	}
	return pdf, nil
}

// title prints the centred template name and the number, date and status.
func (w *writer) title() {
	w.font(true, sizeTitle)
	for _, line := range w.wrap(w.d.Title, contentW) {
		w.ensure(w.lineH())
		w.font(true, sizeTitle)
		w.text((pageW-w.width(line))/2, w.y, line)
		w.y += w.lineH()
	}
	w.y += 8
	w.keyValues(
		[2]string{w.t["number"], w.d.Number},
		[2]string{w.t["date"], w.d.Date},
		[2]string{w.t["status"], w.d.StatusText},
	)
}

// parties prints seller and buyer side by side.
func (w *writer) parties() {
	if len(w.d.Parties) == 0 {
		return
	}
	w.heading(w.t["parties"], 40)
	cols := make([]column, len(w.d.Parties))
	names, details := make([]string, len(w.d.Parties)), make([]string, len(w.d.Parties))
	for i, p := range w.d.Parties {
		cols[i] = column{title: p.Role, width: contentW / float64(len(w.d.Parties))}
		names[i], details[i] = p.Name, w.partyDetails(p)
	}
	t := &table{w: w, size: sizeText, header: true, grid: true, cols: cols}
	t.start()
	t.row(names, true, false)
	t.row(details, false, false)
}

// partyDetails lists a party's numbers under its name: the TIN and address of
// a company; the PINFL, passport and address of a person.
func (w *writer) partyDetails(p document.Party) string {
	var lines []string
	line := func(label, v string) {
		if v != "" {
			lines = append(lines, label+": "+v)
		}
	}
	line(p.IDLabel, p.IN)
	line(w.t["passport"], p.Passport)
	line(w.t["address"], p.Address)
	return strings.Join(lines, "\n")
}

// products prints the goods table, each row with the product's own
// fields under its name, and a grand total row.
func (w *writer) products() {
	d := w.d
	if len(d.Products) == 0 {
		return
	}
	w.heading(w.t["products"], 40)
	t := &table{w: w, size: 8.5, header: true, grid: true, cols: []column{
		{title: w.t["colNo"], width: 26, right: true},
		{title: w.t["colName"], width: 163},
		{title: w.t["colUnit"], width: 54},
		{title: w.t["colQty"], width: 48, right: true},
		{title: d.PriceHeading, width: 92, right: true},
		{title: d.AmountHeading, width: 112, right: true},
	}}
	t.start()
	for _, p := range d.Products {
		name := p.Name
		for _, x := range p.Extra {
			name += "\n" + x.Label + ": " + x.Value
		}
		t.row([]string{strconv.Itoa(p.N), name, p.Unit, p.Qty, p.Price, p.Amount}, false, false)
	}
	t.row([]string{"", w.t["total"], "", "", "", d.ProductsTotal}, true, true)
}

// payments prints the price, the initial payment, the schedule and the
// delivery date.
func (w *writer) payments() {
	d := w.d
	w.heading(w.t["paymentTerms"], 40)
	w.keyValues(
		[2]string{w.t["price"], d.Price},
		[2]string{w.t["initialPayment"], d.Initial},
	)
	if len(d.Payments) > 0 {
		w.y += 6
		w.font(true, sizeText)
		w.ensure(w.lineH() + 40)
		w.font(true, sizeText)
		w.text(marginX, w.y, w.t["schedule"])
		w.y += w.lineH() + 2
		t := &table{w: w, size: 8.5, header: true, grid: true, cols: []column{
			{title: w.t["colNo"], width: 26, right: true},
			{title: w.t["colDate"], width: 120},
			{title: d.AmountHeading, width: 130, right: true},
		}}
		t.start()
		for _, p := range d.Payments {
			t.row([]string{strconv.Itoa(p.N), p.Date, p.Amount}, false, false)
		}
		t.row([]string{"", w.t["total"], d.PaymentsTotal}, true, true)
	}
	if d.Delivery != "" {
		w.y += 6
		w.keyValues([2]string{w.t["deliveryAt"], d.Delivery})
	}
}

// witnesses prints a numbered list of witnesses.
func (w *writer) witnesses() {
	if len(w.d.Witnesses) == 0 {
		return
	}
	w.heading(w.t["witnesses"], sizeText*leading)
	for i, p := range w.d.Witnesses {
		line := fmt.Sprintf("%d. %s", i+1, p.Name)
		if p.IN != "" {
			line += fmt.Sprintf(", %s %s: %s", p.IDLabel, p.IN, p.StatusText)
		}
		w.paragraph(line, false, sizeText)
	}
}

// signatures prints one row per party: status, method and time.
func (w *writer) signatures() {
	if len(w.d.Parties) == 0 {
		return
	}
	w.heading(w.t["signatures"], 40)
	t := &table{w: w, size: 8.5, header: true, grid: true, cols: []column{
		{title: w.t["party"], width: 70, bold: true},
		{title: w.t["signer"], width: 150},
		{title: w.t["status"], width: 85},
		{title: w.t["method"], width: 70},
		{title: w.t["at"], width: contentW - 375},
	}}
	t.start()
	for _, p := range w.d.Parties {
		t.row([]string{p.Role, p.Name, p.StatusText, p.Method, p.SignedAt}, false, false)
	}
	for _, p := range w.d.Witnesses {
		if p.IN != "" {
			t.row([]string{p.Role, p.Name, p.StatusText, p.Method, p.SignedAt}, false, false)
		}
	}
}
