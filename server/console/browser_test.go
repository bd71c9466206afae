package console_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"contracts/internal/browsertest"
	"contracts/internal/fixture"
	"contracts/signflow"
	"contracts/webhooks"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The administrator's day in real Chromium: log in; create an owner, a
// template (after a preview) and an app, whose secret is shown once and
// gets a token on the embedded interface; open a contract that app
// created through the API and cancel it; find the contract's FAILED
// delivery to a dead receiver and redeliver it; log out. On the way, every
// page is checked and photographed in uz, ru and en at 1280 and 390
// pixels (CONTRACTS_SCREENSHOTS), and tabbed through in English; the
// states only an act reaches are photographed by TestBrowserConsoleLanguages.
func TestBrowserConsole(t *testing.T) {
	e := newEnv(t)
	clock := webhooks.NewFakeClock(e.Clock.Now())
	pool, err := webhooks.New(e.DB, e.Box, nil, fixture.Webhooks(webhooks.Options{Clock: clock, AttemptTimeout: 2 * time.Second}))
	if err != nil {
		t.Fatal(err)
	}
	e.DB.OnDeliveryAdded(pool.Wake)
	pool.Start()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		pool.Shutdown(ctx)
	})
	ctx := browsertest.Start(t)
	base := e.admin.URL

	for _, lang := range signflow.Languages {
		open(t, ctx, base+"/console?lang="+lang)
		shoot(t, ctx, "login-"+lang)
	}
	open(t, ctx, base+"/console?lang=en")
	setValue(t, ctx, "textbox", "Admin token", "wrong token")
	browsertest.Click(t, ctx, "button", "Log in")
	browsertest.WaitText(t, ctx, "The token is wrong.")
	setValue(t, ctx, "textbox", "Admin token", adminToken)
	browsertest.Click(t, ctx, "button", "Log in")
	browsertest.WaitText(t, ctx, "What the appliance holds, at a glance.")

	// An owner.
	browsertest.Click(t, ctx, "link", "Owners")
	browsertest.WaitText(t, ctx, "Create owner")
	setValue(t, ctx, "combobox", "Type", signflow.ClientCompany)
	setValue(t, ctx, "textbox", "Number", "305555555")
	setValue(t, ctx, "textbox", "Legal name", "Gamma Group MChJ")
	setValue(t, ctx, "textbox", "Phone", "+998 71 200-00-05")
	browsertest.Click(t, ctx, "button", "Create owner")
	browsertest.WaitText(t, ctx, "Owner 305555555 saved.")

	// A template: a mistake shown beside its line, a preview, then saved.
	browsertest.Click(t, ctx, "link", "Templates")
	browsertest.Click(t, ctx, "button", "New template")
	def := strings.Replace(fixture.TemplateYAML, "Sales contract", "Console sale", 1)
	setValue(t, ctx, "textbox", "Definition", strings.Replace(def, "type: STRING", "type: TEXT", 1))
	browsertest.Click(t, ctx, "button", "Preview")
	browsertest.WaitText(t, ctx, "Problem on line")
	browsertest.WaitText(t, ctx, `unknown field type "TEXT"`)
	setValue(t, ctx, "textbox", "Definition", def)
	browsertest.Click(t, ctx, "button", "Preview")
	browsertest.WaitText(t, ctx, "With sample values")
	browsertest.WaitText(t, ctx, "Sample Trade LLC")
	browsertest.Click(t, ctx, "button", "Save")
	browsertest.WaitText(t, ctx, "Template “Console sale” saved.")

	// An app with a webhook to a dead receiver; its secret, shown once, works.
	browsertest.Click(t, ctx, "link", "Apps")
	browsertest.Click(t, ctx, "button", "New app")
	setValue(t, ctx, "textbox", "Name", "Console shop")
	setValue(t, ctx, "textbox", "Owner", "305555555")
	setValue(t, ctx, "textbox", "Webhook URL", deadURL(t))
	for _, scope := range []string{"CLIENTS_WRITE", "TEMPLATES_READ", "CONTRACTS_WRITE", "CONTRACTS_READ"} {
		browsertest.Click(t, ctx, "checkbox", scope)
	}
	if !checked(t, ctx, "All templates") {
		t.Fatal("All templates is not checked by default")
	}
	browsertest.Click(t, ctx, "button", "Create")
	browsertest.WaitText(t, ctx, "They are shown only now")
	appID, secret := value(t, ctx, "App ID"), value(t, ctx, "App secret")
	if !strings.HasPrefix(value(t, ctx, "Webhook secret"), "whsec_") {
		t.Fatal("no webhook secret shown")
	}
	shoot(t, ctx, "app-created-en")
	status, token := e.token(t, appID, secret)
	if status != 200 || token == "" {
		t.Fatalf("the app's secret gets no token: %d", status)
	}
	open(t, ctx, base+"/console/apps")
	if body := text(t, ctx); strings.Contains(body, secret) {
		t.Fatal("the secret is shown again")
	}

	// A contract made through the API; its webhook fails four times.
	id, number := createContract(t, e, token)
	deliveryID := failDelivery(t, e, clock, id)

	browsertest.Click(t, ctx, "link", "Contracts")
	setValue(t, ctx, "searchbox", "Search", "Karimov")
	browsertest.Click(t, ctx, "button", "Find")
	waitURL(t, ctx, "search=Karimov")
	browsertest.WaitText(t, ctx, "Found: 1")
	browsertest.Click(t, ctx, "link", number)
	browsertest.WaitText(t, ctx, "Contract drawn up")
	for _, l := range []string{"PDF uz", "PDF ru", "PDF en"} {
		waitFor(t, ctx, "link", l)
	}
	browsertest.Click(t, ctx, "button", "Cancel contract")
	browsertest.WaitText(t, ctx, "Cancel this contract?")
	browsertest.Click(t, ctx, "button", "Confirm")
	browsertest.WaitText(t, ctx, "The contract was cancelled.")
	browsertest.WaitText(t, ctx, "Administrator · Admin token")
	if v, _ := e.Service.AdminContract(id); v.Status != signflow.StatusCancelled {
		t.Fatalf("the contract is %s", v.Status)
	}

	// The failed delivery, found and sent again.
	browsertest.Click(t, ctx, "link", "Deliveries")
	setValue(t, ctx, "combobox", "Status", signflow.DeliveryFailed)
	browsertest.Click(t, ctx, "button", "Show")
	waitURL(t, ctx, "status=FAILED")
	browsertest.WaitText(t, ctx, "CONTRACT_CREATED → Console shop")
	browsertest.WaitText(t, ctx, "connection refused")
	browsertest.Click(t, ctx, "button", "Redeliver")
	browsertest.WaitText(t, ctx, "The delivery is queued again.")
	if d, _ := e.Service.Deliveries(signflow.DeliveryFilter{ContractID: id}); !redelivered(d, deliveryID) {
		t.Fatal("the delivery was not queued again")
	}

	// Every page in each language, at desktop and phone width.
	pages := map[string]string{"dashboard": "/console", "contracts": "/console/contracts", "contract": "/console/contracts/" + id,
		"templates": "/console/templates", "template-new": "/console/templates?new=1", "owners": "/console/owners",
		"apps": "/console/apps", "app-new": "/console/apps?new=1", "keys": "/console/keys", "deliveries": "/console/deliveries"}
	for _, lang := range signflow.Languages {
		for name, path := range pages {
			open(t, ctx, base+path+sep(path)+"lang="+lang)
			shoot(t, ctx, name+"-"+lang)
			if lang == "en" {
				tabThrough(t, ctx, name)
			}
		}
	}

	open(t, ctx, base+"/console?lang=en")
	browsertest.Click(t, ctx, "button", "Log out")
	browsertest.WaitText(t, ctx, "Log in to the console")
	open(t, ctx, base+"/console/contracts")
	browsertest.WaitText(t, ctx, "Log in to the console")
}

func open(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	if err := chromedp.Do(browsertest.Within(t, ctx, 10*time.Second), chromedp.Navigate(url)); err != nil {
		t.Fatalf("open %s: %v", url, err)
	}
}

// shoot checks the page's layout at 1280 and 390 pixels and photographs
// it at each, then lays it out at 1280 again.
func shoot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	for _, width := range []int64{1280, 390} {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, 900)); err != nil {
			t.Fatal(err)
		}
		bad, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](layoutProblems))
		if err != nil {
			t.Fatal(err)
		}
		if len(bad) > 0 {
			t.Errorf("%s at %d px: %s", name, width, strings.Join(bad, "; "))
		}
	}
	browsertest.Screenshot(t, ctx, "console-"+name, 1280)
	browsertest.Screenshot(t, ctx, "console-"+name+"-phone", 390)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 1800)); err != nil {
		t.Fatal(err)
	}
}

// layoutProblems lists what does not fit the window: a page wider than
// it, a label of the dashboard's chart cut by the edge of its drawing.
const layoutProblems = `(() => {
  const out = [];
  const page = document.documentElement.scrollWidth;
  if (page > innerWidth) out.push("the page is " + page + " px wide");
  for (const svg of document.querySelectorAll(".chart svg")) {
    const v = svg.viewBox.baseVal;
    for (const e of svg.querySelectorAll("text")) {
      const b = e.getBBox();
      if (b.x < v.x || b.y < v.y || b.x + b.width > v.x + v.width || b.y + b.height > v.y + v.height) {
        out.push("the chart's label " + e.textContent + " is cut");
      }
    }
  }
  return out;
})()`

// tabThrough presses Tab until the focus comes round again: every control
// of the page must be reached, and each must show that it has the focus.
func tabThrough(t *testing.T, ctx context.Context, page string) {
	t.Helper()
	for i := 0; ; i++ {
		if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Tab)); err != nil {
			t.Fatal(err)
		}
		state, err := chromedp.Run(ctx, chromedp.Evaluate[string](focusState))
		if err != nil {
			t.Fatal(err)
		}
		if state == "again" || i == 200 {
			break
		}
		if strings.HasPrefix(state, "unseen ") {
			t.Errorf("%s: the focus on %s does not show", page, strings.TrimPrefix(state, "unseen "))
		}
	}
	missed, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](unreached))
	if err != nil {
		t.Fatal(err)
	}
	if len(missed) > 0 {
		t.Errorf("%s: the keyboard does not reach %s", page, strings.Join(missed, "; "))
	}
}

// focusState marks the element that has the focus and says whether it
// shows it (an outline or a ring), or "again" when the focus is back on
// the first (a date field takes several presses).
const focusState = `(() => {
  const e = document.activeElement;
  if (!e || e === document.body) return "";
  if (e.dataset.tabbed) return e.dataset.tabbed === "first" ? "again" : "";
  e.dataset.tabbed = document.querySelector("[data-tabbed]") ? "1" : "first";
  const s = getComputedStyle(e);
  const shown = (s.outlineStyle !== "none" && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== "none";
  const name = e.tagName.toLowerCase() + " " + (e.getAttribute("aria-label") || e.textContent || e.id || e.name || "").trim().replace(/\s+/g, " ").slice(0, 40);
  return shown ? "" : "unseen " + name;
})()`

// unreached lists the page's visible controls that no Tab reached.
const unreached = `[...document.querySelectorAll("a[href], button, input, select, textarea")]
  .filter(e => !e.disabled && e.type !== "hidden" && e.offsetParent !== null && !e.hidden && !e.dataset.tabbed)
  .map(e => e.tagName.toLowerCase() + " " + (e.textContent || e.id || e.name || "").trim().slice(0, 40))`

// waitURL waits until the tab's address holds part.
func waitURL(t *testing.T, ctx context.Context, part string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ok, err := chromedp.Run(browsertest.Within(t, ctx, 2*time.Second),
			chromedp.Evaluate[bool](fmt.Sprintf(`location.href.includes(%q) && document.readyState === "complete"`, part)))
		if err == nil && ok {
			if err := chromedp.Do(browsertest.Within(t, ctx, 5*time.Second), chromedp.WaitReady("body")); err != nil {
				t.Fatal(err)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the address never held %q, loaded (%v)", part, err)
		}
		time.Sleep(50 * time.Millisecond) // polling the browser for its address
	}
}

func waitFor(t *testing.T, ctx context.Context, role, name string) {
	t.Helper()
	if err := chromedp.Do(browsertest.Within(t, ctx, 10*time.Second), chromedp.WaitVisible(role+" "+name, browsertest.ByName(role, name))); err != nil {
		t.Fatalf("no %s %q: %v", role, name, err)
	}
}

// setValue sets the value of a form control found by role and name.
func setValue(t *testing.T, ctx context.Context, role, name, v string) {
	t.Helper()
	if err := chromedp.Do(browsertest.Within(t, ctx, 10*time.Second), chromedp.SetValue(role+" "+name, v, browsertest.ByName(role, name))); err != nil {
		t.Fatalf("set %s %q: %v", role, name, err)
	}
}

// value reads the textbox with the accessible name.
func value(t *testing.T, ctx context.Context, name string) string {
	t.Helper()
	v, err := chromedp.Run(browsertest.Within(t, ctx, 10*time.Second), chromedp.Value("textbox "+name, browsertest.ByName("textbox", name)))
	if err != nil {
		t.Fatalf("read %q: %v", name, err)
	}
	return v
}

func checked(t *testing.T, ctx context.Context, name string) bool {
	t.Helper()
	on, err := chromedp.Run(browsertest.Within(t, ctx, 10*time.Second), chromedp.JavascriptAttribute[bool]("checkbox "+name, "checked", browsertest.ByName("checkbox", name)))
	if err != nil {
		t.Fatalf("read checkbox %q: %v", name, err)
	}
	return on
}

func text(t *testing.T, ctx context.Context) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.documentElement.outerHTML`))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// createContract creates a contract with an embedded access token.
func createContract(t *testing.T, e *env, token string) (string, string) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"templateId": e.Template.ID, "buyerIn": fixture.CustomerIN, "price": 1500.50, "currency": "UZS"})
	req, _ := http.NewRequest("POST", e.embedded.URL+"/v1/contracts", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out struct{ ID string }
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil || res.StatusCode != 200 {
		t.Fatalf("create contract: %d %v", res.StatusCode, err)
	}
	v, err := e.Service.AdminContract(out.ID)
	if err != nil {
		t.Fatal(err)
	}
	return out.ID, v.Number
}

// failDelivery waits for each attempt of the contract's delivery to fail
// and moves the pool's clock past each retry wait, until it is FAILED.
func failDelivery(t *testing.T, e *env, clock *webhooks.FakeClock, contractID string) string {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	seen := 0
	for {
		ds, _ := e.Service.Deliveries(signflow.DeliveryFilter{ContractID: contractID})
		if len(ds) == 1 {
			d := ds[0]
			if d.Status == signflow.DeliveryFailed {
				return d.ID
			}
			if n := len(d.Attempts); n > seen && d.Status == signflow.DeliveryPending && n < 4 {
				seen = n
				clock.Advance(d.NextAt.Sub(clock.Now()))
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the delivery never failed: %v", ds)
		}
		time.Sleep(5 * time.Millisecond) // polling the store for the workers' real HTTP attempts
	}
}

func redelivered(ds []*signflow.Delivery, id string) bool {
	for _, d := range ds {
		if d.ID == id {
			return d.Status == signflow.DeliveryPending || len(d.Attempts) > 4
		}
	}
	return false
}
