package keyapi

import (
	"strings"
	"testing"

	"contracts/internal/apitest"
	"contracts/internal/testtools"
	"contracts/server/document"
	"contracts/signflow"
)

func TestContractPDF(t *testing.T) {
	e := newEnv(t, 0)
	id := e.create(e.KeyA.Secret, e.sale("values", []map[string]any{{"keyName": "deliveryAddress", "value": "Chilonzor 7"}}))
	other := e.create(e.KeyA.Secret, e.sale("templateId", e.Other.ID))
	c := e.StoredContract(t, id)
	verify := verifyBase + "/verify/" + id + "?h=" + c.Hash[:16]

	for _, sc := range []struct{ query, label, lang string }{
		{label: "Sotuvchi", lang: "uz"},
		{query: "?lang=uz", label: "Sotuvchi", lang: "uz"},
		{query: "?lang=ru", label: "Продавец", lang: "ru"},
		{query: "?lang=en", label: "Seller", lang: "en"},
	} {
		t.Run("lang "+sc.query, func(t *testing.T) {
			r := e.do("GET", "/v1/contracts/"+id+"/pdf"+sc.query, e.KeyA.Secret, nil)
			if r.Status != 200 || r.Header.Get("Content-Type") != "application/pdf" || !strings.HasPrefix(r.Body, "%PDF-") {
				t.Fatalf("status %d, type %q, body %.20q", r.Status, r.Header.Get("Content-Type"), r.Body)
			}
			if cd := r.Header.Get("Content-Disposition"); !strings.Contains(cd, c.Number+".pdf") {
				t.Errorf("Content-Disposition %q", cd)
			}
			text := testtools.PDFText(t, []byte(r.Body))
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
			// The QR of a ru or en PDF opens the verify page in its language.
			want := verify
			if sc.lang != "uz" {
				want += "&lang=" + sc.lang
			}
			if !strings.Contains(flat, want) || (sc.lang == "uz" && strings.Contains(flat, verify+"&lang")) {
				t.Errorf("PDF text lacks the verify URL %s:\n%s", want, text)
			}
		})
	}
	apitest.Run(t, e.api, []apitest.Scenario{
		{Name: "unknown lang", Method: "GET", Path: "/v1/contracts/" + id + "/pdf?lang=de", As: e.KeyA.Secret, Status: 400,
			Want: []string{"lang: must be uz, ru or en"}},
		{Name: "another owner", Method: "GET", Path: "/v1/contracts/" + id + "/pdf", As: e.KeyB.Secret, Status: 403},
		{Name: "template outside the key", Method: "GET", Path: "/v1/contracts/" + other + "/pdf", As: e.LimitedKey.Secret, Status: 403},
		{Name: "unknown contract", Method: "GET", Path: "/v1/contracts/" + signflow.NewID() + "/pdf", As: e.KeyA.Secret, Status: 404},
	})
}
