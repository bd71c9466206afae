package console_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"contracts/internal/apitest"
	"contracts/internal/fixture"
	"contracts/signflow"
)

// A template's page: its versions, Edit starting from the newest
// definition, a refusal beside its line, a preview, and Save making the
// next version, which new contracts use while an older contract keeps its own.
func TestConsoleTemplateEdit(t *testing.T) {
	e := newEnv(t)
	b := e.loggedIn(t)
	id := e.Template.ID
	page := "/console/templates/" + id
	before := e.Contract(t)
	edited := strings.NewReplacer(`"Sales contract"`, `"Sales contract v2"`, "{{deliveryAddress}}", "{{deliveryAddress}} (v2)").Replace(fixture.TemplateYAML)
	bad := strings.Replace(fixture.TemplateYAML, "{{deliveryAddress}}\"\n  ru", "{{deliveryAdress}}\"\n  ru", 1)
	apitest.Run(t, b.api, []apitest.Scenario{
		{Name: "the list links each template's page", Path: "/console/templates", Status: 200,
			Want: []string{`<a class="strong" href="` + page + `">Sales contract</a>`}},
		{Name: "the page", Path: page, Status: 200,
			Want: []string{"<h1>Sales contract</h1>", "version 1", ">Edit</button>", `id="h-versions">Versions`, `<tr id="v-1">`, ">newest<"},
			Not:  []string{`name="definition"`}},
		{Name: "Edit", Path: page + "?edit=1", Status: 200,
			Want: []string{"Edit: version 2", `action="` + page + `"`, `formaction="` + page + `/preview"`, "keyName: deliveryAddress",
				"enabledCurrencies: [UZS, USD]", "{{seller.name}} va {{buyer.name}}: {{deliveryAddress}}"}},
		{Name: "a refusal", Method: "POST", Path: page, As: pageToken, Body: url.Values{"definition": {bad}}, Status: http.StatusBadRequest,
			Want: []string{"Problem on line 13", "body.uz: unknown placeholder {{deliveryAdress}}", "Edit: version 2"}},
		{Name: "preview", Method: "POST", Path: page + "/preview", As: pageToken, Body: url.Values{"definition": {edited}}, Status: 200,
			Want: []string{"Signing page preview", "Sales contract v2", "(v2)", "Edit: version 2"}},
		{Name: "save", Method: "POST", Path: page, As: pageToken, Body: url.Values{"definition": {edited}}, Status: http.StatusSeeOther,
			Check: b.then(apitest.Scenario{Status: 200, Want: []string{"Version 2 of “Sales contract v2” saved.", `<tr id="v-2" class="kept">`,
				`<tr id="v-1">`, "version 2"}})},
		{Name: "unknown template", Path: "/console/templates/00000000-0000-4000-8000-000000000000", Status: http.StatusNotFound,
			Want: []string{"<h1>Template not found</h1>"}},
		{Name: "unknown template, save", Method: "POST", Path: "/console/templates/00000000-0000-4000-8000-000000000000", As: pageToken,
			Body: url.Values{"definition": {edited}}, Status: http.StatusNotFound},
		{Name: "without the page's token", Method: "POST", Path: page, As: "wrong", Body: url.Values{"definition": {fixture.TemplateYAML}},
			Status: http.StatusForbidden},
	})
	versions, err := e.Service.AdminTemplateVersions(id)
	if err != nil || len(versions) != 2 {
		t.Fatalf("%d versions (%v): a refusal or a preview stored one", len(versions), err)
	}
	after := e.Contract(t)
	for c, want := range map[*signflow.Contract]string{before: "Sales contract", after: "Sales contract v2"} {
		v, err := e.Service.AdminContract(c.ID)
		if err != nil || v.Template.Name.EN != want {
			t.Fatalf("contract %s reads template %q (%v), want %q", c.Number, v.Template.Name.EN, err, want)
		}
	}
}
