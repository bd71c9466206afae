package embedded

import (
	"strings"
	"testing"

	"contracts/internal/apitest"
	"contracts/internal/fixture"
	"contracts/signflow"
)

// Every route refuses, with 403 naming the scope, an app that lacks the
// route's scope, and lets through an app that lacks any other scope.
func TestScopeMatrix(t *testing.T) {
	e := newEnv(t, 0)
	owner := e.token(e.AppA)
	id := e.createContract(owner, map[string]any{"templateId": e.Template.ID, "buyerIn": fixture.CustomerIN})
	sid := e.do("POST", "/v1/contracts/"+id+"/sign-sessions", owner, map[string]any{"signerIn": fixture.CustomerIN}).JSON(t)["id"].(string)
	contract := map[string]any{"templateId": e.Template.ID, "buyerIn": fixture.CustomerIN}
	apitest.ScopeMatrix(t, e.api, signflow.AppScopes, func(scopes []string) string { return e.token(e.app(scopes)) }, []apitest.ScopeRoute{
		{Method: "POST", Path: "/v1/clients", Scope: signflow.ScopeClientsWrite, Body: map[string]any{"in": "401234567", "type": "COMPANY", "legalName": "Gamma"}},
		{Method: "GET", Path: "/v1/clients/" + fixture.CustomerIN, Scope: signflow.ScopeClientsRead},
		{Method: "GET", Path: "/v1/templates", Scope: signflow.ScopeTemplatesRead},
		{Method: "GET", Path: "/v1/templates/" + e.Template.ID + "/fields", Scope: signflow.ScopeTemplatesRead},
		{Method: "POST", Path: "/v1/contracts", Scope: signflow.ScopeContractsWrite, Body: contract},
		{Method: "GET", Path: "/v1/contracts/" + id, Scope: signflow.ScopeContractsRead},
		{Method: "GET", Path: "/v1/contracts/" + id + "/pdf", Scope: signflow.ScopeContractsRead},
		{Method: "POST", Path: "/v1/contracts/" + id + "/sign-sessions", Scope: signflow.ScopeContractsSign, Body: map[string]any{"signerIn": fixture.CustomerIN}},
		{Method: "GET", Path: "/v1/sign-sessions/" + sid, Scope: signflow.ScopeContractsSign},
		{Method: "POST", Path: "/v1/contracts/" + id + "/complete", Scope: signflow.ScopeContractsWrite},
		{Method: "POST", Path: "/v1/contracts/" + id + "/cancel", Scope: signflow.ScopeContractsWrite},
		{Method: "GET", Path: "/v1/contracts/" + id + "/payments", Scope: signflow.ScopeContractsRead},
		{Method: "POST", Path: "/v1/contracts/" + id + "/payments", Scope: signflow.ScopeContractsWrite,
			Body: map[string]any{"amount": 1, "paidAt": "2026-11-22T08:00:00Z", "method": "CASH"}},
		{Method: "POST", Path: "/v1/contracts/" + id + "/payment-links", Scope: signflow.ScopeContractsRead, Body: map[string]any{"provider": "PAYME"}},
	})
	// The scope check comes before the body is read.
	tok := e.token(e.app([]string{signflow.ScopeContractsRead}))
	if r := e.do("POST", "/v1/contracts", tok, `{not json`); r.Status != 403 {
		t.Fatalf("malformed body without the scope: %d %s", r.Status, r)
	}
}

// App B, of another owner, never sees the contracts of owner A or the
// sessions of app A.
func TestTenantIsolation(t *testing.T) {
	e := newEnv(t, 0)
	tokA, tokB := e.token(e.AppA), e.token(e.AppB)
	id := e.createContract(tokA, map[string]any{"templateId": e.Template.ID, "buyerIn": fixture.CustomerIN})
	sid := e.do("POST", "/v1/contracts/"+id+"/sign-sessions", tokA, map[string]any{"signerIn": fixture.CustomerIN}).JSON(t)["id"].(string)
	// A second app of owner A sees the contract but not app A's session.
	sibling := e.token(e.app(signflow.AppScopes))
	apitest.Run(t, e.api, []apitest.Scenario{
		{Name: "B reads A's contract", Method: "GET", Path: "/v1/contracts/" + id, As: tokB, Status: 403, Not: []string{id}},
		{Name: "B reads A's PDF", Method: "GET", Path: "/v1/contracts/" + id + "/pdf", As: tokB, Status: 403},
		{Name: "B opens a session on A's contract", Method: "POST", Path: "/v1/contracts/" + id + "/sign-sessions", As: tokB,
			Body: map[string]any{"signerIn": fixture.CustomerIN}, Status: 403},
		{Name: "B cancels A's contract", Method: "POST", Path: "/v1/contracts/" + id + "/cancel", As: tokB, Status: 403},
		{Name: "B completes A's contract", Method: "POST", Path: "/v1/contracts/" + id + "/complete", As: tokB, Status: 403},
		{Name: "B reads A's session", Method: "GET", Path: "/v1/sign-sessions/" + sid, As: tokB, Status: 404, Not: []string{sid}},
		{Name: "B creates a contract for A's owner", Method: "POST", Path: "/v1/contracts", As: tokB,
			Body: map[string]any{"templateId": e.Template.ID, "buyerIn": fixture.CustomerIN, "sellerIn": fixture.OwnerIN}, Status: 403},
		{Name: "A's sibling app reads the owner's contract", Method: "GET", Path: "/v1/contracts/" + id, As: sibling, Status: 200},
		{Name: "A's sibling app does not see A's session", Method: "GET", Path: "/v1/sign-sessions/" + sid, As: sibling, Status: 404},
		{Name: "A still reads its own", Method: "GET", Path: "/v1/sign-sessions/" + sid, As: tokA, Status: 200},
	})
	// A contract is untouched by B's attempts.
	if r := e.do("GET", "/v1/contracts/"+id, tokA, nil); !strings.Contains(r.String(), `"status":"CREATED"`) || !strings.Contains(r.String(), `"version":1`) {
		t.Fatalf("contract changed: %s", r)
	}
}

// A route that does not exist is 404 in the error body, not 401.
func TestUnknownRoute(t *testing.T) {
	e := newEnv(t, 0)
	apitest.Run(t, e.api, []apitest.Scenario{
		{Name: "unknown path", Method: "GET", Path: "/v1/nothing", Status: 404},
		{Name: "wrong method", Method: "DELETE", Path: "/v1/templates", Status: 405},
	})
}
