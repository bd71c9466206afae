package pdf

import (
	"fmt"

	"github.com/signintech/gopdf"
	"github.com/skip2/go-qrcode"
)

// qrSize is the printed side of the QR code in points.
const qrSize = 120.0

// auditPage starts a page with the audit trail, then prints the document
// hash and the QR code of the verification URL.
func (w *writer) auditPage() {
	d := w.d
	w.newPage()
	w.heading(w.l.audit, 40)
	t := &table{w: w, size: 7.5, header: true, grid: true, cols: []column{
		{title: w.l.at, width: 108},
		{title: w.l.event, width: 70},
		{title: w.l.actor, width: 80},
		{title: w.l.ip, width: 70},
		{title: w.l.userAgent, width: 112},
		{title: w.l.method, width: contentW - 440},
	}}
	t.start()
	for _, a := range d.Audit {
		t.row([]string{formatTime(a.At), a.Event, a.Actor, a.IP, a.UserAgent, w.l.state(a.Method)}, false, false)
	}

	w.heading(w.l.hash, sizeText*leading)
	w.paragraph(d.Hash, false, sizeText)
	if d.VerifyURL == "" {
		return
	}
	w.y += 10
	w.font(false, sizeSmall)
	w.ensure(qrSize + 2*w.lineH())
	qr, err := qrcode.New(d.VerifyURL, qrcode.Medium)
	if err != nil {
		w.fail(fmt.Errorf("qr code: %w", err))
		return
	}
	// The page around it is white: no need for the code's own quiet zone.
	qr.DisableBorder = true
	// A few pixels per module keep it sharp and cheap to encode.
	png, err := qr.PNG(-6)
	if err != nil {
		w.fail(fmt.Errorf("qr code: %w", err))
		return
	}
	img, err := gopdf.ImageHolderByBytes(png)
	if err != nil {
		w.fail(fmt.Errorf("qr code image: %w", err))
		return
	}
	w.fail(w.pdf.ImageByHolder(img, marginX, w.y, &gopdf.Rect{W: qrSize, H: qrSize}))
	w.y += qrSize + 4
	w.paragraph(w.l.verify, false, sizeSmall)
	w.paragraph(d.VerifyURL, false, sizeSmall)
}
