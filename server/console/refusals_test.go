package console_test

import (
	"html/template"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"contracts/internal/apitest"
	"contracts/server/i18n"
)

// A refusal is told in the page's language: each refusal a console form
// can meet in its own words, a missing record by its page's title, and
// signflow's English message only as the detail of a field no form sends
// or beside the line of a definition it names.
func TestConsoleRefusalsInThePageLanguage(t *testing.T) {
	for _, lang := range []string{"uz", "ru"} {
		t.Run(lang, func(t *testing.T) {
			e := newEnv(t)
			c := e.contract(t)
			b := e.loggedIn(t)
			words := i18n.Console.For(lang)
			say := func(key string, pairs ...string) string { return escaped(words.F(key, pairs...)) }
			company := func(in, legalName, phone string) url.Values {
				return url.Values{"type": {"COMPANY"}, "in": {in}, "legalName": {legalName}, "phone": {phone}}
			}
			person := func(first, last, phone string) url.Values {
				return url.Values{"type": {"CLIENT"}, "in": {"32000000000009"}, "firstName": {first}, "lastName": {last}, "phone": {phone}}
			}
			app := func(edit func(url.Values)) url.Values {
				f := url.Values{"name": {"Shop"}, "owner": {"301234567"}, "scopes": {"CONTRACTS_READ"}, "allTemplates": {"true"}}
				edit(f)
				return f
			}
			refused := func(name, path string, form url.Values, status int, want, english string) apitest.Scenario {
				return apitest.Scenario{Name: name, Method: "POST", Path: path, As: pageToken, Body: form, Status: status,
					Want: []string{`<html lang="` + lang + `">`, want}, Not: []string{english}}
			}
			cancel := "/console/contracts/" + c.ID + "/cancel"
			apitest.Run(t, b.api, []apitest.Scenario{
				{Name: "the language", Path: "/console?lang=" + lang, Status: 200},
				refused("company's number", "/console/owners", company("12ab", "Gamma", ""), 400, say("refuse.companyIN"), "must be 9 digits"),
				refused("company's name", "/console/owners", company("305555555", "", ""), 400, say("refuse.legalName"), "legalName: required"),
				refused("phone", "/console/owners", company("305555555", "Gamma", "12"), 400, say("refuse.phone"), "country code"),
				refused("person's names", "/console/owners", person("Dilnoza", "", "998901112200"), 400, say("refuse.personName"), "required for an individual"),
				refused("person's phone", "/console/owners", person("Dilnoza", "Rahimova", ""), 400, say("refuse.personPhone"), "required for an individual"),
				refused("owner's type", "/console/owners", url.Values{"type": {"TRUST"}, "in": {"305555555"}}, 400, say("refuse.ownerType"), "must be CLIENT"),
				refused("app's name", "/console/apps", app(func(f url.Values) { f.Set("name", "") }), 400, say("refuse.name"), "at most 200"),
				refused("app's owner", "/console/apps", app(func(f url.Values) { f.Set("owner", "300000009") }), 400, say("refuse.noOwner"), "POST /admin"),
				refused("app's scopes", "/console/apps", app(func(f url.Values) { f.Del("scopes") }), 400, say("refuse.noScopes"), "at least one"),
				refused("app's templates", "/console/apps", app(func(f url.Values) { f.Del("allTemplates") }), 400, say("refuse.noTemplates"), "unless allTemplates"),
				refused("app's webhook", "/console/apps", app(func(f url.Values) { f.Set("webhookUrl", "http://169.254.169.254/hook") }), 400,
					say("refuse.webhookURL"), "webhookUrl:"),
				refused("app's expiry", "/console/apps", app(func(f url.Values) { f.Set("expires", "soon") }), 400, say("refuse.expires"), "expiresAt"),
				refused("key's events", "/console/keys", app(func(f url.Values) { f.Set("webhookEvents", "CONTRACT_CREATED") }), 400,
					say("refuse.keyEvents"), "keys receive"),
				// A scope no form offers: signflow's detail, after the page's lead.
				refused("a forged scope", "/console/apps", app(func(f url.Values) { f.Set("scopes", "EVERYTHING") }), 400,
					say("refuse.detail", "detail", `scopes: unknown scope "EVERYTHING"`), "Refused:"),
				refused("a definition's line", "/console/templates", url.Values{"definition": {badDefinition}}, 400, say("problemAtLine", "line", "6"),
					"Problem on line"),
				refused("a definition's field", "/console/templates", url.Values{"definition": {"name: {uz: a, ru: b, en: c}\n"}}, 400,
					say("refuse.detail", "detail", "sellerName: uz, ru and en are required"), "Refused:"),
				{Name: "cancel", Method: "POST", Path: cancel, As: pageToken, Body: url.Values{}, Status: http.StatusSeeOther},
				refused("cancel again", cancel, url.Values{}, 400, say("refuse.notCreated", "status", words["status.CANCELLED"]), "only a CREATED"),
				refused("publish no template", "/console/templates/00000000-0000-4000-8000-000000000000/publish", url.Values{}, 404,
					"<h1>"+say("templateMissing")+"</h1>", "Template not found"),
				refused("redeliver nothing", "/console/deliveries/nothing/redeliver", url.Values{}, 404, "<h1>"+say("deliveryMissing")+"</h1>", "Delivery not found"),
				refused("rotate no app", "/console/apps/nothing/secret", url.Values{}, 404, say("appMissing")+".", "App not found"),
				refused("cancel no app", "/console/apps/nothing/cancel", url.Values{}, 404, say("appMissing")+".", "App not found"),
				refused("revoke no key", "/console/keys/nothing/revoke", url.Values{}, 404, say("keyMissing")+".", "Key not found"),
				{Name: "PDF of no contract", Path: "/console/contracts/00000000-0000-4000-8000-000000000000/pdf", Status: 404,
					Want: []string{"<h1>" + say("contractMissing") + "</h1>"}, Not: []string{"Contract not found"}},
			})
		})
	}
}

var pageText = template.Must(template.New("text").Parse("{{.}}"))

// escaped is s as html/template writes it in a page.
func escaped(s string) string {
	var b strings.Builder
	if err := pageText.Execute(&b, s); err != nil {
		panic(err)
	}
	return b.String()
}
