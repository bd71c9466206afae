package keyapi

import (
	"testing"
	"time"

	"contracts/internal/apitest"
	"contracts/internal/fixture"
	"contracts/signflow"
)

func TestMe(t *testing.T) {
	e := newEnv(t, 0)
	exp := time.Date(2027, 3, 1, 12, 30, 0, 0, time.FixedZone("UZT", 5*3600))
	expiring := fixture.MustCredential(t, e.Service.CreateKey, &signflow.CredentialInput{Name: "Expiring", OwnerIN: fixture.OwnerIN,
		Scopes: []string{signflow.ScopeContractsRead}, TemplateIDs: []string{e.Template.ID, e.Other.ID}, ExpiresAt: &exp}).Secret
	fixture.MustOwner(t, e.Service, &signflow.Client{IN: fixture.CustomerIN, FirstName: "Aziz", LastName: "Karimov", Phone: "998901234567"})
	person := fixture.MustCredential(t, e.Service.CreateKey, &signflow.CredentialInput{Name: "Personal", OwnerIN: fixture.CustomerIN,
		Scopes: []string{signflow.ScopeClientsRead}, AllTemplates: true}).Secret
	apitest.Run(t, e.api, []apitest.Scenario{
		{Name: "all templates, never expires", Method: "GET", Path: "/v1/me", As: e.KeyA.Secret, Status: 200,
			Want: []string{`"name":"Key A"`, `"ownerIn":"` + fixture.OwnerIN + `"`, `"ownerLegalName":"Alpha Savdo MChJ"`,
				`"scopes":["TEMPLATES_READ","CONTRACTS_READ","CONTRACTS_WRITE","CLIENTS_READ"]`, `"allTemplates":true`,
				`"templateIds":[]`, `"expiresAt":null`},
			Not: []string{"hash", "webhook", e.KeyA.Secret}},
		{Name: "limited key lists its templates", Method: "GET", Path: "/v1/me", As: e.LimitedKey.Secret, Status: 200,
			Want: []string{`"name":"Limited"`, `"allTemplates":false`, `"templateIds":["` + e.Template.ID + `"]`}},
		{Name: "expiry in UTC, whole seconds", Method: "GET", Path: "/v1/me", As: expiring, Status: 200,
			Want: []string{`"scopes":["CONTRACTS_READ"]`, `"templateIds":["` + e.Template.ID + `","` + e.Other.ID + `"]`,
				`"expiresAt":"2027-03-01T07:30:00Z"`}},
		{Name: "an individual owner's full name", Method: "GET", Path: "/v1/me", As: person, Status: 200,
			Want: []string{`"ownerIn":"` + fixture.CustomerIN + `"`, `"ownerLegalName":"Karimov Aziz"`}},
		{Name: "another owner's key", Method: "GET", Path: "/v1/me", As: e.KeyB.Secret, Status: 200,
			Want: []string{`"ownerLegalName":"Beta Trade LLC"`}},
	})
}
