package embedded

import (
	"slices"
	"strings"
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// specRoute is a row of the spec's embedded table with the scope it names.
type specRoute struct {
	method, path, scope string
	body                any
}

// Every route refuses, with 403 naming the scope, an app that lacks the
// route's scope, and lets through an app that lacks any other scope.
func TestScopeMatrix(t *testing.T) {
	e := newEnv(t, 0)
	owner := e.token(e.AppA)
	id := e.createContract(owner, map[string]any{"templateId": e.Template.ID, "buyerIn": fixture.CustomerIN})
	sid := e.do("POST", "/v1/contracts/"+id+"/sign-sessions", owner, map[string]any{"signerIn": fixture.CustomerIN}).json(t)["id"].(string)
	contract := map[string]any{"templateId": e.Template.ID, "buyerIn": fixture.CustomerIN}
	routes := []specRoute{
		{"POST", "/v1/clients", signflow.ScopeClientsWrite, map[string]any{"in": "401234567", "type": "COMPANY", "legalName": "Gamma"}},
		{"GET", "/v1/clients/" + fixture.CustomerIN, signflow.ScopeClientsRead, nil},
		{"GET", "/v1/templates", signflow.ScopeTemplatesRead, nil},
		{"GET", "/v1/templates/" + e.Template.ID + "/fields", signflow.ScopeTemplatesRead, nil},
		{"POST", "/v1/contracts", signflow.ScopeContractsWrite, contract},
		{"GET", "/v1/contracts/" + id, signflow.ScopeContractsRead, nil},
		{"GET", "/v1/contracts/" + id + "/pdf", signflow.ScopeContractsRead, nil},
		{"POST", "/v1/contracts/" + id + "/sign-sessions", signflow.ScopeContractsSign, map[string]any{"signerIn": fixture.CustomerIN}},
		{"GET", "/v1/sign-sessions/" + sid, signflow.ScopeContractsSign, nil},
		{"POST", "/v1/contracts/" + id + "/complete", signflow.ScopeContractsWrite, nil},
		{"POST", "/v1/contracts/" + id + "/cancel", signflow.ScopeContractsWrite, nil},
	}
	for _, missing := range signflow.AppScopes {
		scopes := slices.DeleteFunc(slices.Clone(signflow.AppScopes), func(s string) bool { return s == missing })
		tok := e.token(e.app(scopes))
		for _, rt := range routes {
			t.Run("without "+missing+" "+rt.method+" "+rt.path, func(t *testing.T) {
				r := e.do(rt.method, rt.path, tok, rt.body)
				if rt.scope == missing {
					if r.status != 403 || !strings.Contains(r.String(), missing) {
						t.Fatalf("status %d, want 403 naming %s: %s", r.status, missing, r)
					}
					checkJSONReply(t, r)
				} else if r.status == 403 || r.status == 401 {
					t.Fatalf("refused for lacking another scope than %s: %d %s", missing, r.status, r)
				}
			})
		}
	}
	// The scope check comes before the body is read.
	tok := e.token(e.app([]string{signflow.ScopeContractsRead}))
	if r := e.do("POST", "/v1/contracts", tok, `{not json`); r.status != 403 {
		t.Fatalf("malformed body without the scope: %d %s", r.status, r)
	}
}

// App B, of another owner, never sees the contracts of owner A or the
// sessions of app A.
func TestTenantIsolation(t *testing.T) {
	e := newEnv(t, 0)
	tokA, tokB := e.token(e.AppA), e.token(e.AppB)
	id := e.createContract(tokA, map[string]any{"templateId": e.Template.ID, "buyerIn": fixture.CustomerIN})
	sid := e.do("POST", "/v1/contracts/"+id+"/sign-sessions", tokA, map[string]any{"signerIn": fixture.CustomerIN}).json(t)["id"].(string)
	// A second app of owner A sees the contract but not app A's session.
	sibling := e.token(e.app(signflow.AppScopes))
	e.run(t, []scenario{
		{name: "B reads A's contract", method: "GET", path: "/v1/contracts/" + id, token: tokB, status: 403, not: []string{id}},
		{name: "B reads A's PDF", method: "GET", path: "/v1/contracts/" + id + "/pdf", token: tokB, status: 403},
		{name: "B opens a session on A's contract", method: "POST", path: "/v1/contracts/" + id + "/sign-sessions", token: tokB,
			body: map[string]any{"signerIn": fixture.CustomerIN}, status: 403},
		{name: "B cancels A's contract", method: "POST", path: "/v1/contracts/" + id + "/cancel", token: tokB, status: 403},
		{name: "B completes A's contract", method: "POST", path: "/v1/contracts/" + id + "/complete", token: tokB, status: 403},
		{name: "B reads A's session", method: "GET", path: "/v1/sign-sessions/" + sid, token: tokB, status: 404, not: []string{sid}},
		{name: "B creates a contract for A's owner", method: "POST", path: "/v1/contracts", token: tokB,
			body: map[string]any{"templateId": e.Template.ID, "buyerIn": fixture.CustomerIN, "sellerIn": fixture.OwnerIN}, status: 403},
		{name: "A's sibling app reads the owner's contract", method: "GET", path: "/v1/contracts/" + id, token: sibling, status: 200},
		{name: "A's sibling app does not see A's session", method: "GET", path: "/v1/sign-sessions/" + sid, token: sibling, status: 404},
		{name: "A still reads its own", method: "GET", path: "/v1/sign-sessions/" + sid, token: tokA, status: 200},
	})
	// A contract is untouched by B's attempts.
	if r := e.do("GET", "/v1/contracts/"+id, tokA, nil); !strings.Contains(r.String(), `"status":"CREATED"`) || !strings.Contains(r.String(), `"version":1`) {
		t.Fatalf("contract changed: %s", r)
	}
}

// A route that does not exist is 404 in the error body, not 401.
func TestUnknownRoute(t *testing.T) {
	e := newEnv(t, 0)
	e.run(t, []scenario{
		{name: "unknown path", method: "GET", path: "/v1/nothing", status: 404},
		{name: "wrong method", method: "DELETE", path: "/v1/templates", status: 405},
	})
}
