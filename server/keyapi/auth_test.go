package keyapi

import (
	"strings"
	"testing"
	"time"

	"contracts/internal/apitest"
	"contracts/internal/fixture"
	"contracts/signflow"
)

// A key works only in X-API-Key, only while it is valid; everything else
// is 401 with the key interface's error body.
func TestAuthentication(t *testing.T) {
	e := newEnv(t, 0)
	token, err := e.Service.IssueToken(e.AppA.ID, e.AppA.Secret)
	if err != nil {
		t.Fatal(err)
	}
	revoked := fixture.MustCredential(t, e.Service.CreateKey, &signflow.CredentialInput{Name: "revoked", OwnerIN: fixture.OwnerIN,
		Scopes: signflow.KeyScopes, AllTemplates: true})
	fixture.Must(t, func() error { return e.Service.RevokeKey(revoked.ID) })
	badKey := "The API key is missing, invalid, revoked or expired."
	apitest.Run(t, e.api, []apitest.Scenario{
		{Name: "valid key", Path: "/v1/me", Header: map[string]string{HeaderAPIKey: e.KeyA.Secret}, Status: 200, Want: []string{`"name":"Key A"`}},
		{Name: "valid key with spaces around", Path: "/v1/me", Header: map[string]string{HeaderAPIKey: "  " + e.KeyA.Secret + " "}, Status: 200,
			Want: []string{`"name":"Key A"`}},
		{Name: "no key", Path: "/v1/me", Status: 401, Want: []string{badKey}},
		{Name: "empty key", Path: "/v1/me", Header: map[string]string{HeaderAPIKey: ""}, Status: 401, Want: []string{badKey}},
		{Name: "wrong key with the prefix", Path: "/v1/me", Header: map[string]string{HeaderAPIKey: signflow.KeyPrefix + signflow.RandomToken(32)},
			Status: 401, Want: []string{badKey}},
		{Name: "key without the prefix", Path: "/v1/me", Header: map[string]string{HeaderAPIKey: strings.TrimPrefix(e.KeyA.Secret, signflow.KeyPrefix)},
			Status: 401, Want: []string{badKey}},
		{Name: "app secret as key", Path: "/v1/me", Header: map[string]string{HeaderAPIKey: e.AppA.Secret}, Status: 401, Want: []string{badKey}},
		{Name: "overlong key", Path: "/v1/me", Header: map[string]string{HeaderAPIKey: signflow.KeyPrefix + strings.Repeat("a", 300)},
			Status: 401, Want: []string{badKey}},
		{Name: "revoked key", Path: "/v1/me", Header: map[string]string{HeaderAPIKey: revoked.Secret}, Status: 401, Want: []string{badKey}},
		{Name: "embedded bearer token", Path: "/v1/me", Header: map[string]string{"Authorization": "Bearer " + token}, Status: 401,
			Want: []string{"X-API-Key"}},
		{Name: "key as bearer token", Path: "/v1/me", Header: map[string]string{"Authorization": "Bearer " + e.KeyA.Secret}, Status: 401,
			Want: []string{"X-API-Key"}},
	})
	// Every route is behind the key.
	for _, p := range []string{"/v1/templates", "/v1/templates/" + e.Template.ID + "/fields", "/v1/contracts",
		"/v1/contracts/" + signflow.NewID(), "/v1/contracts/" + signflow.NewID() + "/pdf", "/v1/clients/" + fixture.CustomerIN} {
		if r := e.do("GET", p, "", nil, "Authorization", "Bearer "+token); r.Status != 401 {
			t.Errorf("GET %s with a bearer token: %d %s", p, r.Status, r)
		}
	}
}

// A key that expires works until expiresAt and is 401 from then on; time
// moves on the fixture clock.
func TestExpiredKey(t *testing.T) {
	e := newEnv(t, 0)
	exp := e.Clock.Now().Add(time.Hour)
	key := fixture.MustCredential(t, e.Service.CreateKey, &signflow.CredentialInput{Name: "expiring", OwnerIN: fixture.OwnerIN,
		Scopes: signflow.KeyScopes, AllTemplates: true, ExpiresAt: &exp}).Secret
	if r := e.do("GET", "/v1/contracts", key, nil); r.Status != 200 {
		t.Fatalf("before expiry: %d %s", r.Status, r)
	}
	e.Clock.Advance(time.Hour - time.Second)
	if r := e.do("GET", "/v1/me", key, nil); r.Status != 200 {
		t.Fatalf("a second before expiry: %d %s", r.Status, r)
	}
	e.Clock.Advance(time.Second)
	for _, p := range []string{"/v1/me", "/v1/contracts"} {
		r := e.do("GET", p, key, nil)
		if r.Status != 401 {
			t.Fatalf("%s at expiresAt: %d %s", p, r.Status, r)
		}
		e.api.Check(t, p, r)
	}
}

// Every route refuses, with 403 naming the scope, a key that lacks the
// route's scope, and lets through a key that lacks any other scope;
// /v1/me needs none.
func TestScopeMatrix(t *testing.T) {
	e := newEnv(t, 0)
	id := e.create(e.KeyA.Secret, e.sale())
	apitest.ScopeMatrix(t, e.api, signflow.KeyScopes, func(scopes []string) string { return e.key(scopes) }, []apitest.ScopeRoute{
		{Method: "GET", Path: "/v1/templates", Scope: signflow.ScopeTemplatesRead},
		{Method: "GET", Path: "/v1/templates/" + e.Template.ID + "/fields", Scope: signflow.ScopeTemplatesRead},
		{Method: "POST", Path: "/v1/contracts", Scope: signflow.ScopeContractsWrite, Body: e.sale()},
		{Method: "GET", Path: "/v1/contracts", Scope: signflow.ScopeContractsRead},
		{Method: "GET", Path: "/v1/contracts/" + id, Scope: signflow.ScopeContractsRead},
		{Method: "GET", Path: "/v1/contracts/" + id + "/pdf", Scope: signflow.ScopeContractsRead},
		{Method: "POST", Path: "/v1/contracts/" + id + "/complete", Scope: signflow.ScopeContractsWrite},
		{Method: "POST", Path: "/v1/contracts/" + id + "/cancel", Scope: signflow.ScopeContractsWrite},
		{Method: "GET", Path: "/v1/contracts/" + id + "/payments", Scope: signflow.ScopeContractsRead},
		{Method: "POST", Path: "/v1/contracts/" + id + "/payments", Scope: signflow.ScopeContractsWrite,
			Body: map[string]any{"amount": 1, "paidAt": "2026-11-22T08:00:00Z", "method": "CASH"}},
		{Method: "POST", Path: "/v1/contracts/" + id + "/payment-links", Scope: signflow.ScopeContractsRead, Body: map[string]any{"provider": "PAYME"}},
		{Method: "GET", Path: "/v1/clients/" + fixture.CustomerIN, Scope: signflow.ScopeClientsRead},
		{Method: "GET", Path: "/v1/me"},
	})
	// The scope check comes before the body is read.
	key := e.key([]string{signflow.ScopeContractsRead})
	if r := e.do("POST", "/v1/contracts", key, `{not json`); r.Status != 403 {
		t.Fatalf("malformed body without the scope: %d %s", r.Status, r)
	}
}

// Each key has its own bucket of KeyPerSecond requests; the refusal is 429
// with Retry-After, and the bucket refills as the clock moves.
func TestRateLimitPerKey(t *testing.T) {
	e := newEnv(t, 2)
	for i := 0; i < 2; i++ {
		if r := e.do("GET", "/v1/me", e.KeyA.Secret, nil); r.Status != 200 {
			t.Fatalf("request %d: %d %s", i, r.Status, r)
		}
	}
	r := e.do("GET", "/v1/contracts", e.KeyA.Secret, nil)
	if r.Status != 429 || r.Header.Get("Retry-After") != "1" {
		t.Fatalf("third request in a second: %d Retry-After %q %s", r.Status, r.Header.Get("Retry-After"), r)
	}
	e.api.Check(t, "/v1/contracts", r)
	if r := e.do("GET", "/v1/me", e.KeyB.Secret, nil); r.Status != 200 {
		t.Fatalf("another key is limited too: %d %s", r.Status, r)
	}
	// A wrong key is refused as such, not counted against anyone.
	if r := e.do("GET", "/v1/me", signflow.KeyPrefix+"nope", nil); r.Status != 401 {
		t.Fatalf("wrong key: %d", r.Status)
	}
	e.Clock.Advance(500 * time.Millisecond)
	if r := e.do("GET", "/v1/me", e.KeyA.Secret, nil); r.Status != 200 {
		t.Fatalf("after half a second: %d %s", r.Status, r)
	}
	if r := e.do("GET", "/v1/me", e.KeyA.Secret, nil); r.Status != 429 {
		t.Fatalf("bucket refilled too fast: %d", r.Status)
	}
}
