package console_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"contracts/internal/apitest"
	"contracts/internal/fixture"
)

// Every page, in each language, with the accessible names outside tests use.
func TestConsolePages(t *testing.T) {
	e := newEnv(t)
	c := e.contract(t)
	e.failedDelivery(t, c.ID)
	b := e.loggedIn(t)

	rows := []apitest.Scenario{
		{Name: "dashboard", Path: "/console?lang=en", Status: 200, Want: []string{`<html lang="en">`, `aria-current="page">Dashboard</a>`,
			">Contracts</a>", ">Templates</a>", ">Owners</a>", ">Apps</a>", ">Keys</a>", ">Deliveries</a>", ">Log out</button>",
			"Contracts by status", `<strong>1</strong><span>Awaiting signatures</span>`, `<strong>0</strong><span>In force</span>`,
			`<svg viewBox="0 0 640 180" role="img"`, "Created in 30 days: 1", "Failed deliveries", "CONTRACT_CREATED → App A",
			`href="/console/deliveries?status=FAILED#d-`},
			// The statuses the state machine never produces have no tile.
			Not: []string{"Signed by the seller", "Signed by the buyer"}},
		{Name: "dashboard ru", Path: "/console?lang=ru", Status: 200, Want: []string{`<html lang="ru">`, "Договоры по статусам", ">Выйти</button>"}},
		{Name: "dashboard uz (remembered)", Path: "/console?lang=uz", Status: 200, Want: []string{`<html lang="uz">`, ">Chiqish</button>"}},
		{Name: "the remembered language", Path: "/console/owners", Status: 200, Want: []string{`<html lang="uz">`}},
		{Name: "back to English", Path: "/console?lang=en", Status: 200, Want: []string{`<html lang="en">`}},

		{Name: "contracts", Path: "/console/contracts", Status: 200, Want: []string{`<label for="search">Search</label>`, `type="search"`,
			`<label for="status">Status</label>`, `<select id="status"`, `>` + c.Number + `</a>`, "Alpha Savdo MChJ", "Karimov Aziz", "Found: 1"},
			Not: []string{"SIGNED_BY_SELLER", "SIGNED_BY_BUYER"}},
	}
	for _, q := range []string{c.Number, fixture.CustomerIN, "3123456", "karimov", "Alpha"} {
		rows = append(rows, apitest.Scenario{Name: "search " + q, Path: "/console/contracts?search=" + url.QueryEscape(q), Status: 200,
			Want: []string{">" + c.Number + "</a>", "Found: 1"}})
	}
	rows = append(rows, []apitest.Scenario{
		{Name: "search for nobody", Path: "/console/contracts?search=nobody", Status: 200, Want: []string{"Found: 0", "No contracts found."}},
		{Name: "status filter", Path: "/console/contracts?status=ACTIVE", Status: 200, Want: []string{"Found: 0", `<option value="ACTIVE" selected>`}},
		{Name: "a legacy status asked for", Path: "/console/contracts?status=SIGNED_BY_BUYER", Status: 200,
			Want: []string{"Found: 0", `<option value="SIGNED_BY_BUYER" selected>`}, Not: []string{"SIGNED_BY_SELLER"}},

		{Name: "contract", Path: "/console/contracts/" + c.ID, Status: 200, Want: []string{"Contract No. " + c.Number, "Alpha Savdo MChJ", "1\u00a0500.00",
			`>PDF uz</a>`, `>PDF ru</a>`, `>PDF en</a>`, ">Cancel contract</button>", "Audit trail", `class="timeline"`, "Contract drawn up"}},
		{Name: "PDF", Path: "/console/contracts/" + c.ID + "/pdf?lang=ru", Status: 200, WantHeader: map[string]string{"Content-Type": "application/pdf"},
			Check: isPDF},
		{Name: "unknown contract", Path: "/console/contracts/00000000-0000-4000-8000-000000000000", Status: 404, Want: []string{"Contract not found"}},

		{Name: "templates", Path: "/console/templates", Status: 200, Want: []string{">New template</button>", "Sales contract", "Draft", ">Publish</button>",
			">Unpublish</button>"}},
		{Name: "new template", Path: "/console/templates?new=1", Status: 200, Want: []string{`<label for="definition">Definition</label>`,
			">Preview</button>", ">Save</button>", "sellerName:"}},
		{Name: "owners", Path: "/console/owners", Status: 200, Want: []string{`<label for="type">Type</label>`, `<label for="in">Number</label>`,
			`<label for="legalName">Legal name</label>`, `<label for="firstName">First name</label>`, `<label for="lastName">Last name</label>`,
			`<label for="phone">Phone</label>`, ">Create owner</button>", "Beta Trade LLC", "301234567"}},
		{Name: "apps", Path: "/console/apps", Status: 200, Want: []string{">New app</button>", "App A", ">Rotate secret</button>", ">Cancel app</button>"}},
		{Name: "new app", Path: "/console/apps?new=1", Status: 200, Want: []string{`<label for="name">Name</label>`, `<label for="owner">Owner</label>`,
			`<label for="webhookUrl">Webhook URL</label>`, `value="CONTRACTS_SIGN"><span class="mono">CONTRACTS_SIGN</span>`,
			`value="true" data-all-templates checked><span>All templates</span>`, ">Create</button>", "CONTRACT_ACTIVE", "Sales contract · Published",
			"Draft · Draft"}, Not: []string{"(PUBLISHED)", "(DRAFT)"}},
		{Name: "keys", Path: "/console/keys", Status: 200, Want: []string{">New key</button>", "Limited", ">Revoke</button>"}},
		// The key form offers no app's scope and no webhook events.
		{Name: "new key", Path: "/console/keys?new=1", Status: 200, Want: []string{`value="TEMPLATES_READ"`, ">Create</button>"},
			Not: []string{"CONTRACTS_SIGN", "webhookEvents"}},
		{Name: "deliveries", Path: "/console/deliveries?status=FAILED", Status: 200, Want: []string{`<label for="status">Status</label>`,
			`<option value="FAILED" selected>`, "connection refused", ">Redeliver</button>", "3 ms"}},
		{Name: "deliveries of a contract", Path: "/console/deliveries?contract=" + c.ID, Status: 200, Want: []string{"Of contract", "connection refused"}},
	}...)
	for _, name := range []string{"document.css", "console.css", "console.js"} {
		rows = append(rows, apitest.Scenario{Name: "asset " + name, Path: "/console/assets/" + name, Status: 200, Check: func(t *testing.T, r apitest.Reply) {
			if r.Body == "" {
				t.Fatal("empty")
			}
		}})
	}
	rows = append(rows, apitest.Scenario{Name: "unknown asset", Path: "/console/assets/nothing.js", Status: http.StatusNotFound})
	apitest.Run(t, b.api, rows)
}

// isPDF is the Check of a row that answers a PDF.
func isPDF(t *testing.T, r apitest.Reply) {
	if !strings.HasPrefix(r.Body, "%PDF") {
		t.Fatalf("not a PDF: %.40q", r.Body)
	}
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
