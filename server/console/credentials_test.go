package console_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"contracts/internal/apitest"
	"contracts/signflow"
)

// Apps and keys: created with scopes as checkboxes, their secrets shown
// once and working; rotate, cancel and revoke take effect.
func TestConsoleAppsAndKeys(t *testing.T) {
	e := newEnv(t)
	b := e.loggedIn(t)
	var appID, secret, rotated string
	apitest.Run(t, b.api, []apitest.Scenario{
		{Name: "the form", Path: "/console/apps?new=1", Status: 200},
		{Name: "app without scopes", Method: "POST", Path: "/console/apps", As: pageToken,
			Body:   url.Values{"name": {"Shop"}, "owner": {"301234567"}, "allTemplates": {"true"}},
			Status: http.StatusBadRequest, Want: []string{"Choose at least one scope.", `value="Shop"`}},
		{Name: "app of no owner", Method: "POST", Path: "/console/apps", As: pageToken,
			Body:   url.Values{"name": {"Shop"}, "owner": {"300000009"}, "scopes": {"CONTRACTS_READ"}, "allTemplates": {"true"}},
			Status: http.StatusBadRequest, Want: []string{"No owner has this number."}},
		{Name: "bad expiry", Method: "POST", Path: "/console/apps", As: pageToken,
			Body:   url.Values{"name": {"Shop"}, "owner": {"301234567"}, "scopes": {"CONTRACTS_READ"}, "expires": {"soon"}},
			Status: http.StatusBadRequest, Want: []string{"Give the expiry as a date"}},
		{Name: "app created", Method: "POST", Path: "/console/apps", As: pageToken,
			Body: url.Values{"name": {"Console shop"}, "owner": {"301234567 — Alpha Savdo MChJ"}, "scopes": {"CONTRACTS_READ", "CONTRACTS_WRITE"},
				"allTemplates": {"true"}, "webhookUrl": {"https://shop.example/hook"}, "webhookEvents": {"CONTRACT_CREATED"}, "expires": {"2030-01-01"}},
			Status: 200, Want: []string{`<label for="app-id" id="app-id-label">App ID</label>`, `<label for="app-secret" id="app-secret-label">App secret</label>`,
				`<label for="webhook-secret" id="webhook-secret-label">Webhook secret</label>`, ">Copy</button>", "Console shop"},
			Check: func(t *testing.T, r apitest.Reply) {
				appID, secret = inputValue(r.Body, "app-id"), inputValue(r.Body, "app-secret")
				if status, tok := e.token(t, appID, secret); status != 200 || tok == "" {
					t.Fatalf("the shown secret gets no token: %d", status)
				}
				if a := findApp(t, e, "Console shop"); a.Name != "Console shop" || strings.Join(a.Scopes, ",") != "CONTRACTS_READ,CONTRACTS_WRITE" || !a.AllTemplates ||
					a.WebhookURL != "https://shop.example/hook" || len(a.WebhookEvents) != 1 || a.ExpiresAt == nil {
					t.Fatalf("stored app: %+v", a)
				}
			}},
	})
	apitest.Run(t, b.api, []apitest.Scenario{
		{Name: "the secret is shown once", Path: "/console/apps", Status: 200, Not: []string{secret, `id="app-secret"`}},
		{Name: "rotated", Method: "POST", Path: "/console/apps/" + appID + "/secret", As: pageToken, Body: url.Values{},
			Status: 200, Want: []string{"A new secret was issued", `id="app-secret"`}, Check: func(t *testing.T, r apitest.Reply) {
				rotated = inputValue(r.Body, "app-secret")
				if status, _ := e.token(t, appID, secret); status == 200 {
					t.Fatal("the old secret still works")
				}
				if status, _ := e.token(t, appID, rotated); status != 200 {
					t.Fatal("the rotated secret does not work")
				}
			}},
		{Name: "cancel app", Method: "POST", Path: "/console/apps/" + appID + "/cancel", As: pageToken, Body: url.Values{},
			Status: http.StatusSeeOther, Check: b.then(apitest.Scenario{Name: "cancelled", Status: 200, Want: []string{"The app was cancelled.", "Stopped"}})},
		{Name: "a cancelled app's secret", Path: "/console/apps", Status: 200, Check: func(t *testing.T, _ apitest.Reply) {
			if status, _ := e.token(t, appID, rotated); status != http.StatusForbidden {
				t.Fatalf("a cancelled app's secret: %d", status)
			}
		}},
		{Name: "rotate unknown", Method: "POST", Path: "/console/apps/nothing/secret", As: pageToken, Body: url.Values{},
			Status: http.StatusNotFound, Want: []string{"App not found."}},
	})

	var keyID, key string
	apitest.Run(t, b.api, []apitest.Scenario{
		{Name: "the key form", Path: "/console/keys?new=1", Status: 200},
		{Name: "key created", Method: "POST", Path: "/console/keys", As: pageToken,
			Body:   url.Values{"name": {"Console ERP"}, "owner": {"309876543"}, "scopes": {"CONTRACTS_READ"}, "templateIds": {e.Template.ID}},
			Status: 200, Want: []string{`<label for="api-key" id="api-key-label">API key</label>`, "Webhook secret"}, Check: func(t *testing.T, r apitest.Reply) {
				keyID, key = inputValue(r.Body, "key-id"), inputValue(r.Body, "api-key")
				if k, err := e.Service.AuthenticateKey(key); err != nil || k.ID != keyID || k.AllTemplates || len(k.TemplateIDs) != 1 {
					t.Fatalf("the shown key: %+v %v", k, err)
				}
			}},
	})
	apitest.Run(t, b.api, []apitest.Scenario{
		{Name: "revoke", Method: "POST", Path: "/console/keys/" + keyID + "/revoke", As: pageToken, Body: url.Values{},
			Status: http.StatusSeeOther, Check: func(t *testing.T, _ apitest.Reply) {
				if _, err := e.Service.AuthenticateKey(key); err == nil {
					t.Fatal("a revoked key works")
				}
			}},
		{Name: "key with events", Method: "POST", Path: "/console/keys", As: pageToken,
			Body:   url.Values{"name": {"K"}, "owner": {"309876543"}, "scopes": {"CONTRACTS_READ"}, "allTemplates": {"true"}, "webhookEvents": {"CONTRACT_CREATED"}},
			Status: http.StatusBadRequest, Want: []string{"A key receives every event"}},
	})
}

func findApp(t *testing.T, e *env, name string) *signflow.App {
	t.Helper()
	apps, _ := e.Service.Apps()
	for _, a := range apps {
		if a.Name == name {
			return a
		}
	}
	t.Fatalf("no app %q", name)
	return nil
}
