package keyapi

import (
	"testing"

	"contracts/internal/apitest"
	"contracts/internal/fixture"
	"contracts/signflow"
)

func TestReadClient(t *testing.T) {
	e := newEnv(t, 0)
	// Owner A's app registered the person: a claim of A's tenant, its keys included.
	fixture.MustClaim(t, e.Service, fixture.OwnerIN, &signflow.Client{IN: "32345678901234", FirstName: "Dilnoza", LastName: "Rahimova",
		MidName: "Akmalovna", Phone: "998901112233", Passport: "AA1234567", Address: "Toshkent"})
	secret := []string{"phone", "998", "passport", "AA1234567", "address", `"id"`}
	apitest.Run(t, e.api, []apitest.Scenario{
		{Name: "individual", Method: "GET", Path: "/v1/clients/32345678901234", As: e.KeyA.Secret, Status: 200,
			Want: []string{`"in":"32345678901234"`, `"firstName":"Dilnoza"`, `"lastName":"Rahimova"`, `"midName":"Akmalovna"`,
				`"legalName":null`, `"type":"CLIENT"`, `"verified":false`},
			Not: secret},
		{Name: "company", Method: "GET", Path: "/v1/clients/" + fixture.OtherIN, As: e.KeyA.Secret, Status: 200,
			Want: []string{`"in":"` + fixture.OtherIN + `"`, `"legalName":"Beta Trade LLC"`, `"type":"COMPANY"`,
				`"firstName":null`, `"lastName":null`, `"midName":null`},
			Not: secret},
		{Name: "unknown number", Method: "GET", Path: "/v1/clients/" + fixture.UnknownIN, As: e.KeyA.Secret, Status: 404,
			Want: []string{"Client not found."}},
		{Name: "number of the wrong length", Method: "GET", Path: "/v1/clients/1234", As: e.KeyA.Secret, Status: 400,
			Want: []string{"in: must be 14 digits"}},
		{Name: "not digits", Method: "GET", Path: "/v1/clients/30123456x", As: e.KeyA.Secret, Status: 400},
		{Name: "another tenant's key does not see A's claim", Method: "GET", Path: "/v1/clients/32345678901234", As: e.KeyB.Secret,
			Status: 404, Want: []string{"Client not found."}, Not: []string{"Dilnoza"}},
		{Name: "an owner is read as the admin registered it, by any tenant", Method: "GET", Path: "/v1/clients/" + fixture.OwnerIN,
			As: e.KeyB.Secret, Status: 200, Want: []string{`"legalName":"Alpha Savdo MChJ"`}, Not: secret},
		{Name: "limited key reads clients too", Method: "GET", Path: "/v1/clients/" + fixture.CustomerIN, As: e.LimitedKey.Secret,
			Status: 200, Want: []string{`"firstName":"Aziz"`}},
	})
}
