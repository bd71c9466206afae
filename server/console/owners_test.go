package console_test

import (
	"net/http"
	"net/url"
	"testing"

	"contracts/internal/apitest"
	"contracts/signflow"
)

// Owners: created from the form; bad input is shown and keeps the form.
func TestConsoleOwners(t *testing.T) {
	e := newEnv(t)
	b := e.loggedIn(t)
	apitest.Run(t, b.api, []apitest.Scenario{
		{Name: "the form", Path: "/console/owners", Status: 200},
		{Name: "bad number", Method: "POST", Path: "/console/owners", As: pageToken, Body: url.Values{"type": {"COMPANY"}, "in": {"12ab"}, "legalName": {"Gamma"}},
			Status: http.StatusBadRequest, Want: []string{`role="alert"`, `value="Gamma"`}},
		{Name: "create owner", Method: "POST", Path: "/console/owners", As: pageToken,
			Body:   url.Values{"type": {"COMPANY"}, "in": {"305555555"}, "legalName": {"Gamma Group"}, "phone": {"+998 71 200-00-05"}},
			Status: http.StatusSeeOther, Check: b.then(apitest.Scenario{Name: "created", Status: 200, Want: []string{"Owner 305555555 saved.", "Gamma Group"}})},
		{Name: "the same owner again, another phone", Method: "POST", Path: "/console/owners", As: pageToken,
			Body:   url.Values{"type": {"COMPANY"}, "in": {"305555555"}, "legalName": {"Gamma Group"}, "phone": {"+998 71 200-00-06"}},
			Status: http.StatusSeeOther, Check: b.then(apitest.Scenario{Name: "updated", Status: 200, Want: []string{"Owner 305555555 updated: changed phone."}})},
		{Name: "the same owner as it is", Method: "POST", Path: "/console/owners", As: pageToken,
			Body:   url.Values{"type": {"COMPANY"}, "in": {"305555555"}, "legalName": {"Gamma Group"}},
			Status: http.StatusSeeOther, Check: b.then(apitest.Scenario{Name: "unchanged", Status: 200, Want: []string{"Owner 305555555 already exists as given: nothing changed."}})},
		{Name: "create a person", Method: "POST", Path: "/console/owners", As: pageToken,
			Body: url.Values{"type": {"CLIENT"}, "in": {"32000000000009"}, "firstName": {"Dilnoza"}, "lastName": {"Rahimova"}, "legalName": {"ignored"},
				"phone": {"998901112200"}},
			Status: http.StatusSeeOther, Check: func(t *testing.T, _ apitest.Reply) {
				owners, _ := e.Service.Owners()
				var person *signflow.Client
				for _, o := range owners {
					if o.IN == "32000000000009" {
						person = o
					}
				}
				if len(owners) != 4 || person == nil || person.LastName != "Rahimova" || person.LegalName != "" || person.Type != signflow.ClientIndividual {
					t.Fatalf("owners: %d %+v", len(owners), person)
				}
			}},
	})
}

// An owner's phone outside sms.allowedCountryCodes is refused on the form,
// and no owner is stored.
func TestConsoleOwnerPhoneCountry(t *testing.T) {
	e := newEnvWith(t, func(o *signflow.Options) { o.CountryCodes = []string{"998"} })
	b := e.loggedIn(t)
	before, _ := e.Service.Owners()
	apitest.Run(t, b.api, []apitest.Scenario{
		{Name: "the form", Path: "/console/owners", Status: 200},
		{Name: "a +1 900 phone", Method: "POST", Path: "/console/owners", As: pageToken,
			Body:   url.Values{"type": {"COMPANY"}, "in": {"305555555"}, "legalName": {"Gamma Group"}, "phone": {"+1 900 555 0100"}},
			Status: http.StatusBadRequest, Want: []string{`role="alert"`, "country code", `value="Gamma Group"`}},
	})
	if after, _ := e.Service.Owners(); len(after) != len(before) {
		t.Fatalf("owners %d -> %d", len(before), len(after))
	}
}
