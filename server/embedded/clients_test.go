package embedded

import (
	"testing"

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
	e.run(t, []scenario{
		{name: "new individual, phone normalised, not verified", method: "POST", path: "/v1/clients", token: tok,
			body:   person("32345678901234", map[string]any{"birthday": "1990-05-01", "isMan": false}),
			status: 200, want: []string{`"in":"32345678901234"`, `"type":"CLIENT"`, `"firstName":"Dilnoza"`, `"phone":"998915554433"`,
				`"verified":false`, `"legalName":null`, `"midName":null`, `"id":"`}},
		{name: "new company", method: "POST", path: "/v1/clients", token: tok,
			body:   map[string]any{"in": "401234567", "type": "COMPANY", "legalName": "Gamma Logistics"},
			status: 200, want: []string{`"type":"COMPANY"`, `"legalName":"Gamma Logistics"`, `"firstName":null`, `"phone":null`}},
		{name: "existing client: held data kept, empty fields filled", method: "POST", path: "/v1/clients", token: tok,
			body:   map[string]any{"in": fixture.CustomerIN, "firstName": "Other", "lastName": "Name", "midName": "Olimovich", "phone": "998000000000"},
			status: 200, want: []string{`"id":"` + e.Customer.ID + `"`, `"firstName":"Aziz"`, `"lastName":"Karimov"`, `"midName":"Olimovich"`, `"phone":"998901234567"`}},
		{name: "13 digits", method: "POST", path: "/v1/clients", token: tok, body: person("1234567890123", nil),
			status: 400, want: []string{"in: must be 14 digits"}},
		{name: "company with 14 digits", method: "POST", path: "/v1/clients", token: tok,
			body: map[string]any{"in": "41234567890123", "type": "COMPANY", "legalName": "X"}, status: 400, want: []string{"9 digits"}},
		{name: "company without legalName", method: "POST", path: "/v1/clients", token: tok,
			body: map[string]any{"in": "401234568", "type": "COMPANY"}, status: 400, want: []string{"legalName"}},
		{name: "individual without firstName", method: "POST", path: "/v1/clients", token: tok,
			body: map[string]any{"in": "32345678901235", "lastName": "R", "phone": "998901112233"}, status: 400, want: []string{"firstName"}},
		{name: "individual without phone", method: "POST", path: "/v1/clients", token: tok,
			body: map[string]any{"in": "32345678901235", "firstName": "A", "lastName": "R"}, status: 400, want: []string{"phone"}},
		{name: "birthday not YYYY-MM-DD", method: "POST", path: "/v1/clients", token: tok,
			body: person("32345678901236", map[string]any{"birthday": "01.05.1990"}), status: 400, want: []string{"birthday"}},
		{name: "passport date not YYYY-MM-DD", method: "POST", path: "/v1/clients", token: tok,
			body: person("32345678901236", map[string]any{"passportIssueDate": "2020-13-01"}), status: 400, want: []string{"passportIssueDate"}},
		{name: "type ADMIN is not for use", method: "POST", path: "/v1/clients", token: tok,
			body: person("32345678901236", map[string]any{"type": "ADMIN"}), status: 400, want: []string{"type"}},
		{name: "isMan of the wrong type", method: "POST", path: "/v1/clients", token: tok,
			body: person("32345678901236", map[string]any{"isMan": "yes"}), status: 400, want: []string{"isMan: must be a boolean"}},
		{name: "empty body", method: "POST", path: "/v1/clients", token: tok, body: "", status: 400},
		{name: "get registered", method: "GET", path: "/v1/clients/" + fixture.CustomerIN, token: tok,
			status: 200, want: []string{`"in":"` + fixture.CustomerIN + `"`, `"lastName":"Karimov"`, `"verified":false`}},
		{name: "get the company registered above", method: "GET", path: "/v1/clients/401234567", token: tok,
			status: 200, want: []string{`"legalName":"Gamma Logistics"`}},
		{name: "get unknown", method: "GET", path: "/v1/clients/" + fixture.UnknownIN, token: tok, status: 404,
			want: []string{"Client not found."}},
		{name: "get malformed number", method: "GET", path: "/v1/clients/12ab", token: tok, status: 400},
		{name: "no token", method: "GET", path: "/v1/clients/" + fixture.CustomerIN, status: 401},
	})

	// Idempotence: a second registration creates nothing new.
	first := e.do("POST", "/v1/clients", tok, person("32345678901234", nil)).json(t)
	again := e.do("POST", "/v1/clients", tok, person("32345678901234", map[string]any{"email": "d@example.com"})).json(t)
	if first["id"] != again["id"] || first["id"] == nil {
		t.Fatalf("a second registration made a new client: %v vs %v", first["id"], again["id"])
	}
	stored, err := e.Service.FindClient(e.Access(t, e.AppA), "32345678901234")
	if err != nil || stored.Email != "d@example.com" || stored.Birthday != "1990-05-01" {
		t.Fatalf("stored client: %+v %v", stored, err)
	}
}
