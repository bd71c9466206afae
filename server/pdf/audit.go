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
	w.heading(w.t["audit"], 40)
	t := &table{w: w, size: 7.5, header: true, grid: true, cols: []column{
		{title: w.t["at"], width: 72},
		{title: w.t["event"], width: 92},
		{title: w.t["actor"], width: 76},
		{title: w.t["ip"], width: 70},
		{title: w.t["userAgent"], width: 120},
		{title: w.t["method"], width: contentW - 430},
	}}
	t.start()
	for _, a := range d.Audit {
		actor := a.Actor
		if a.ActorIN != "" && a.ActorIN != a.Actor {
			actor += "\n" + a.ActorIN
		}
		t.row([]string{a.At, a.Label, actor, a.IP, a.UserAgent, a.Method}, false, false)
	}

	w.heading(w.t["hash"], sizeText*leading)
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
	w.paragraph(w.t["verifyQR"], false, sizeSmall)
	w.paragraph(d.VerifyURL, false, sizeSmall)
}
