package admin_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"contracts/internal/fixture"
	"contracts/server"
	"contracts/server/admin"
	"contracts/signflow"
	"contracts/storage"

	"github.com/rs/zerolog"
	bolt "go.etcd.io/bbolt"
)

const adminToken = "admin-token-0123456789abcdefghijklmnop"

// adminServer is the admin routes on a real HTTP server over a fresh
// bbolt file.
type adminServer struct {
	*fixture.World
	url         string
	redelivered atomic.Int32
	notReady    atomic.Bool
}

func newAdminServer(t *testing.T) *adminServer {
	t.Helper()
	a := &adminServer{World: fixture.New(t, signflow.Options{})}
	m := server.NewMetrics()
	e := server.NewEcho("admin", zerolog.New(io.Discard), m, true)
	admin.Register(e, admin.Deps{Service: a.Service, DB: a.DB, Token: adminToken, Metrics: m,
		Ready: func() error {
			if a.notReady.Load() {
				return errors.New("database closed")
			}
			return nil
		},
		Redelivered: func() { a.redelivered.Add(1) }})
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	a.url = srv.URL
	return a
}

// call sends one request with the admin token (or the given one when
// token is not "default") and returns the status, headers and body.
func (a *adminServer) call(t *testing.T, method, path, ctype, body, token string) (int, http.Header, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, a.url+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if token == "default" {
		token = "Bearer " + adminToken
	}
	if token != "" {
		req.Header.Set("Authorization", token)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, data
}

// ok calls with the admin token and decodes a JSON answer of want status.
func (a *adminServer) ok(t *testing.T, method, path, ctype, body string, want int, out any) {
	t.Helper()
	status, h, data := a.call(t, method, path, ctype, body, "default")
	if status != want {
		t.Fatalf("%s %s: %d, want %d: %s", method, path, status, want, data)
	}
	if out != nil {
		if ct := h.Get("Content-Type"); ct != server.MIMEJSON {
			t.Fatalf("%s %s: Content-Type %q", method, path, ct)
		}
		if err := json.Unmarshal(data, out); err != nil {
			t.Fatalf("%s %s: %v in %s", method, path, err, data)
		}
	}
}

const templateJSON = `{"name": {"uz": "Xizmat", "ru": "Услуги", "en": "Services"},
 "sellerName": {"uz": "Ijrochi", "ru": "Исполнитель", "en": "Contractor"},
 "buyerName": {"uz": "Buyurtmachi", "ru": "Заказчик", "en": "Client"},
 "exchangeMode": "MONEY",
 "fields": [{"keyName": "startDate", "type": "DATE", "name": {"uz": "Boshlanish", "ru": "Начало", "en": "Start"}}]}`

const ownerJSON = `{"in": "301234567", "type": "COMPANY", "legalName": "Alpha Savdo MChJ", "phone": "+998 71 200-00-00"}`

type created struct {
	ID, AppID, AppSecret, WebhookSecret, Key string
	Fields                                   []struct{ ID, KeyName string }
}

// TestAdminHappyPaths walks every route of docs/admin-api.md once.
func TestAdminHappyPaths(t *testing.T) {
	a := newAdminServer(t)

	var owner signflow.Client
	a.ok(t, "POST", "/admin/v1/owners", "application/json", ownerJSON, 200, &owner)
	if owner.IN != "301234567" || owner.LegalName != "Alpha Savdo MChJ" || owner.Phone != "998712000000" || owner.ID == "" {
		t.Fatalf("owner: %+v", owner)
	}
	a.ok(t, "POST", "/admin/v1/owners", "application/json",
		`{"in": "31234567890123", "firstName": "Aziz", "lastName": "Karimov", "phone": "998901234567"}`, 200, &owner)
	if owner.Type != signflow.ClientIndividual {
		t.Fatalf("an individual without a type: %+v", owner)
	}
	// The same number again says what it did: the administrator may not know it was taken.
	for _, s := range []struct{ body, result, changed string }{
		{ownerJSON, "unchanged", ""},
		{`{"in": "309999999", "type": "COMPANY", "legalName": "Delta LLC"}`, "created", ""},
		{`{"in": "309999999", "type": "COMPANY", "legalName": "Gamma LLC", "phone": "+998 71 200-00-01"}`, "updated", "legalName,phone"},
	} {
		var saved struct {
			IN, LegalName, Result string
			Changed               []string
		}
		a.ok(t, "POST", "/admin/v1/owners", "application/json", s.body, 200, &saved)
		if saved.Result != s.result || strings.Join(saved.Changed, ",") != s.changed || saved.LegalName == "" {
			t.Fatalf("%s: %+v", s.body, saved)
		}
	}

	var yamlTpl, jsonTpl created
	a.ok(t, "POST", "/admin/v1/templates", "application/yaml", fixture.TemplateYAML, 200, &yamlTpl)
	if yamlTpl.ID == "" || len(yamlTpl.Fields) != 3 || yamlTpl.Fields[0].KeyName != "deliveryAddress" || yamlTpl.Fields[0].ID == "" {
		t.Fatalf("YAML template answer: %+v", yamlTpl)
	}
	a.ok(t, "POST", "/admin/v1/templates", "application/json", templateJSON, 200, &jsonTpl)
	if jsonTpl.ID == "" || len(jsonTpl.Fields) != 1 || jsonTpl.Fields[0].KeyName != "startDate" {
		t.Fatalf("JSON template answer: %+v", jsonTpl)
	}
	fixture.Must(t, func() error {
		return a.DB.View(func(tx signflow.Tx) error {
			tpl, err := tx.Template(yamlTpl.ID)
			if err == nil && (tpl.Name.EN != "Sales contract" || tpl.Status != signflow.TemplatePublished || tpl.Body.EN == "") {
				err = errors.New("stored YAML template lost its definition")
			}
			return err
		})
	})
	// Unpublish makes a draft no contract can use; publish undoes it; both twice are no-ops.
	for _, step := range []struct{ verb, want string }{{"unpublish", signflow.TemplateDraft}, {"unpublish", signflow.TemplateDraft},
		{"publish", signflow.TemplatePublished}, {"publish", signflow.TemplatePublished}} {
		a.ok(t, "POST", "/admin/v1/templates/"+jsonTpl.ID+"/"+step.verb, "", "", 204, nil)
		fixture.Must(t, func() error {
			return a.DB.View(func(tx signflow.Tx) error {
				if tpl, err := tx.Template(jsonTpl.ID); err != nil || tpl.Status != step.want {
					return fmt.Errorf("after %s: %v %v", step.verb, tpl.Status, err)
				}
				return nil
			})
		})
	}

	var app created
	a.ok(t, "POST", "/admin/v1/apps", "application/json", `{"name": "Shop", "ownerIn": "301234567",
		"scopes": ["CONTRACTS_READ", "CONTRACTS_WRITE", "CONTRACTS_SIGN"], "templateIds": ["`+yamlTpl.ID+`"],
		"webhookUrl": "https://shop.example/hook", "webhookEvents": ["CONTRACT_CREATED", "CONTRACT_SIGNED"],
		"expiresAt": "2030-01-01T00:00:00Z"}`, 200, &app)
	if app.AppID == "" || len(app.AppSecret) < 40 || !strings.HasPrefix(app.WebhookSecret, "whsec_") {
		t.Fatalf("app answer: %+v", app)
	}
	if _, err := a.Service.IssueToken(app.AppID, app.AppSecret); err != nil {
		t.Fatalf("the new app's secret does not work: %v", err)
	}
	oldToken, _ := a.Service.IssueToken(app.AppID, app.AppSecret)

	var rotated created
	a.ok(t, "POST", "/admin/v1/apps/"+app.AppID+"/secret", "", "", 200, &rotated)
	if rotated.AppSecret == "" || rotated.AppSecret == app.AppSecret {
		t.Fatalf("rotation answer: %+v", rotated)
	}
	if _, err := a.Service.IssueToken(app.AppID, app.AppSecret); signflow.ErrorCode(err) != signflow.EUNAUTHORIZED {
		t.Fatalf("old secret after rotation: %v", err)
	}
	if _, err := a.Service.AuthenticateToken(oldToken); signflow.ErrorCode(err) != signflow.EUNAUTHORIZED {
		t.Fatalf("a token of the old secret still works: %v", err)
	}
	if _, err := a.Service.IssueToken(app.AppID, rotated.AppSecret); err != nil {
		t.Fatalf("new secret: %v", err)
	}

	var key created
	a.ok(t, "POST", "/admin/v1/keys", "application/json", `{"name": "ERP", "ownerIn": "301234567",
		"scopes": ["CONTRACTS_READ"], "allTemplates": true, "webhookUrl": "https://erp.example/hook"}`, 200, &key)
	if key.ID == "" || !strings.HasPrefix(key.Key, signflow.KeyPrefix) || !strings.HasPrefix(key.WebhookSecret, "whsec_") {
		t.Fatalf("key answer: %+v", key)
	}
	if k, err := a.Service.AuthenticateKey(key.Key); err != nil || k.ID != key.ID {
		t.Fatalf("the new key does not work: %v", err)
	}

	// A contract of the app gives a delivery to the app and one to the key.
	var stored *signflow.App
	fixture.Must(t, func() (err error) {
		return a.DB.View(func(tx signflow.Tx) error { stored, err = tx.App(app.AppID); return err })
	})
	c, err := a.Service.CreateContract(stored.Access(), &signflow.ContractInput{TemplateID: yamlTpl.ID, BuyerIN: "31234567890123", Price: 100}, signflow.Actor{})
	if err != nil {
		t.Fatal(err)
	}
	type delivery struct {
		ID, Event, ContractID, Target, URL, Status string
		Attempts                                   []struct {
			At         string
			StatusCode int
			DurationMs int64
			Error      string
		}
	}
	var list []delivery
	a.ok(t, "GET", "/admin/v1/deliveries", "", "", 200, &list)
	if len(list) != 2 {
		t.Fatalf("%d deliveries, want 2 (app and key)", len(list))
	}
	targets := map[string]string{}
	for _, d := range list {
		if d.Event != signflow.EventCreated || d.ContractID != c.ID || d.Status != "PENDING" || d.Attempts == nil || len(d.Attempts) != 0 {
			t.Fatalf("delivery: %+v", d)
		}
		targets[d.Target] = d.URL
	}
	if targets["app:"+app.AppID] != "https://shop.example/hook" || targets["key:"+key.ID] != "https://erp.example/hook" {
		t.Fatalf("targets: %v", targets)
	}
	a.ok(t, "GET", "/admin/v1/deliveries?contractId=00000000-0000-0000-0000-000000000000", "", "", 200, &list)
	if len(list) != 0 {
		t.Fatalf("filter by another contract: %d", len(list))
	}

	// A failed delivery is listed by status and can be sent again.
	var failed *signflow.Delivery
	fixture.Must(t, func() error {
		return a.DB.Update(func(tx signflow.Tx) error {
			all, err := tx.Deliveries(signflow.DeliveryFilter{})
			if err != nil {
				return err
			}
			failed = all[0]
			failed.Status = signflow.DeliveryFailed
			failed.Attempts = []signflow.Attempt{{At: a.Clock.Now(), StatusCode: 502, DurationMs: 12, Error: "bad gateway"}}
			return tx.PutDelivery(failed)
		})
	})
	a.ok(t, "GET", "/admin/v1/deliveries?status=FAILED&contractId="+c.ID, "", "", 200, &list)
	if len(list) != 1 || list[0].ID != failed.ID || len(list[0].Attempts) != 1 || list[0].Attempts[0].StatusCode != 502 ||
		list[0].Attempts[0].Error != "bad gateway" || list[0].Attempts[0].At != "2026-11-22T09:00:00Z" {
		t.Fatalf("FAILED deliveries: %+v", list)
	}
	a.ok(t, "POST", "/admin/v1/deliveries/"+failed.ID+"/redeliver", "", "", 202, nil)
	if a.redelivered.Load() != 1 {
		t.Fatalf("the delivery workers were told %d times", a.redelivered.Load())
	}
	a.ok(t, "GET", "/admin/v1/deliveries?status=PENDING", "", "", 200, &list)
	if len(list) != 2 {
		t.Fatalf("after redelivery %d PENDING, want 2", len(list))
	}

	// Cancel and revoke stop the credentials.
	a.ok(t, "POST", "/admin/v1/apps/"+app.AppID+"/cancel", "", "", 204, nil)
	if _, err := a.Service.IssueToken(app.AppID, rotated.AppSecret); signflow.ErrorCode(err) != signflow.EFORBIDDEN {
		t.Fatalf("token for a cancelled app: %v", err)
	}
	a.ok(t, "POST", "/admin/v1/keys/"+key.ID+"/revoke", "", "", 204, nil)
	if _, err := a.Service.AuthenticateKey(key.Key); signflow.ErrorCode(err) != signflow.EUNAUTHORIZED {
		t.Fatalf("revoked key: %v", err)
	}

	// The backup is a bbolt file holding all of it.
	status, h, data := a.call(t, "GET", "/admin/v1/backup", "", "", "default")
	if status != 200 || h.Get("Content-Type") != "application/octet-stream" || len(data) == 0 {
		t.Fatalf("backup: %d %q, %d bytes", status, h.Get("Content-Type"), len(data))
	}
	fixture.Must(t, func() error {
		return fixture.OpenBackup(t, data).View(func(tx signflow.Tx) error {
			got, err := tx.App(app.AppID)
			if err != nil {
				return err
			}
			if !got.Cancelled {
				return errors.New("the backup predates the cancel")
			}
			_, err = tx.Contract(c.ID)
			return err
		})
	})
}

func TestAdminHealthAndMetrics(t *testing.T) {
	a := newAdminServer(t)
	for _, path := range []string{"/healthz", "/readyz"} {
		status, _, data := a.call(t, "GET", path, "", "", "")
		if status != 200 || !strings.Contains(string(data), `"status"`) {
			t.Fatalf("%s without a token: %d %s", path, status, data)
		}
	}
	a.notReady.Store(true)
	if status, _, data := a.call(t, "GET", "/readyz", "", "", ""); status != 503 || !strings.Contains(string(data), "database closed") {
		t.Fatalf("/readyz when not ready: %d %s", status, data)
	}
	status, _, data := a.call(t, "GET", "/metrics", "", "", "")
	if status != 200 || !strings.Contains(string(data), "go_goroutines") || !strings.Contains(string(data), `contracts_http_requests_total{interface="admin",route="/healthz",status="200"} 1`) {
		t.Fatalf("/metrics: %d\n%s", status, data)
	}
}

// A warning keeps /readyz at 200 and is listed in its body.
func TestAdminReadyWarnings(t *testing.T) {
	w := fixture.New(t, signflow.Options{})
	m := server.NewMetrics()
	e := server.NewEcho("admin", zerolog.New(io.Discard), m, true)
	admin.Register(e, admin.Deps{Service: w.Service, DB: w.DB, Token: adminToken, Metrics: m, Warnings: []string{"codes go to the log"}})
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	resp, err := http.Get(srv.URL + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || string(data) != `{"status":"ready","warnings":["codes go to the log"]}`+"\n" {
		t.Fatalf("/readyz with a warning: %d %s", resp.StatusCode, data)
	}
}

// TestAdminRefusals: every bad call gets its status and a reason, and
// leaves the database exactly as it was.
func TestAdminRefusals(t *testing.T) {
	a := newAdminServer(t)
	a.ok(t, "POST", "/admin/v1/owners", "application/json", ownerJSON, 200, nil)
	var tpl, app, key created
	a.ok(t, "POST", "/admin/v1/templates", "application/yaml", fixture.TemplateYAML, 200, &tpl)
	a.ok(t, "POST", "/admin/v1/apps", "application/json", `{"name": "Shop", "ownerIn": "301234567", "scopes": ["CONTRACTS_READ"], "allTemplates": true}`, 200, &app)
	a.ok(t, "POST", "/admin/v1/keys", "application/json", `{"name": "ERP", "ownerIn": "301234567", "scopes": ["CONTRACTS_READ"], "allTemplates": true}`, 200, &key)

	routes := []struct{ method, path string }{
		{"POST", "/admin/v1/owners"}, {"POST", "/admin/v1/templates"}, {"POST", "/admin/v1/apps"},
		{"POST", "/admin/v1/apps/" + app.AppID + "/secret"}, {"POST", "/admin/v1/apps/" + app.AppID + "/cancel"},
		{"POST", "/admin/v1/keys"}, {"POST", "/admin/v1/keys/" + key.ID + "/revoke"}, {"GET", "/admin/v1/deliveries"},
		{"POST", "/admin/v1/deliveries/x/redeliver"}, {"GET", "/admin/v1/backup"},
		{"POST", "/admin/v1/templates/" + tpl.ID + "/publish"}, {"POST", "/admin/v1/templates/" + tpl.ID + "/unpublish"},
		{"PUT", "/admin/v1/templates/" + tpl.ID},
	}
	type refusal struct {
		name, method, path, ctype, body, token string
		status                                 int
		want                                   string
	}
	var cases []refusal
	for _, r := range routes {
		for name, token := range map[string]string{"no token": "", "wrong token": "Bearer wrong", "token without Bearer": adminToken,
			"token with a suffix": "Bearer " + adminToken + "x"} {
			cases = append(cases, refusal{name + " " + r.method + " " + r.path, r.method, r.path, "application/json", "{}", token, 401, "admin token"})
		}
	}
	const good = "default"
	threeNames := `name: {uz: a, ru: b, en: c}
sellerName: {uz: a, ru: b, en: c}
buyerName: {uz: a, ru: b, en: c}
`
	cases = append(cases, []refusal{
		{"malformed JSON owner", "POST", "/admin/v1/owners", "application/json", `{"in": "301234567",`, good, 400, "Malformed request"},
		{"wrong type in owner", "POST", "/admin/v1/owners", "application/json", `{"in": 301234567}`, good, 400, "in: must be a string"},
		{"invalid owner", "POST", "/admin/v1/owners", "application/json", `{"in": "12", "type": "COMPANY", "legalName": "X"}`, good, 400, "in: must be 9 digits"},
		{"empty owner body", "POST", "/admin/v1/owners", "application/json", ``, good, 400, "empty"},
		{"malformed JSON template", "POST", "/admin/v1/templates", "application/json", `{"name": {"uz": }`, good, 400, "malformed JSON"},
		{"malformed YAML template", "POST", "/admin/v1/templates", "application/yaml", "name: [unclosed\n", good, 400, "malformed YAML"},
		{"YAML sent as JSON", "POST", "/admin/v1/templates", "application/json", fixture.TemplateYAML, good, 400, "malformed JSON"},
		{"template without names", "POST", "/admin/v1/templates", "application/yaml", "type: B2C\n", good, 400, "name: uz, ru and en are required"},
		{"template missing a language", "POST", "/admin/v1/templates", "application/json",
			`{"name": {"uz": "a", "ru": "b"}, "sellerName": {"uz": "a", "ru": "b", "en": "c"}, "buyerName": {"uz": "a", "ru": "b", "en": "c"}}`, good, 400, "name: uz, ru and en"},
		{"unknown field type", "POST", "/admin/v1/templates", "application/yaml", threeNames +
			"fields:\n  - {keyName: size, type: COLOUR, name: {uz: a, ru: b, en: c}}\n", good, 400, `fields[0].type: unknown field type "COLOUR"`},
		{"field without names", "POST", "/admin/v1/templates", "application/yaml", threeNames +
			"fields:\n  - {keyName: size, type: STRING}\n", good, 400, "fields[0].name: uz, ru and en are required"},
		{"duplicate keyName", "POST", "/admin/v1/templates", "application/yaml", threeNames +
			"fields:\n  - {keyName: size, type: STRING, name: {uz: a, ru: b, en: c}}\n  - {keyName: size, type: INTEGER, name: {uz: a, ru: b, en: c}}\n",
			good, 400, `fields[1].keyName: duplicate keyName "size"`},
		{"missing keyName", "POST", "/admin/v1/templates", "application/yaml", threeNames +
			"fields:\n  - {type: STRING, name: {uz: a, ru: b, en: c}}\n", good, 400, "fields[0].keyName: required"},
		{"unknown owner for an app", "POST", "/admin/v1/apps", "application/json",
			`{"name": "Shop", "ownerIn": "309999999", "scopes": ["CONTRACTS_READ"], "allTemplates": true}`, good, 400, "ownerIn: no owner"},
		{"unknown template for an app", "POST", "/admin/v1/apps", "application/json",
			`{"name": "Shop", "ownerIn": "301234567", "scopes": ["CONTRACTS_READ"], "templateIds": ["no-such"]}`, good, 400, "templateIds"},
		{"unknown scope for an app", "POST", "/admin/v1/apps", "application/json",
			`{"name": "Shop", "ownerIn": "301234567", "scopes": ["EVERYTHING"], "allTemplates": true}`, good, 400, `unknown scope "EVERYTHING"`},
		{"app without a name", "POST", "/admin/v1/apps", "application/json",
			`{"ownerIn": "301234567", "scopes": ["CONTRACTS_READ"], "allTemplates": true}`, good, 400, "name: required"},
		{"app with a relative webhook", "POST", "/admin/v1/apps", "application/json",
			`{"name": "Shop", "ownerIn": "301234567", "scopes": ["CONTRACTS_READ"], "allTemplates": true, "webhookUrl": "/hook"}`, good, 400, "webhookUrl"},
		{"app with the metadata service as webhook", "POST", "/admin/v1/apps", "application/json",
			`{"name": "Shop", "ownerIn": "301234567", "scopes": ["CONTRACTS_READ"], "allTemplates": true, "webhookUrl": "http://169.254.169.254/latest/meta-data/"}`,
			good, 400, "webhookUrl: 169.254.169.254 is a link-local address"},
		{"key with a link-local IPv6 webhook", "POST", "/admin/v1/keys", "application/json",
			`{"name": "ERP", "ownerIn": "301234567", "scopes": ["CONTRACTS_READ"], "allTemplates": true, "webhookUrl": "http://[::ffff:a9fe:a9fe]:8080/"}`,
			good, 400, "link-local"},
		{"app with an unknown event", "POST", "/admin/v1/apps", "application/json",
			`{"name": "Shop", "ownerIn": "301234567", "scopes": ["CONTRACTS_READ"], "allTemplates": true, "webhookEvents": ["BOOM"]}`, good, 400, "webhookEvents"},
		{"app with a bad expiry", "POST", "/admin/v1/apps", "application/json",
			`{"name": "Shop", "ownerIn": "301234567", "scopes": ["CONTRACTS_READ"], "allTemplates": true, "expiresAt": "tomorrow"}`, good, 400, "Malformed request"},
		{"app scope on a key", "POST", "/admin/v1/keys", "application/json",
			`{"name": "ERP", "ownerIn": "301234567", "scopes": ["CONTRACTS_SIGN"], "allTemplates": true}`, good, 400, "unknown scope"},
		{"key with webhook events", "POST", "/admin/v1/keys", "application/json",
			`{"name": "ERP", "ownerIn": "301234567", "scopes": ["CONTRACTS_READ"], "allTemplates": true, "webhookEvents": ["CONTRACT_CREATED"]}`, good, 400, "webhookEvents"},
		{"key of an unknown owner", "POST", "/admin/v1/keys", "application/json",
			`{"name": "ERP", "ownerIn": "309999999", "scopes": ["CONTRACTS_READ"], "allTemplates": true}`, good, 400, "ownerIn"},
		{"rotate an unknown app", "POST", "/admin/v1/apps/no-such-app/secret", "", "", good, 404, "App not found"},
		{"cancel an unknown app", "POST", "/admin/v1/apps/no-such-app/cancel", "", "", good, 404, "App not found"},
		{"revoke an unknown key", "POST", "/admin/v1/keys/no-such-key/revoke", "", "", good, 404, "Key not found"},
		{"publish an unknown template", "POST", "/admin/v1/templates/00000000-0000-4000-8000-000000000000/publish", "", "", good, 404, "Template not found"},
		{"unpublish a malformed template id", "POST", "/admin/v1/templates/no-such/unpublish", "", "", good, 404, "Template not found"},
		{"template with a wrong line", "POST", "/admin/v1/templates", "application/yaml", threeNames + "fields:\n  - {keyName: a, type: COLOUR, name: {uz: a, ru: b, en: c}}\n",
			good, 400, `line 5: fields[0].type: unknown field type "COLOUR"`},
		{"unknown key", "POST", "/admin/v1/templates", "application/yaml", threeNames + "productEnabled: true\nproductRequried: true\n",
			good, 400, "line 5: productRequried: unknown key"},
		{"unknown key in JSON", "POST", "/admin/v1/templates", "application/json", "{\"name\": {\"uz\": \"a\", \"ru\": \"b\", \"en\": \"c\"},\n \"Type\": \"B2C\"}",
			good, 400, "line 2: Type: unknown key"},
		{"unknown type", "POST", "/admin/v1/templates", "application/yaml", threeNames + "type: B2X\n", good, 400, `line 4: type: "B2X" is not one of B2C, B2B, C2C, B2G`},
		{"unknown placeholder", "POST", "/admin/v1/templates", "application/yaml", threeNames + "body:\n  uz: |\n    a\n    {{warantyMonths}}\n  ru: b\n  en: c\n",
			good, 400, "line 7: body.uz: unknown placeholder {{warantyMonths}}"},
		{"new version with an unknown placeholder", "PUT", "/admin/v1/templates/" + tpl.ID, "application/yaml",
			strings.Replace(fixture.TemplateYAML, "{{deliveryAddress}}\"\n  ru", "{{deliveryAdress}}\"\n  ru", 1), good, 400, "line 13: body.uz: unknown placeholder {{deliveryAdress}}"},
		{"new version, malformed", "PUT", "/admin/v1/templates/" + tpl.ID, "application/json", `{"name": `, good, 400, "malformed JSON"},
		{"new version of an unknown template", "PUT", "/admin/v1/templates/00000000-0000-4000-8000-000000000000", "application/yaml", fixture.TemplateYAML,
			good, 404, "Template not found"},
		{"new version of a malformed id", "PUT", "/admin/v1/templates/no-such", "application/yaml", fixture.TemplateYAML, good, 404, "Template not found"},
		{"redeliver an unknown delivery", "POST", "/admin/v1/deliveries/no-such/redeliver", "", "", good, 404, "Delivery not found"},
		{"unknown delivery status", "GET", "/admin/v1/deliveries?status=LOST", "", "", good, 400, "status: must be PENDING"},
		{"unknown admin route", "GET", "/admin/v1/nothing", "", "", good, 404, "No such route"},
		{"body over 1 MiB", "POST", "/admin/v1/templates", "application/yaml", "# " + strings.Repeat("x", server.MaxBody), good, 413, "larger than 1 MiB"},
	}...)

	before := countRecords(t, a.DB)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, h, data := a.call(t, c.method, c.path, c.ctype, c.body, c.token)
			if status != c.status {
				t.Fatalf("status %d, want %d: %s", status, c.status, data)
			}
			if ct := h.Get("Content-Type"); ct != server.MIMEJSON {
				t.Fatalf("Content-Type %q", ct)
			}
			var body server.ErrorBody
			if err := json.Unmarshal(data, &body); err != nil {
				t.Fatalf("not the error body: %s", data)
			}
			if body.Code != c.status || !strings.Contains(body.Message, c.want) || body.Path != strings.SplitN(c.path, "?", 2)[0] || body.Description != body.Message {
				t.Fatalf("error body %+v, want code %d and a message with %q", body, c.status, c.want)
			}
		})
	}
	if after := countRecords(t, a.DB); !equalCounts(before, after) {
		t.Fatalf("refused calls changed the database:\nbefore %v\nafter  %v", before, after)
	}
	if _, err := a.Service.IssueToken(app.AppID, app.AppSecret); err != nil {
		t.Fatalf("refused calls disturbed the app: %v", err)
	}
}

// TestAdminStoresNoSecretInClear reads the raw database file: app secrets
// and keys are there only as hashes, webhook secrets only encrypted.
func TestAdminStoresNoSecretInClear(t *testing.T) {
	a := newAdminServer(t)
	a.ok(t, "POST", "/admin/v1/owners", "application/json", ownerJSON, 200, nil)
	var app, rotated, key created
	a.ok(t, "POST", "/admin/v1/apps", "application/json", `{"name": "Shop", "ownerIn": "301234567", "scopes": ["CONTRACTS_READ"],
		"allTemplates": true, "webhookUrl": "https://shop.example/hook"}`, 200, &app)
	a.ok(t, "POST", "/admin/v1/apps/"+app.AppID+"/secret", "", "", 200, &rotated)
	a.ok(t, "POST", "/admin/v1/keys", "application/json", `{"name": "ERP", "ownerIn": "301234567", "scopes": ["CONTRACTS_READ"],
		"allTemplates": true, "webhookUrl": "https://erp.example/hook"}`, 200, &key)

	raw, err := os.ReadFile(a.DB.Path())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(raw, []byte(app.AppID)) || !bytes.Contains(raw, []byte("https://erp.example/hook")) {
		t.Fatal("the raw file does not hold the records: the check below would prove nothing")
	}
	secrets := map[string]string{"app secret": app.AppSecret, "rotated app secret": rotated.AppSecret, "API key": key.Key,
		"app webhook secret": app.WebhookSecret, "key webhook secret": key.WebhookSecret}
	for name, s := range secrets {
		for _, form := range []string{s, strings.TrimPrefix(s, signflow.KeyPrefix), strings.TrimPrefix(s, "whsec_"),
			base64.StdEncoding.EncodeToString([]byte(s))} {
			if bytes.Contains(raw, []byte(form)) {
				t.Errorf("the %s is in the database file in clear", name)
			}
		}
	}
	// What is stored is the hash, and the encrypted webhook secret opens.
	fixture.Must(t, func() error {
		return a.DB.View(func(tx signflow.Tx) error {
			stored, err := tx.App(app.AppID)
			if err != nil {
				return err
			}
			if !bytes.Equal(stored.SecretHash, signflow.HashSecret(rotated.AppSecret)) {
				return errors.New("the app's secret hash is not the hash of the rotated secret")
			}
			plain, err := a.Box.Decrypt(stored.WebhookSecretEnc)
			if err != nil || string(plain) != app.WebhookSecret {
				return errors.New("the app's webhook secret does not open to what was shown")
			}
			k, err := tx.Key(key.ID)
			if err != nil {
				return err
			}
			if !bytes.Equal(k.Hash, signflow.HashSecret(key.Key)) {
				return errors.New("the key's hash is not the hash of the key")
			}
			plain, err = a.Box.Decrypt(k.WebhookSecretEnc)
			if err != nil || string(plain) != key.WebhookSecret {
				return errors.New("the key's webhook secret does not open to what was shown")
			}
			return nil
		})
	})
}

// countRecords returns, per bucket, its record count, its sequence and a
// digest of every key and value: any write shows.
func countRecords(t *testing.T, db *storage.DB) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := db.Bolt().View(func(btx *bolt.Tx) error {
		return btx.ForEach(func(name []byte, b *bolt.Bucket) error {
			h, n := sha256.New(), 0
			b.ForEach(func(k, v []byte) error {
				n++
				fmt.Fprintf(h, "%q=%q;", k, v)
				return nil
			})
			out[string(name)] = fmt.Sprintf("%d records, seq %d, %x", n, b.Sequence(), h.Sum(nil)[:6])
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func equalCounts(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// PUT /admin/v1/templates/{id} stores the next version under the same id:
// fields keep their ids where their keyName stays, YAML or JSON.
func TestAdminTemplateUpdate(t *testing.T) {
	a := newAdminServer(t)
	var tpl admin.TemplateCreated
	a.ok(t, "POST", "/admin/v1/templates", "application/yaml", fixture.TemplateYAML, 200, &tpl)
	var v2, v3 admin.TemplateUpdated
	a.ok(t, "PUT", "/admin/v1/templates/"+tpl.ID, "application/yaml",
		strings.Replace(fixture.TemplateYAML, "{keyName: warrantyMonths", "{keyName: guarantee", 1), 200, &v2)
	if v2.ID != tpl.ID || v2.Version != 2 || len(v2.Fields) != 3 || v2.Fields[0] != tpl.Fields[0] || v2.Fields[2] != tpl.Fields[2] ||
		v2.Fields[1].KeyName != "guarantee" || v2.Fields[1].ID == tpl.Fields[1].ID {
		t.Fatalf("version 2: %+v, from %+v", v2, tpl)
	}
	a.ok(t, "PUT", "/admin/v1/templates/"+tpl.ID, "application/json", templateJSON, 200, &v3)
	if v3.ID != tpl.ID || v3.Version != 3 {
		t.Fatalf("version 3: %+v", v3)
	}
	versions, err := a.Service.AdminTemplateVersions(tpl.ID)
	if err != nil || len(versions) != 3 {
		t.Fatalf("%d versions (%v)", len(versions), err)
	}
}
