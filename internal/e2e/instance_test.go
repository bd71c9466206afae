package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"contracts/assets"
	"contracts/signflow"
	"contracts/storage"
)

// instance is a started appliance with its addresses and admin token.
type instance struct {
	*proc
	embedded, key, admin string
	adminToken           string
	dataDir              string
}

// startInstance runs "contracts serve" in this process on loopback ports
// over dataDir.
func startInstance(t *testing.T, dir, dataDir string, env ...string) *instance {
	t.Helper()
	return newInstance(t, dataDir, run(t, dir, instanceEnv(dataDir, env), instanceArgs...))
}

// startBinaryInstance runs "contracts serve" as a process of its own.
func startBinaryInstance(t *testing.T, dir, dataDir string, env ...string) *instance {
	t.Helper()
	return newInstance(t, dataDir, startBinary(t, dir, instanceEnv(dataDir, env), instanceArgs...))
}

var instanceArgs = []string{"serve", "--embedded-listen", "127.0.0.1:0", "--key-listen", "127.0.0.1:0"}

func instanceEnv(dataDir string, env []string) []string {
	return append([]string{"CONTRACTS_DATA__DIR=" + dataDir, "CONTRACTS_ADMIN__LISTEN=127.0.0.1:0"}, env...)
}

func newInstance(t *testing.T, dataDir string, p *proc) *instance {
	t.Helper()
	addrs := p.listening(t)
	return &instance{proc: p, embedded: "http://" + addrs["embedded"], key: "http://" + addrs["key"],
		admin: "http://" + addrs["admin"], adminToken: secretFile(t, filepath.Join(dataDir, "admin.token")), dataDir: dataDir}
}

// call makes one request and decodes a JSON answer into out when it is 200.
// header holds name, value pairs.
func call(t testing.TB, client *http.Client, method, url string, body []byte, out any, header ...string) int {
	t.Helper()
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode == http.StatusOK && out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			t.Fatalf("%s %s: %v\n%s", method, url, err, data)
		}
	}
	return resp.StatusCode
}

func mustCall(t testing.TB, method, url string, body []byte, out any, header ...string) {
	t.Helper()
	if status := call(t, http.DefaultClient, method, url, body, out, header...); status != http.StatusOK {
		t.Fatalf("%s %s: status %d", method, url, status)
	}
}

func jsonBody(v any) []byte {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return data
}

// httpCall makes one request and returns the status and body.
func httpCall(t *testing.T, method, url, token, ctype, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	resp, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(data)
}

// field returns the value of a "name: value" line.
func field(t *testing.T, out, name string) string {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(line, name+": "); ok && v != "" {
			return v
		}
	}
	t.Fatalf("no %q line in:\n%s", name, out)
	return ""
}

// secretFile reads a generated secret and checks that only its owner can.
func secretFile(t *testing.T, path string) string {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("%s has mode %v, want 0600", path, st.Mode().Perm())
	}
	data, _ := os.ReadFile(path)
	if s := strings.TrimSpace(string(data)); len(s) >= 32 {
		return s
	}
	t.Fatalf("%s holds no secret", path)
	return ""
}

// Parties of the provisioned world.
const (
	loadOwnerIN    = "301234567"
	loadCustomerIN = "31234567890123"
)

// provisioned is an owner, the demo template, an app and a key (both with
// the webhook address when one is given), a bearer token of the app and a
// registered customer.
type provisioned struct {
	templateID, appID, appSecret, apiKey, token string
	webhookSecret, keyWebhookSecret             string
}

func provision(t *testing.T, in *instance, webhookURL string) *provisioned {
	t.Helper()
	auth := []string{"Authorization", "Bearer " + in.adminToken}
	mustCall(t, "POST", in.admin+"/admin/v1/owners", jsonBody(map[string]string{"in": loadOwnerIN, "type": "COMPANY",
		"legalName": "Alpha Savdo MChJ", "phone": "+998 71 200-00-00"}), nil, auth...)
	var tpl struct{ ID string }
	mustCall(t, "POST", in.admin+"/admin/v1/templates", assets.DemoTemplate, &tpl, append(auth, "Content-Type", "application/yaml")...)
	var app struct{ AppID, AppSecret, WebhookSecret string }
	mustCall(t, "POST", in.admin+"/admin/v1/apps", jsonBody(map[string]any{"name": "Shop", "ownerIn": loadOwnerIN,
		"scopes": signflow.AppScopes, "allTemplates": true, "webhookUrl": webhookURL}), &app, auth...)
	var key struct{ Key, WebhookSecret string }
	mustCall(t, "POST", in.admin+"/admin/v1/keys", jsonBody(map[string]any{"name": "ERP", "ownerIn": loadOwnerIN,
		"scopes": signflow.KeyScopes, "allTemplates": true, "webhookUrl": webhookURL}), &key, auth...)
	p := &provisioned{templateID: tpl.ID, appID: app.AppID, appSecret: app.AppSecret, apiKey: key.Key,
		webhookSecret: app.WebhookSecret, keyWebhookSecret: key.WebhookSecret}
	p.token = issueToken(t, in, p)
	mustCall(t, "POST", in.embedded+"/v1/clients", jsonBody(map[string]string{"in": loadCustomerIN, "firstName": "Aziz",
		"lastName": "Karimov", "phone": "+998 90 123-45-67"}), nil, "Authorization", "Bearer "+p.token)
	return p
}

func issueToken(t *testing.T, in *instance, p *provisioned) string {
	t.Helper()
	var tok struct{ AccessToken string }
	mustCall(t, "POST", in.embedded+"/v1/auth/token", jsonBody(map[string]string{"appId": p.appID, "appSecret": p.appSecret}), &tok)
	return tok.AccessToken
}

func (p *provisioned) contractBody() []byte {
	return jsonBody(map[string]any{"templateId": p.templateID, "buyerIn": loadCustomerIN, "price": 1500.25, "currency": "UZS",
		"values":   []map[string]string{{"keyName": "deliveryAddress", "value": "Toshkent, Chilonzor 7"}, {"keyName": "warrantyMonths", "value": "12"}},
		"products": []map[string]any{{"name": "TV", "quantity": 1, "price": 1500.25, "values": map[string]string{"color": "black"}}}})
}

// assertProvisioned checks that the store holds the apps, templates and owners.
func assertProvisioned(t *testing.T, db *storage.DB, apps, templates, clients []string) {
	t.Helper()
	err := db.View(func(tx signflow.Tx) error {
		for _, id := range apps {
			if _, err := tx.App(id); err != nil {
				return fmt.Errorf("app %s: %w", id, err)
			}
		}
		for _, id := range templates {
			if _, err := tx.Template(id); err != nil {
				return fmt.Errorf("template %s: %w", id, err)
			}
		}
		for _, in := range clients {
			if _, err := tx.Owner(in); err != nil {
				return fmt.Errorf("owner %s: %w", in, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("%s: %v", filepath.Base(db.Path()), err)
	}
}
