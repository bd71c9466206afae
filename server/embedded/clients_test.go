package embedded

import (
	"testing"

	"contracts/internal/apitest"
	"contracts/internal/fixture"
)

func TestClients(t *testing.T) {
	e := newEnv(t, 0)
	tok := e.token(e.AppA)
	person := func(in string, extra map[string]any) map[string]any {
		m := map[string]any{"in": in, "firstName": "Dilnoza", "lastName": "Rahimova", "phone": "+998 (91) 555-44-33"}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	apitest.Run(t, e.api, []apitest.Scenario{
		{Name: "new individual, phone normalised, not verified", Method: "POST", Path: "/v1/clients", As: tok,
			Body:   person("32345678901234", map[string]any{"birthday": "1990-05-01", "isMan": false}),
			Status: 200, Want: []string{`"in":"32345678901234"`, `"type":"CLIENT"`, `"firstName":"Dilnoza"`, `"phone":"998915554433"`,
				`"verified":false`, `"legalName":null`, `"midName":null`, `"id":"`}},
		{Name: "new company", Method: "POST", Path: "/v1/clients", As: tok,
			Body:   map[string]any{"in": "401234567", "type": "COMPANY", "legalName": "Gamma Logistics"},
			Status: 200, Want: []string{`"type":"COMPANY"`, `"legalName":"Gamma Logistics"`, `"firstName":null`, `"phone":null`}},
		{Name: "existing client: held data kept, empty fields filled", Method: "POST", Path: "/v1/clients", As: tok,
			Body:   map[string]any{"in": fixture.CustomerIN, "firstName": "Other", "lastName": "Name", "midName": "Olimovich", "phone": "998000000000"},
			Status: 200, Want: []string{`"id":"` + e.Customer.ID + `"`, `"firstName":"Aziz"`, `"lastName":"Karimov"`, `"midName":"Olimovich"`, `"phone":"998901234567"`}},
		{Name: "13 digits", Method: "POST", Path: "/v1/clients", As: tok, Body: person("1234567890123", nil),
			Status: 400, Want: []string{"in: must be 14 digits"}},
		{Name: "company with 14 digits", Method: "POST", Path: "/v1/clients", As: tok,
			Body: map[string]any{"in": "41234567890123", "type": "COMPANY", "legalName": "X"}, Status: 400, Want: []string{"9 digits"}},
		{Name: "company without legalName", Method: "POST", Path: "/v1/clients", As: tok,
			Body: map[string]any{"in": "401234568", "type": "COMPANY"}, Status: 400, Want: []string{"legalName"}},
		{Name: "individual without firstName", Method: "POST", Path: "/v1/clients", As: tok,
			Body: map[string]any{"in": "32345678901235", "lastName": "R", "phone": "998901112233"}, Status: 400, Want: []string{"firstName"}},
		{Name: "individual without phone", Method: "POST", Path: "/v1/clients", As: tok,
			Body: map[string]any{"in": "32345678901235", "firstName": "A", "lastName": "R"}, Status: 400, Want: []string{"phone"}},
		{Name: "birthday not YYYY-MM-DD", Method: "POST", Path: "/v1/clients", As: tok,
			Body: person("32345678901236", map[string]any{"birthday": "01.05.1990"}), Status: 400, Want: []string{"birthday"}},
		{Name: "passport date not YYYY-MM-DD", Method: "POST", Path: "/v1/clients", As: tok,
			Body: person("32345678901236", map[string]any{"passportIssueDate": "2020-13-01"}), Status: 400, Want: []string{"passportIssueDate"}},
		{Name: "type ADMIN is not for use", Method: "POST", Path: "/v1/clients", As: tok,
			Body: person("32345678901236", map[string]any{"type": "ADMIN"}), Status: 400, Want: []string{"type"}},
		{Name: "isMan of the wrong type", Method: "POST", Path: "/v1/clients", As: tok,
			Body: person("32345678901236", map[string]any{"isMan": "yes"}), Status: 400, Want: []string{"isMan: must be a boolean"}},
		{Name: "empty body", Method: "POST", Path: "/v1/clients", As: tok, Body: "", Status: 400},
		{Name: "get registered", Method: "GET", Path: "/v1/clients/" + fixture.CustomerIN, As: tok,
			Status: 200, Want: []string{`"in":"` + fixture.CustomerIN + `"`, `"lastName":"Karimov"`, `"verified":false`}},
		{Name: "get the company registered above", Method: "GET", Path: "/v1/clients/401234567", As: tok,
			Status: 200, Want: []string{`"legalName":"Gamma Logistics"`}},
		{Name: "get unknown", Method: "GET", Path: "/v1/clients/" + fixture.UnknownIN, As: tok, Status: 404,
			Want: []string{"Client not found."}},
		{Name: "get malformed number", Method: "GET", Path: "/v1/clients/12ab", As: tok, Status: 400},
		{Name: "no token", Method: "GET", Path: "/v1/clients/" + fixture.CustomerIN, Status: 401},
	})

	// Idempotence: a second registration creates nothing new.
	first := e.do("POST", "/v1/clients", tok, person("32345678901234", nil)).JSON(t)
	again := e.do("POST", "/v1/clients", tok, person("32345678901234", map[string]any{"email": "d@example.com"})).JSON(t)
	if first["id"] != again["id"] || first["id"] == nil {
		t.Fatalf("a second registration made a new client: %v vs %v", first["id"], again["id"])
	}
	stored, err := e.Service.FindClient(e.Access(t, e.AppA), "32345678901234")
	if err != nil || stored.Email != "d@example.com" || stored.Birthday != "1990-05-01" {
		t.Fatalf("stored client: %+v %v", stored, err)
	}
}
