package keyapi

import (
	"testing"
	"time"

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
	e.run(t, []scenario{
		{name: "all templates, never expires", method: "GET", path: "/v1/me", key: e.KeyA.Secret, status: 200,
			want: []string{`"name":"Key A"`, `"ownerIn":"` + fixture.OwnerIN + `"`, `"ownerLegalName":"Alpha Savdo MChJ"`,
				`"scopes":["TEMPLATES_READ","CONTRACTS_READ","CONTRACTS_WRITE","CLIENTS_READ"]`, `"allTemplates":true`,
				`"templateIds":[]`, `"expiresAt":null`},
			not: []string{"hash", "webhook", e.KeyA.Secret}},
		{name: "limited key lists its templates", method: "GET", path: "/v1/me", key: e.LimitedKey.Secret, status: 200,
			want: []string{`"name":"Limited"`, `"allTemplates":false`, `"templateIds":["` + e.Template.ID + `"]`}},
		{name: "expiry in UTC, whole seconds", method: "GET", path: "/v1/me", key: expiring, status: 200,
			want: []string{`"scopes":["CONTRACTS_READ"]`, `"templateIds":["` + e.Template.ID + `","` + e.Other.ID + `"]`,
				`"expiresAt":"2027-03-01T07:30:00Z"`}},
		{name: "an individual owner's full name", method: "GET", path: "/v1/me", key: person, status: 200,
			want: []string{`"ownerIn":"` + fixture.CustomerIN + `"`, `"ownerLegalName":"Karimov Aziz"`}},
		{name: "another owner's key", method: "GET", path: "/v1/me", key: e.KeyB.Secret, status: 200,
			want: []string{`"ownerLegalName":"Beta Trade LLC"`}},
	})
}
