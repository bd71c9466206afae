package server_test

import (
	"html"
	"regexp"
	"strings"
	"testing"

	"contracts/internal/testtools"
	"contracts/server/document"
	"contracts/server/verify"
	"contracts/signflow"
)

// One contract, read through every surface that shows it to people (the
// signing page, the cabinet, the verify page and the PDF), says the same
// words and numbers in each language: the status, a money figure, the
// party labels and a party's status, a unit and an audit event, from the
// one document model. No surface shows a raw code instead.
func TestOneDocumentOnEverySurface(t *testing.T) {
	e := newTenancy(t)
	appA, _ := e.alphaAndBeta()
	e.ok(e.emb(appA, "POST", "/v1/clients", person(personN, "Aziz", "Karimov", realPh)), "A registers the person")
	id := e.ok(e.emb(appA, "POST", "/v1/contracts", map[string]any{"templateId": e.template, "buyerIn": personN,
		"price": 4650000, "currency": "UZS", "initialPayment": 1000000,
		"values":   []map[string]any{{"keyName": "deliveryAddress", "value": "Toshkent, Chilonzor 7"}},
		"products": []map[string]any{{"name": "Televizor", "quantity": 2, "price": 2250000, "unit": "DONA"}, {"name": "Kabel", "quantity": 3, "price": 50000, "unit": "DONA"}},
		"payments": []map[string]any{{"amount": 3650000, "paymentDate": "2027-01-22T00:00:00Z"}},
	}), "create")["id"].(string)
	// The person signs through the signing page: the contract waits for A.
	e.signOnPage(appA, id, personN, realPh)

	cabinet := e.visitor()
	cabinet.askCode(personN)
	cabinet.logIn(personN, e.codeTo(realPh))
	for _, lang := range signflow.Languages {
		t.Run(lang, func(t *testing.T) {
			w := document.Words(lang)
			want := []string{w["status.CREATED"], document.Money(465000000, "UZS"), w["tin"],
				w["pinfl"], w["party.ACCEPTED"], w["party.PENDING"], w["unit.DONA"], w["event.CONTRACT_SIGNED"]}
			// What each surface shows: the verify page no money, goods or audit trail; the signing page no audit trail.
			for _, s := range []struct {
				name, text string
				shows      []int
			}{
				{"signing page", e.signingPage(appA, id, ownerA, lang), []int{0, 1, 2, 3, 4, 5, 6}},
				{"cabinet", pageText(cabinet.get("/cabinet/contracts/" + id + "?lang=" + lang).Body), []int{0, 1, 3, 4, 5, 6, 7}},
				{"verify page", e.verifyPage(id, lang), []int{0, 3, 4, 5}},
				{"PDF", e.pdfText(appA, id, lang), []int{0, 1, 2, 3, 4, 5, 6, 7}},
			} {
				for _, i := range s.shows {
					if !strings.Contains(s.text, flat(want[i])) {
						t.Errorf("%s (%s) lacks %q", s.name, lang, want[i])
					}
				}
				for _, code := range []string{"CONTRACT_SIGNED", "DONA", "ACCEPTED", "4650000"} {
					if strings.Contains(s.text, code) {
						t.Errorf("%s (%s) shows the raw %q", s.name, lang, code)
					}
				}
			}
		})
	}
	// The disagreement the model settled: ACTIVE is one word everywhere.
	if w := document.Words("uz")["status.ACTIVE"]; w != "Kuchga kirgan" {
		t.Fatalf("ACTIVE in Uzbek is %q", w)
	}
}

// Once both parties have signed, the cabinet, the verify page and the PDF
// say ACTIVE in the same word, the one the signing page's script puts on
// the card when the second signature lands.
func TestActiveInOneWordOnEverySurface(t *testing.T) {
	e := newTenancy(t)
	e.owner(map[string]any{"in": personX, "type": "CLIENT", "firstName": "Dilnoza", "lastName": "Rahimova", "phone": ownerXPh})
	appX := e.app(personX)
	e.ok(e.emb(appX, "POST", "/v1/clients", person(personN, "Aziz", "Karimov", realPh)), "X registers the person")
	id := e.contract(appX, map[string]any{"buyerIn": personN})
	e.signOnPage(appX, id, personN, realPh)
	pageConfig := e.signingMarkup(appX, id, personX, "uz") // opened before X signs: it still can
	e.signOnPage(appX, id, personX, ownerXPh)

	cabinet := e.visitor()
	cabinet.askCode(personN)
	cabinet.logIn(personN, e.codeTo(realPh))
	for _, lang := range signflow.Languages {
		active := flat(document.Words(lang)["status.ACTIVE"])
		for name, text := range map[string]string{
			"cabinet":     pageText(cabinet.get("/cabinet/contracts/" + id + "?lang=" + lang).Body),
			"verify page": e.verifyPage(id, lang),
			"PDF":         e.pdfText(appX, id, lang),
		} {
			if !strings.Contains(text, active) {
				t.Errorf("%s (%s) lacks %q", name, lang, active)
			}
		}
	}
	if !strings.Contains(pageConfig, `"status.ACTIVE":"Kuchga kirgan"`) {
		t.Errorf("the signing page's script has another word for ACTIVE")
	}
}

// signOnPage signs for the party through the signing page with the SMS code.
func (e *tenancy) signOnPage(app, id, in, phone string) {
	e.t.Helper()
	_, tok := e.session(app, id, in)
	if r := e.page(tok, "code", nil); r.Status != 200 {
		e.t.Fatalf("code: %d %s", r.Status, r.Body)
	}
	if r := e.page(tok, "confirm", map[string]string{"code": e.codeTo(phone)}); r.Status != 200 {
		e.t.Fatalf("confirm: %d %s", r.Status, r.Body)
	}
}

// signingPage opens a session for the party in lang and returns its page's text.
func (e *tenancy) signingPage(app, id, in, lang string) string {
	e.t.Helper()
	return pageText(e.signingMarkup(app, id, in, lang))
}

// signingMarkup opens a session for the party in lang and returns its page.
func (e *tenancy) signingMarkup(app, id, in, lang string) string {
	e.t.Helper()
	r := e.emb(app, "POST", "/v1/contracts/"+id+"/sign-sessions", map[string]any{"signerIn": in, "lang": lang})
	url := e.ok(r, "session")["url"].(string)
	page := e.send(e.embedded.Client(), "GET", e.embedded.URL+url[strings.Index(url, "/sign/"):], nil)
	if page.Status != 200 {
		e.t.Fatalf("signing page: %d", page.Status)
	}
	return page.Body
}

// verifyPage returns the text of the contract's verify page in lang.
func (e *tenancy) verifyPage(id, lang string) string {
	e.t.Helper()
	c, err := verify.StoreLookup(e.w.Service)(id)
	if err != nil {
		e.t.Fatal(err)
	}
	hash := c.Hash
	r := e.send(e.embedded.Client(), "GET", e.embedded.URL+"/verify/"+id+"?h="+hash[:signflow.VerifyPrefixLen]+"&lang="+lang, nil)
	if r.Status != 200 {
		e.t.Fatalf("verify page: %d", r.Status)
	}
	return pageText(r.Body)
}

// pdfText returns the text of the contract's PDF in lang.
func (e *tenancy) pdfText(app, id, lang string) string {
	e.t.Helper()
	r := e.emb(app, "GET", "/v1/contracts/"+id+"/pdf?lang="+lang, nil)
	if r.Status != 200 {
		e.t.Fatalf("PDF: %d %s", r.Status, r.Body)
	}
	return flat(testtools.PDFText(e.t, []byte(r.Body)))
}

var (
	scripts = regexp.MustCompile(`(?s)<script.*?</script>`)
	tags    = regexp.MustCompile(`<[^>]*>`)
)

// pageText is what a page shows as text (no scripts, no markup), its
// whitespace flattened.
func pageText(markup string) string {
	return flat(html.UnescapeString(tags.ReplaceAllString(scripts.ReplaceAllString(markup, " "), " ")))
}

// flat turns every run of whitespace (no-break spaces too) into one space.
func flat(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\u00a0", " ")), " ")
}
