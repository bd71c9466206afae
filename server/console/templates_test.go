package console_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"contracts/internal/apitest"
	"contracts/internal/fixture"
	"contracts/internal/testtools"
	"contracts/signflow"
)

// badDefinition names a field type that does not exist, on line 6.
const badDefinition = "name: {uz: a, ru: b, en: c}\nsellerName: {uz: a, ru: b, en: c}\nbuyerName: {uz: a, ru: b, en: c}\nfields:\n" +
	"  - keyName: size\n    type: COLOUR\n    name: {uz: a, ru: b, en: c}\n"

// Templates: a refusal beside its line, a preview with sample values and
// its PDF, a save, publish and unpublish.
func TestConsoleTemplates(t *testing.T) {
	e := newEnv(t)
	b := e.loggedIn(t)
	good := strings.Replace(fixture.TemplateYAML, "Sales contract", "Console contract", 1)
	witnessed := good + "witnessEnabled: true\nwitnessCount: 2\n"
	templates := func() int {
		tpls, _ := e.Service.AdminTemplates()
		return len(tpls)
	}
	rows := []apitest.Scenario{{Name: "the form", Path: "/console/templates?new=1", Status: 200}}
	for _, path := range []string{"/console/templates", "/console/templates/preview"} {
		rows = append(rows, apitest.Scenario{Name: "bad definition " + path, Method: "POST", Path: path, As: pageToken, Body: url.Values{"definition": {badDefinition}},
			Status: http.StatusBadRequest, Want: []string{"Problem on line 6",
				`<li class="bad"><span class="ln" aria-hidden="true">6</span><code>    type: COLOUR</code></li>`,
				`fields[0].type: unknown field type &#34;COLOUR&#34;`, `aria-invalid="true"`, "keyName: size"}})
	}
	rows = append(rows, []apitest.Scenario{
		{Name: "malformed JSON", Method: "POST", Path: "/console/templates", As: pageToken,
			Body:   url.Values{"definition": {"{\n  \"name\": {\"uz\": \"a\"},\n  \"type\": ,\n}"}},
			Status: http.StatusBadRequest, Want: []string{"Problem on line 3", "malformed JSON"}},
		{Name: "preview", Method: "POST", Path: "/console/templates/preview", As: pageToken, Body: url.Values{"definition": {witnessed}},
			Status: 200, Want: []string{"Signing page preview", "Console contract", "Sample Trade LLC", "Karimov Aziz", "Sample product",
				"Witness 2", `name="lang" value="en">PDF en</button>`},
			Check: func(t *testing.T, _ apitest.Reply) {
				if templates() != 3 {
					t.Fatal("the preview saved the template")
				}
			}},
		// The sample values are in the page's language, and in the PDF's.
		{Name: "preview in Russian", Method: "POST", Path: "/console/templates/preview?lang=ru", As: pageToken, Body: url.Values{"definition": {witnessed}},
			Status: 200, Want: []string{"ООО «Образец Торг»", "Каримов Азиз", "Образец товара", "Свидетель 2", "Адрес"},
			Not: []string{"Sample", "Witness", "Namuna"}},
		{Name: "back to English", Path: "/console/templates?new=1&lang=en", Status: 200},
		{Name: "preview PDF", Method: "POST", Path: "/console/templates/preview/pdf", As: pageToken, Body: url.Values{"definition": {good}, "lang": {"en"}},
			Status: 200, Check: isPDF},
		{Name: "preview PDF in Uzbek", Method: "POST", Path: "/console/templates/preview/pdf", As: pageToken,
			Body: url.Values{"definition": {witnessed}, "lang": {"uz"}}, Status: 200, Check: func(t *testing.T, r apitest.Reply) {
				text := testtools.PDFText(t, []byte(r.Body))
				for _, want := range []string{"Namuna Savdo MChJ", "Namuna mahsulot", "Guvoh 2"} {
					if !strings.Contains(text, want) {
						t.Errorf("the PDF lacks %q", want)
					}
				}
				if strings.Contains(text, "Sample") || strings.Contains(text, "Witness") {
					t.Errorf("English in the Uzbek PDF:\n%s", text)
				}
			}},
		{Name: "save", Method: "POST", Path: "/console/templates", As: pageToken, Body: url.Values{"definition": {good}}, Status: http.StatusSeeOther,
			Check: b.then(apitest.Scenario{Name: "saved", Status: 200, Want: []string{"Template “Console contract” saved."}})},
	}...)
	apitest.Run(t, b.api, rows)
	saved := findTemplate(t, e, "Console contract")
	if saved.Status != signflow.TemplatePublished {
		t.Fatalf("saved template: %s", saved.Status)
	}
	statusIs := func(want string) func(*testing.T, apitest.Reply) {
		return func(t *testing.T, _ apitest.Reply) {
			if got := findTemplate(t, e, "Console contract").Status; got != want {
				t.Fatalf("the template is %s", got)
			}
		}
	}
	apitest.Run(t, b.api, []apitest.Scenario{
		{Name: "unpublish", Method: "POST", Path: "/console/templates/" + saved.ID + "/unpublish", As: pageToken, Body: url.Values{},
			Status: http.StatusSeeOther, Check: statusIs(signflow.TemplateDraft)},
		{Name: "templates", Path: "/console/templates", Status: 200},
		{Name: "publish", Method: "POST", Path: "/console/templates/" + saved.ID + "/publish", As: pageToken, Body: url.Values{},
			Status: http.StatusSeeOther, Check: statusIs(signflow.TemplatePublished)},
		{Name: "unknown template", Method: "POST", Path: "/console/templates/00000000-0000-4000-8000-000000000000/publish", As: pageToken, Body: url.Values{},
			Status: http.StatusNotFound, Want: []string{"<h1>Template not found</h1>"}},
	})
}

func findTemplate(t *testing.T, e *env, name string) *signflow.Template {
	t.Helper()
	tpls, _ := e.Service.AdminTemplates()
	for _, tpl := range tpls {
		if tpl.Name.EN == name {
			return tpl
		}
	}
	t.Fatalf("no template %q", name)
	return nil
}
