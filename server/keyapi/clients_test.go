package keyapi

import (
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
)

func TestReadClient(t *testing.T) {
	e := newEnv(t, 0)
	// Owner A's app registered the person: a claim of A's tenant, its keys included.
	fixture.MustClaim(t, e.Service, fixture.OwnerIN, &signflow.Client{IN: "32345678901234", FirstName: "Dilnoza", LastName: "Rahimova",
		MidName: "Akmalovna", Phone: "998901112233", Passport: "AA1234567", Address: "Toshkent"})
	secret := []string{"phone", "998", "passport", "AA1234567", "address", `"id"`}
	e.run(t, []scenario{
		{name: "individual", method: "GET", path: "/v1/clients/32345678901234", key: e.KeyA.Secret, status: 200,
			want: []string{`"in":"32345678901234"`, `"firstName":"Dilnoza"`, `"lastName":"Rahimova"`, `"midName":"Akmalovna"`,
				`"legalName":null`, `"type":"CLIENT"`, `"verified":false`},
			not: secret},
		{name: "company", method: "GET", path: "/v1/clients/" + fixture.OtherIN, key: e.KeyA.Secret, status: 200,
			want: []string{`"in":"` + fixture.OtherIN + `"`, `"legalName":"Beta Trade LLC"`, `"type":"COMPANY"`,
				`"firstName":null`, `"lastName":null`, `"midName":null`},
			not: secret},
		{name: "unknown number", method: "GET", path: "/v1/clients/" + fixture.UnknownIN, key: e.KeyA.Secret, status: 404,
			want: []string{"Client not found."}},
		{name: "number of the wrong length", method: "GET", path: "/v1/clients/1234", key: e.KeyA.Secret, status: 400,
			want: []string{"in: must be 14 digits"}},
		{name: "not digits", method: "GET", path: "/v1/clients/30123456x", key: e.KeyA.Secret, status: 400},
		{name: "another tenant's key does not see A's claim", method: "GET", path: "/v1/clients/32345678901234", key: e.KeyB.Secret,
			status: 404, want: []string{"Client not found."}, not: []string{"Dilnoza"}},
		{name: "an owner is read as the admin registered it, by any tenant", method: "GET", path: "/v1/clients/" + fixture.OwnerIN,
			key: e.KeyB.Secret, status: 200, want: []string{`"legalName":"Alpha Savdo MChJ"`}, not: secret},
		{name: "limited key reads clients too", method: "GET", path: "/v1/clients/" + fixture.CustomerIN, key: e.LimitedKey.Secret,
			status: 200, want: []string{`"firstName":"Aziz"`}},
	})
}
