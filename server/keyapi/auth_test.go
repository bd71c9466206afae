package keyapi

import (
	"slices"
	"strings"
	"testing"
	"time"

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
	for _, sc := range []struct {
		name   string
		header []string
		status int
		want   string
	}{
		{"valid key", []string{HeaderAPIKey, e.KeyA.Secret}, 200, `"name":"Key A"`},
		{"valid key with spaces around", []string{HeaderAPIKey, "  " + e.KeyA.Secret + " "}, 200, `"name":"Key A"`},
		{"no key", nil, 401, badKey},
		{"empty key", []string{HeaderAPIKey, ""}, 401, badKey},
		{"wrong key with the prefix", []string{HeaderAPIKey, signflow.KeyPrefix + signflow.RandomToken(32)}, 401, badKey},
		{"key without the prefix", []string{HeaderAPIKey, strings.TrimPrefix(e.KeyA.Secret, signflow.KeyPrefix)}, 401, badKey},
		{"app secret as key", []string{HeaderAPIKey, e.AppA.Secret}, 401, badKey},
		{"overlong key", []string{HeaderAPIKey, signflow.KeyPrefix + strings.Repeat("a", 300)}, 401, badKey},
		{"revoked key", []string{HeaderAPIKey, revoked.Secret}, 401, badKey},
		{"embedded bearer token", []string{"Authorization", "Bearer " + token}, 401, "X-API-Key"},
		{"key as bearer token", []string{"Authorization", "Bearer " + e.KeyA.Secret}, 401, "X-API-Key"},
	} {
		t.Run(sc.name, func(t *testing.T) {
			r := e.do("GET", "/v1/me", "", nil, sc.header...)
			if r.status != sc.status || !strings.Contains(r.String(), sc.want) {
				t.Fatalf("status %d, want %d with %q: %s", r.status, sc.status, sc.want, r)
			}
			checkJSONReply(t, r, "/v1/me")
		})
	}
	// Every route is behind the key.
	for _, p := range []string{"/v1/templates", "/v1/templates/" + e.Template.ID + "/fields", "/v1/contracts",
		"/v1/contracts/" + signflow.NewID(), "/v1/contracts/" + signflow.NewID() + "/pdf", "/v1/clients/" + fixture.CustomerIN} {
		if r := e.do("GET", p, "", nil, "Authorization", "Bearer "+token); r.status != 401 {
			t.Errorf("GET %s with a bearer token: %d %s", p, r.status, r)
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
	if r := e.do("GET", "/v1/contracts", key, nil); r.status != 200 {
		t.Fatalf("before expiry: %d %s", r.status, r)
	}
	e.Clock.Advance(time.Hour - time.Second)
	if r := e.do("GET", "/v1/me", key, nil); r.status != 200 {
		t.Fatalf("a second before expiry: %d %s", r.status, r)
	}
	e.Clock.Advance(time.Second)
	for _, p := range []string{"/v1/me", "/v1/contracts"} {
		r := e.do("GET", p, key, nil)
		if r.status != 401 {
			t.Fatalf("%s at expiresAt: %d %s", p, r.status, r)
		}
		checkJSONReply(t, r, p)
	}
}

// route is a route of the key interface with the scope it needs.
type route struct {
	method, path, scope string
	body                any
}

// Every route refuses, with 403 naming the scope, a key that lacks the
// route's scope, and lets through a key that lacks any other scope.
func TestScopeMatrix(t *testing.T) {
	e := newEnv(t, 0)
	id := e.create(e.KeyA.Secret, e.sale())
	routes := []route{
		{"GET", "/v1/templates", signflow.ScopeTemplatesRead, nil},
		{"GET", "/v1/templates/" + e.Template.ID + "/fields", signflow.ScopeTemplatesRead, nil},
		{"POST", "/v1/contracts", signflow.ScopeContractsWrite, e.sale()},
		{"GET", "/v1/contracts", signflow.ScopeContractsRead, nil},
		{"GET", "/v1/contracts/" + id, signflow.ScopeContractsRead, nil},
		{"GET", "/v1/contracts/" + id + "/pdf", signflow.ScopeContractsRead, nil},
		{"POST", "/v1/contracts/" + id + "/complete", signflow.ScopeContractsWrite, nil},
		{"POST", "/v1/contracts/" + id + "/cancel", signflow.ScopeContractsWrite, nil},
		{"GET", "/v1/clients/" + fixture.CustomerIN, signflow.ScopeClientsRead, nil},
	}
	for _, missing := range signflow.KeyScopes {
		scopes := slices.DeleteFunc(slices.Clone(signflow.KeyScopes), func(s string) bool { return s == missing })
		key := e.key(scopes)
		for _, rt := range routes {
			t.Run("without "+missing+" "+rt.method+" "+rt.path, func(t *testing.T) {
				r := e.do(rt.method, rt.path, key, rt.body)
				if rt.scope == missing {
					if r.status != 403 || !strings.Contains(r.String(), missing) {
						t.Fatalf("status %d, want 403 naming %s: %s", r.status, missing, r)
					}
					checkJSONReply(t, r, rt.path)
				} else if r.status == 403 || r.status == 401 {
					t.Fatalf("refused for lacking another scope than %s: %d %s", missing, r.status, r)
				}
			})
		}
		t.Run("without "+missing+" GET /v1/me", func(t *testing.T) {
			if r := e.do("GET", "/v1/me", key, nil); r.status != 200 {
				t.Fatalf("/v1/me needs no scope: %d %s", r.status, r)
			}
		})
	}
	// The scope check comes before the body is read.
	key := e.key([]string{signflow.ScopeContractsRead})
	if r := e.do("POST", "/v1/contracts", key, `{not json`); r.status != 403 {
		t.Fatalf("malformed body without the scope: %d %s", r.status, r)
	}
}

// Each key has its own bucket of KeyPerSecond requests; the refusal is 429
// with Retry-After, and the bucket refills as the clock moves.
func TestRateLimitPerKey(t *testing.T) {
	e := newEnv(t, 2)
	for i := 0; i < 2; i++ {
		if r := e.do("GET", "/v1/me", e.KeyA.Secret, nil); r.status != 200 {
			t.Fatalf("request %d: %d %s", i, r.status, r)
		}
	}
	r := e.do("GET", "/v1/contracts", e.KeyA.Secret, nil)
	if r.status != 429 || r.header.Get("Retry-After") != "1" {
		t.Fatalf("third request in a second: %d Retry-After %q %s", r.status, r.header.Get("Retry-After"), r)
	}
	checkJSONReply(t, r, "/v1/contracts")
	if r := e.do("GET", "/v1/me", e.KeyB.Secret, nil); r.status != 200 {
		t.Fatalf("another key is limited too: %d %s", r.status, r)
	}
	// A wrong key is refused as such, not counted against anyone.
	if r := e.do("GET", "/v1/me", signflow.KeyPrefix+"nope", nil); r.status != 401 {
		t.Fatalf("wrong key: %d", r.status)
	}
	e.Clock.Advance(500 * time.Millisecond)
	if r := e.do("GET", "/v1/me", e.KeyA.Secret, nil); r.status != 200 {
		t.Fatalf("after half a second: %d %s", r.status, r)
	}
	if r := e.do("GET", "/v1/me", e.KeyA.Secret, nil); r.status != 429 {
		t.Fatalf("bucket refilled too fast: %d", r.status)
	}
}
