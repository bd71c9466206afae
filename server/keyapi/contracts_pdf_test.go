package keyapi

import (
	"bytes"
	"strings"
	"testing"

	"contracts/internal/fixture"
	"contracts/internal/testtools"
	"contracts/server/document"
	"contracts/signflow"
)

func TestContractPDF(t *testing.T) {
	e := newEnv(t, 0)
	id := e.create(e.KeyA.Secret, e.sale("values", []map[string]any{{"keyName": "deliveryAddress", "value": "Chilonzor 7"}}))
	other := e.create(e.KeyA.Secret, e.sale("templateId", e.Other.ID))
	var c *signflow.Contract
	fixture.Must(t, func() error {
		return e.DB.View(func(tx signflow.Tx) (err error) { c, err = tx.Contract(id); return err })
	})
	verify := verifyBase + "/verify/" + id + "?h=" + c.Hash[:16]

	for _, sc := range []struct{ query, label, lang string }{{"", "Sotuvchi", "uz"}, {"?lang=uz", "Sotuvchi", "uz"}, {"?lang=ru", "Продавец", "ru"}, {"?lang=en", "Seller", "en"}} {
		t.Run("lang "+sc.query, func(t *testing.T) {
			r := e.do("GET", "/v1/contracts/"+id+"/pdf"+sc.query, e.KeyA.Secret, nil)
			if r.status != 200 || r.header.Get("Content-Type") != "application/pdf" || !bytes.HasPrefix(r.body, []byte("%PDF-")) {
				t.Fatalf("status %d, type %q, body %.20q", r.status, r.header.Get("Content-Type"), r.body)
			}
			if cd := r.header.Get("Content-Disposition"); !strings.Contains(cd, c.Number+".pdf") {
				t.Errorf("Content-Disposition %q", cd)
			}
			text := testtools.PDFText(t, r.body)
			flat := strings.Join(strings.Fields(text), "")
			// The audit trail names its events in the document's words, never by their codes.
			created := document.Words(sc.lang)["event."+signflow.EventCreated]
			if strings.Contains(text, signflow.EventCreated) {
				t.Errorf("PDF text shows the event code %s", signflow.EventCreated)
			}
			for _, want := range []string{c.Number, sc.label, "Alpha Savdo MChJ", "Chilonzor 7", created, c.Hash} {
				if !strings.Contains(text, want) && !strings.Contains(flat, want) {
					t.Errorf("PDF text lacks %q", want)
				}
			}
			if !strings.Contains(flat, verify) {
				t.Errorf("PDF text lacks the verify URL %s:\n%s", verify, text)
			}
		})
	}
	e.run(t, []scenario{
		{name: "unknown lang", method: "GET", path: "/v1/contracts/" + id + "/pdf?lang=de", key: e.KeyA.Secret, status: 400,
			want: []string{"lang: must be uz, ru or en"}},
		{name: "another owner", method: "GET", path: "/v1/contracts/" + id + "/pdf", key: e.KeyB.Secret, status: 403},
		{name: "template outside the key", method: "GET", path: "/v1/contracts/" + other + "/pdf", key: e.LimitedKey.Secret, status: 403},
		{name: "unknown contract", method: "GET", path: "/v1/contracts/" + signflow.NewID() + "/pdf", key: e.KeyA.Secret, status: 404},
	})
}
