package console_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// mustHave fails unless the page has the status and every part.
func mustHave(t *testing.T, what string, p page, status int, parts ...string) {
	t.Helper()
	if p.status != status {
		t.Errorf("%s: status %d, want %d\n%.600s", what, p.status, status, p.body)
		return
	}
	for _, part := range parts {
		if !strings.Contains(p.body, part) {
			t.Errorf("%s: no %q in the page", what, part)
		}
	}
}

// Every page, in each language, with the accessible names outside tests use.
func TestConsolePages(t *testing.T) {
	e := newEnv(t)
	c := e.contract(t)
	e.failedDelivery(t, c.ID)
	b := e.loggedIn(t)

	mustHave(t, "dashboard", b.get("/console?lang=en"), 200, `<html lang="en">`, `aria-current="page">Dashboard</a>`,
		">Contracts</a>", ">Templates</a>", ">Owners</a>", ">Apps</a>", ">Keys</a>", ">Deliveries</a>", ">Log out</button>",
		"Contracts by status", `<strong>1</strong><span>Awaiting signatures</span>`, `<svg viewBox="0 0 620 180" role="img"`,
		"Created in 30 days: 1", "Failed deliveries", "CONTRACT_CREATED → App A", `href="/console/deliveries?status=FAILED#d-`)
	mustHave(t, "dashboard ru", b.get("/console?lang=ru"), 200, `<html lang="ru">`, "Договоры по статусам", ">Выйти</button>")
	mustHave(t, "dashboard uz (remembered)", b.get("/console?lang=uz"), 200, `<html lang="uz">`, ">Chiqish</button>")
	mustHave(t, "the remembered language", b.get("/console/owners"), 200, `<html lang="uz">`)
	b.get("/console?lang=en")

	mustHave(t, "contracts", b.get("/console/contracts"), 200, `<label for="search">Search</label>`, `type="search"`,
		`<label for="status">Status</label>`, `<select id="status"`, `>`+c.Number+`</a>`, "Alpha Savdo MChJ", "Karimov Aziz", "Found: 1")
	for _, q := range []string{c.Number, fixture.CustomerIN, "3123456", "karimov", "Alpha"} {
		mustHave(t, "search "+q, b.get("/console/contracts?search="+url.QueryEscape(q)), 200, ">"+c.Number+"</a>", "Found: 1")
	}
	mustHave(t, "search for nobody", b.get("/console/contracts?search=nobody"), 200, "Found: 0", "No contracts found.")
	mustHave(t, "status filter", b.get("/console/contracts?status=ACTIVE"), 200, "Found: 0", `<option value="ACTIVE" selected>`)

	mustHave(t, "contract", b.get("/console/contracts/"+c.ID), 200, "Contract No. "+c.Number, "Alpha Savdo MChJ", "1\u00a0500.00",
		`>PDF uz</a>`, `>PDF ru</a>`, `>PDF en</a>`, ">Cancel contract</button>", "Audit trail", `class="timeline"`, "Contract drawn up")
	pdf := b.get("/console/contracts/" + c.ID + "/pdf?lang=ru")
	if pdf.status != 200 || pdf.header.Get("Content-Type") != "application/pdf" || !strings.HasPrefix(pdf.body, "%PDF") {
		t.Errorf("PDF: %d %s", pdf.status, pdf.header.Get("Content-Type"))
	}
	mustHave(t, "unknown contract", b.get("/console/contracts/00000000-0000-4000-8000-000000000000"), 404, "Contract not found")

	mustHave(t, "templates", b.get("/console/templates"), 200, ">New template</button>", "Sales contract", "Draft", ">Publish</button>", ">Unpublish</button>")
	mustHave(t, "new template", b.get("/console/templates?new=1"), 200, `<label for="definition">Definition</label>`,
		">Preview</button>", ">Save</button>", "sellerName:")
	mustHave(t, "owners", b.get("/console/owners"), 200, `<label for="type">Type</label>`, `<label for="in">Number</label>`,
		`<label for="legalName">Legal name</label>`, `<label for="firstName">First name</label>`, `<label for="lastName">Last name</label>`,
		`<label for="phone">Phone</label>`, ">Create owner</button>", "Beta Trade LLC", "301234567")
	mustHave(t, "apps", b.get("/console/apps"), 200, ">New app</button>", "App A", ">Rotate secret</button>", ">Cancel app</button>")
	mustHave(t, "new app", b.get("/console/apps?new=1"), 200, `<label for="name">Name</label>`, `<label for="owner">Owner</label>`,
		`<label for="webhookUrl">Webhook URL</label>`, `value="CONTRACTS_SIGN"><span class="mono">CONTRACTS_SIGN</span>`,
		`value="true" data-all-templates checked><span>All templates</span>`, ">Create</button>", "CONTRACT_ACTIVE")
	mustHave(t, "keys", b.get("/console/keys"), 200, ">New key</button>", "Limited", ">Revoke</button>")
	mustHave(t, "new key", b.get("/console/keys?new=1"), 200, `value="TEMPLATES_READ"`, ">Create</button>")
	if p := b.get("/console/keys?new=1"); strings.Contains(p.body, "CONTRACTS_SIGN") || strings.Contains(p.body, "webhookEvents") {
		t.Error("the key form offers an app's scope or webhook events")
	}
	mustHave(t, "deliveries", b.get("/console/deliveries?status=FAILED"), 200, `<label for="status">Status</label>`,
		`<option value="FAILED" selected>`, "connection refused", ">Redeliver</button>", "3 ms")
	mustHave(t, "deliveries of a contract", b.get("/console/deliveries?contract="+c.ID), 200, "Of contract", "connection refused")

	for _, name := range []string{"document.css", "console.css", "console.js"} {
		if p := b.get("/console/assets/" + name); p.status != 200 || p.body == "" {
			t.Errorf("asset %s: %d", name, p.status)
		}
	}
	if p := b.get("/console/assets/nothing.js"); p.status != http.StatusNotFound {
		t.Errorf("unknown asset: %d", p.status)
	}
}

// Cancel contract asks first, then cancels as the administrator: the
// audit trail names the admin's act, the webhooks tell of it, and a
// second cancel is refused on the page.
func TestConsoleCancelContract(t *testing.T) {
	e := newEnv(t)
	fixture.Must(t, func() error {
		return e.DB.Update(func(tx signflow.Tx) error {
			a, err := tx.App(e.AppA.ID)
			if err != nil {
				return err
			}
			a.WebhookURL = "https://shop.example/hook"
			return tx.PutApp(a)
		})
	})
	c := e.contract(t)
	b := e.loggedIn(t)
	mustHave(t, "confirmation", b.get("/console/contracts/"+c.ID+"?confirm=cancel"), 200, "Cancel this contract?", ">Confirm</button>", ">Back</a>")
	if got, _ := e.Service.AdminContract(c.ID); got.Status != signflow.StatusCreated {
		t.Fatal("asking cancelled")
	}
	p := b.post("/console/contracts/"+c.ID+"/cancel", nil)
	if p.status != http.StatusSeeOther {
		t.Fatalf("cancel: %d", p.status)
	}
	mustHave(t, "cancelled", b.get(p.location), 200, "The contract was cancelled.", "Cancelled", "Administrator · Admin token")
	if strings.Contains(b.get("/console/contracts/"+c.ID).body, ">Cancel contract</button>") {
		t.Error("Cancel contract offered on a cancelled contract")
	}
	audit, _ := e.Service.AuditTrail(c.ID)
	last := audit[len(audit)-1]
	if last.Type != signflow.EventCancelled || last.Method != signflow.ConfirmAdmin || last.ActorIN != "" || last.IP != "127.0.0.1" {
		t.Errorf("the audit event: %+v", last)
	}
	ds, _ := e.Service.Deliveries(signflow.DeliveryFilter{ContractID: c.ID})
	told := false
	for _, d := range ds {
		told = told || d.Event == signflow.EventCancelled
	}
	if !told {
		t.Error("no webhook tells of the cancellation")
	}
	mustHave(t, "second cancel", b.post("/console/contracts/"+c.ID+"/cancel", nil), 400, "only a CREATED contract can be cancelled")
}

// Templates: a refusal beside its line, a preview with sample values and
// its PDF, a save, publish and unpublish.
func TestConsoleTemplates(t *testing.T) {
	e := newEnv(t)
	b := e.loggedIn(t)
	b.get("/console/templates?new=1")
	bad := "name: {uz: a, ru: b, en: c}\nsellerName: {uz: a, ru: b, en: c}\nbuyerName: {uz: a, ru: b, en: c}\nfields:\n  - keyName: size\n    type: COLOUR\n    name: {uz: a, ru: b, en: c}\n"
	for _, path := range []string{"/console/templates", "/console/templates/preview"} {
		mustHave(t, "bad definition "+path, b.post(path, url.Values{"definition": {bad}}), 400, "Problem on line 6",
			`<li class="bad"><span class="ln" aria-hidden="true">6</span><code>    type: COLOUR</code></li>`,
			`fields[0].type: unknown field type &#34;COLOUR&#34;`, `aria-invalid="true"`, "keyName: size")
	}
	mustHave(t, "malformed JSON", b.post("/console/templates", url.Values{"definition": {"{\n  \"name\": {\"uz\": \"a\"},\n  \"type\": ,\n}"}}), 400,
		"Problem on line 3", "malformed JSON")

	good := strings.Replace(fixture.TemplateYAML, "Sales contract", "Console contract", 1)
	mustHave(t, "preview", b.post("/console/templates/preview", url.Values{"definition": {good}}), 200, "Signing page preview",
		"Console contract", "Namuna Savdo MChJ", "Karimov Aziz", `name="lang" value="en">PDF en</button>`)
	if tpls, _ := e.Service.AdminTemplates(); len(tpls) != 3 {
		t.Fatal("the preview saved the template")
	}
	pdf := b.post("/console/templates/preview/pdf", url.Values{"definition": {good}, "lang": {"en"}})
	if pdf.status != 200 || !strings.HasPrefix(pdf.body, "%PDF") {
		t.Fatalf("preview PDF: %d", pdf.status)
	}
	p := b.post("/console/templates", url.Values{"definition": {good}})
	if p.status != http.StatusSeeOther {
		t.Fatalf("save: %d %s", p.status, p.body)
	}
	mustHave(t, "saved", b.get(p.location), 200, "Template “Console contract” saved.")
	saved := findTemplate(t, e, "Console contract")
	if saved.Status != signflow.TemplatePublished {
		t.Fatalf("saved template: %s", saved.Status)
	}
	if p := b.post("/console/templates/"+saved.ID+"/unpublish", nil); p.status != http.StatusSeeOther {
		t.Fatalf("unpublish: %d", p.status)
	}
	if findTemplate(t, e, "Console contract").Status != signflow.TemplateDraft {
		t.Fatal("not unpublished")
	}
	b.get("/console/templates")
	if p := b.post("/console/templates/"+saved.ID+"/publish", nil); p.status != http.StatusSeeOther {
		t.Fatalf("publish: %d", p.status)
	}
	if findTemplate(t, e, "Console contract").Status != signflow.TemplatePublished {
		t.Fatal("not published")
	}
	mustHave(t, "unknown template", b.post("/console/templates/00000000-0000-4000-8000-000000000000/publish", nil), 404, "Template not found.")
}

// Owners: created from the form; bad input is shown and keeps the form.
func TestConsoleOwners(t *testing.T) {
	e := newEnv(t)
	b := e.loggedIn(t)
	b.get("/console/owners")
	mustHave(t, "bad number", b.post("/console/owners", url.Values{"type": {"COMPANY"}, "in": {"12ab"}, "legalName": {"Gamma"}}), 400,
		`role="alert"`, `value="Gamma"`)
	p := b.post("/console/owners", url.Values{"type": {"COMPANY"}, "in": {"305555555"}, "legalName": {"Gamma Group"}, "phone": {"+998 71 200-00-05"}})
	if p.status != http.StatusSeeOther {
		t.Fatalf("create owner: %d %s", p.status, p.body)
	}
	mustHave(t, "created", b.get(p.location), 200, "Owner 305555555 saved.", "Gamma Group")
	p = b.post("/console/owners", url.Values{"type": {"CLIENT"}, "in": {"32000000000009"}, "firstName": {"Dilnoza"}, "lastName": {"Rahimova"}, "legalName": {"ignored"}, "phone": {"998901112200"}})
	if p.status != http.StatusSeeOther {
		t.Fatalf("create a person: %d", p.status)
	}
	owners, _ := e.Service.Owners()
	var person *signflow.Client
	for _, o := range owners {
		if o.IN == "32000000000009" {
			person = o
		}
	}
	if len(owners) != 4 || person == nil || person.LastName != "Rahimova" || person.LegalName != "" || person.Type != signflow.ClientIndividual {
		t.Fatalf("owners: %d %+v", len(owners), person)
	}
}

// Apps and keys: created with scopes as checkboxes, their secrets shown
// once and working; rotate, cancel and revoke take effect.
func TestConsoleAppsAndKeys(t *testing.T) {
	e := newEnv(t)
	b := e.loggedIn(t)
	b.get("/console/apps?new=1")
	mustHave(t, "app without scopes", b.post("/console/apps", url.Values{"name": {"Shop"}, "owner": {"301234567"}, "allTemplates": {"true"}}), 400,
		"scopes: at least one is required", `value="Shop"`)
	mustHave(t, "app of no owner", b.post("/console/apps", url.Values{"name": {"Shop"}, "owner": {"300000009"}, "scopes": {"CONTRACTS_READ"}, "allTemplates": {"true"}}), 400,
		"ownerIn: no owner")
	mustHave(t, "bad expiry", b.post("/console/apps", url.Values{"name": {"Shop"}, "owner": {"301234567"}, "scopes": {"CONTRACTS_READ"}, "expires": {"soon"}}), 400,
		"expiresAt")
	p := b.post("/console/apps", url.Values{"name": {"Console shop"}, "owner": {"301234567 — Alpha Savdo MChJ"},
		"scopes": {"CONTRACTS_READ", "CONTRACTS_WRITE"}, "allTemplates": {"true"}, "webhookUrl": {"https://shop.example/hook"},
		"webhookEvents": {"CONTRACT_CREATED"}, "expires": {"2030-01-01"}})
	mustHave(t, "app created", p, 200, `<label for="app-id" id="app-id-label">App ID</label>`, `<label for="app-secret" id="app-secret-label">App secret</label>`,
		`<label for="webhook-secret" id="webhook-secret-label">Webhook secret</label>`, ">Copy</button>", "Console shop")
	appID, secret := inputValue(p.body, "app-id"), inputValue(p.body, "app-secret")
	if status, tok := e.token(t, appID, secret); status != 200 || tok == "" {
		t.Fatalf("the shown secret gets no token: %d", status)
	}
	if again := b.get("/console/apps"); strings.Contains(again.body, secret) || strings.Contains(again.body, `id="app-secret"`) {
		t.Fatal("the secret is shown twice")
	}
	if a := findApp(t, e, "Console shop"); a.Name != "Console shop" || strings.Join(a.Scopes, ",") != "CONTRACTS_READ,CONTRACTS_WRITE" || !a.AllTemplates ||
		a.WebhookURL != "https://shop.example/hook" || len(a.WebhookEvents) != 1 || a.ExpiresAt == nil {
		t.Fatalf("stored app: %+v", a)
	}

	p = b.post("/console/apps/"+appID+"/secret", nil)
	mustHave(t, "rotated", p, 200, "A new secret was issued", `id="app-secret"`)
	rotated := inputValue(p.body, "app-secret")
	if status, _ := e.token(t, appID, secret); status == 200 {
		t.Fatal("the old secret still works")
	}
	if status, _ := e.token(t, appID, rotated); status != 200 {
		t.Fatal("the rotated secret does not work")
	}
	p = b.post("/console/apps/"+appID+"/cancel", nil)
	if p.status != http.StatusSeeOther {
		t.Fatalf("cancel app: %d", p.status)
	}
	mustHave(t, "cancelled", b.get(p.location), 200, "The app was cancelled.", "Stopped")
	if status, _ := e.token(t, appID, rotated); status != http.StatusForbidden {
		t.Fatalf("a cancelled app's secret: %d", status)
	}
	mustHave(t, "rotate unknown", b.post("/console/apps/nothing/secret", nil), 404, "App not found")

	b.get("/console/keys?new=1")
	p = b.post("/console/keys", url.Values{"name": {"Console ERP"}, "owner": {"309876543"}, "scopes": {"CONTRACTS_READ"}, "templateIds": {e.Template.ID}})
	mustHave(t, "key created", p, 200, `<label for="api-key" id="api-key-label">API key</label>`, "Webhook secret")
	keyID, key := inputValue(p.body, "key-id"), inputValue(p.body, "api-key")
	if k, err := e.Service.AuthenticateKey(key); err != nil || k.ID != keyID || k.AllTemplates || len(k.TemplateIDs) != 1 {
		t.Fatalf("the shown key: %+v %v", k, err)
	}
	if p := b.post("/console/keys/"+keyID+"/revoke", nil); p.status != http.StatusSeeOther {
		t.Fatalf("revoke: %d", p.status)
	}
	if _, err := e.Service.AuthenticateKey(key); err == nil {
		t.Fatal("a revoked key works")
	}
	mustHave(t, "key with events", b.post("/console/keys", url.Values{"name": {"K"}, "owner": {"309876543"}, "scopes": {"CONTRACTS_READ"},
		"allTemplates": {"true"}, "webhookEvents": {"CONTRACT_CREATED"}}), 400, "keys receive every event")
}

// Redeliver queues a failed delivery again under its id and wakes the workers.
func TestConsoleRedeliver(t *testing.T) {
	e := newEnv(t)
	c := e.contract(t)
	d := e.failedDelivery(t, c.ID)
	b := e.loggedIn(t)
	b.get("/console/deliveries?status=FAILED")
	p := b.post("/console/deliveries/"+d.ID+"/redeliver", url.Values{"status": {"FAILED"}})
	if p.status != http.StatusSeeOther || !strings.HasPrefix(p.location, "/console/deliveries?") {
		t.Fatalf("redeliver: %d %s", p.status, p.location)
	}
	mustHave(t, "redelivered", b.get(p.location), 200, "The delivery is queued again.")
	ds, _ := e.Service.Deliveries(signflow.DeliveryFilter{ContractID: c.ID})
	for _, got := range ds {
		if got.ID == d.ID && got.Status != signflow.DeliveryPending {
			t.Fatalf("after redeliver: %s", got.Status)
		}
	}
	if e.redelivered.Load() != 1 {
		t.Fatalf("the workers were told %d times", e.redelivered.Load())
	}
	mustHave(t, "unknown delivery", b.post("/console/deliveries/nothing/redeliver", nil), 404, "Delivery not found")
}

func findTemplate(t *testing.T, e *env, name string) *signflow.Template {
	t.Helper()
	tpls, _ := e.Service.AdminTemplates()
	for _, tpl := range tpls {
		if tpl.Name.EN == name {
			return tpl
		}
	}
	t.Fatalf("no template %q", name)
	return nil
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

// inputValue is the value of the input with the id in a page.
func inputValue(body, id string) string {
	i := strings.Index(body, `id="`+id+`"`)
	if i < 0 {
		return ""
	}
	rest := body[i:]
	j := strings.Index(rest, `value="`)
	if j < 0 {
		return ""
	}
	rest = rest[j+len(`value="`):]
	return rest[:strings.IndexByte(rest, '"')]
}
