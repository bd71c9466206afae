package pdf

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/signintech/gopdf"
)

// Render writes the PDF of d to w: the contract pages, then an audit-trail
// page with the document hash and a QR code of d.VerifyURL. It waits for a
// slot of the document's lane.
func Render(w io.Writer, d Document) error {
	return renderIn(context.Background(), w, &d)
}

// renderIn is Render waiting for its slot only while ctx lasts; a large
// document is ErrBusy while the heavy lane's queue is full.
func renderIn(ctx context.Context, w io.Writer, d *Document) error {
	l := laneFor(d)
	if err := l.acquire(ctx); err != nil {
		return err
	}
	defer l.release()
	_, err := render(w, d)
	return err
}

// render writes the PDF and returns its page count.
func render(out io.Writer, d *Document) (int, error) {
	pdf, err := newPDF()
	if err != nil {
		return 0, err
	}
	pdf.SetInfo(gopdf.PdfInfo{Title: d.Title + " " + d.Number, Creator: "contracts", CreationDate: d.Date})
	w := &writer{pdf: pdf, l: labelsFor(d.Lang), d: d}
	pdf.SetTextColor(0, 0, 0)
	w.newPage()
	w.title()
	w.parties()
	if body := strings.TrimSpace(d.Body); body != "" {
		w.heading(w.l.terms, sizeText*leading)
		w.paragraph(body, false, sizeText)
	}
	if len(d.Values) > 0 {
		w.heading(w.l.details, sizeText*leading)
		for _, v := range d.Values {
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
		[2]string{w.l.number, w.d.Number},
		[2]string{w.l.date, formatDate(w.d.Date)},
		[2]string{w.l.status, w.l.state(w.d.Status)},
	)
}

// parties prints seller and buyer side by side.
func (w *writer) parties() {
	w.heading(w.l.parties, 40)
	t := &table{w: w, size: sizeText, header: true, grid: true, cols: []column{
		{title: w.d.SellerLabel, width: contentW / 2},
		{title: w.d.BuyerLabel, width: contentW / 2},
	}}
	t.start()
	t.row([]string{w.d.Seller.Name, w.d.Buyer.Name}, true, false)
	t.row([]string{w.partyDetails(w.d.Seller), w.partyDetails(w.d.Buyer)}, false, false)
}

// partyDetails lists a party's numbers under its name: the TIN and address of
// a company; the PINFL, passport and address of a person.
func (w *writer) partyDetails(p Party) string {
	var lines []string
	line := func(label, v string) {
		if v != "" {
			lines = append(lines, label+": "+v)
		}
	}
	if p.Type == PartyCompany {
		line(w.l.tin, p.IN)
	} else {
		line(w.l.pinfl, p.IN)
		line(w.l.passport, p.Passport)
	}
	line(w.l.address, p.Address)
	return strings.Join(lines, "\n")
}

// products prints the products table with a grand total row.
func (w *writer) products() {
	d := w.d
	if len(d.Products) == 0 {
		return
	}
	w.heading(w.l.products, 40)
	money := func(s string) string { return s + ", " + d.Currency }
	t := &table{w: w, size: 8.5, header: true, grid: true, cols: []column{
		{title: w.l.no, width: 26, right: true},
		{title: w.l.name, width: 163},
		{title: w.l.unit, width: 54},
		{title: w.l.qty, width: 48, right: true},
		{title: money(w.l.price), width: 92, right: true},
		{title: money(w.l.amount), width: 112, right: true},
	}}
	t.start()
	var total int64
	for i, p := range d.Products {
		total += p.Amount
		t.row([]string{strconv.Itoa(i + 1), p.Name, p.Unit, formatQuantity(p.Quantity),
			FormatMoney(p.Price, ""), FormatMoney(p.Amount, "")}, false, false)
	}
	t.row([]string{"", w.l.total, "", "", "", FormatMoney(total, d.Currency)}, true, true)
}

// payments prints the price, the initial payment, the schedule and the
// delivery date.
func (w *writer) payments() {
	d := w.d
	w.heading(w.l.payment, 40)
	w.keyValues(
		[2]string{w.l.contractPrice, FormatMoney(d.Price, d.Currency)},
		[2]string{w.l.initialPayment, FormatMoney(d.InitialPayment, d.Currency)},
	)
	if len(d.Payments) > 0 {
		w.y += 6
		w.font(true, sizeText)
		w.ensure(w.lineH() + 40)
		w.font(true, sizeText)
		w.text(marginX, w.y, w.l.schedule)
		w.y += w.lineH() + 2
		t := &table{w: w, size: 8.5, header: true, grid: true, cols: []column{
			{title: w.l.no, width: 26, right: true},
			{title: w.l.dueDate, width: 120},
			{title: w.l.amount + ", " + d.Currency, width: 130, right: true},
		}}
		t.start()
		for i, p := range d.Payments {
			t.row([]string{strconv.Itoa(i + 1), formatDate(p.Date), FormatMoney(p.Amount, "")}, false, false)
		}
	}
	if d.DeliveryAt != nil {
		w.y += 6
		w.keyValues([2]string{w.l.delivery, formatDate(*d.DeliveryAt)})
	}
}

// witnesses prints a numbered list of witnesses.
func (w *writer) witnesses() {
	if len(w.d.Witnesses) == 0 {
		return
	}
	w.heading(w.l.witnesses, sizeText*leading)
	for i, name := range w.d.Witnesses {
		w.paragraph(fmt.Sprintf("%d. %s", i+1, name), false, sizeText)
	}
}

// signatures prints one row per party: status, method and time.
func (w *writer) signatures() {
	if len(w.d.Signatures) == 0 {
		return
	}
	w.heading(w.l.signatures, 40)
	t := &table{w: w, size: 8.5, header: true, grid: true, cols: []column{
		{title: w.l.party, width: 70, bold: true},
		{title: w.l.signer, width: 150},
		{title: w.l.status, width: 75},
		{title: w.l.method, width: 70},
		{title: w.l.at, width: contentW - 365},
	}}
	t.start()
	for _, s := range w.d.Signatures {
		at := ""
		if s.At != nil {
			at = formatTime(*s.At)
		}
		t.row([]string{s.Role, s.Name, w.l.state(s.Status), w.l.state(s.Method), at}, false, false)
	}
}
