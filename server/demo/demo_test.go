package demo_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"contracts/assets"
	"contracts/internal/browsertest"
	"contracts/internal/fixture"
	"contracts/server"
	"contracts/server/demo"
	"contracts/server/signpage"
	"contracts/signflow"

	"github.com/chromedp/chromedp"
	"github.com/rs/zerolog"
)

// env is the demo page on an admin-like server (127.0.0.1) beside the
// signing page on an embedded-like server (localhost), over the seeded
// demo template and the standard world's owner, customer and app.
type env struct {
	*fixture.Standard
	admin    *httptest.Server
	embedded string
	tpl      *signflow.Template
}

func newEnv(t *testing.T) *env {
	t.Helper()
	w := fixture.NewStandard(t)
	tpl := fixture.MustTemplate(t, w.Service, string(assets.DemoTemplate))
	emb := server.NewEcho("embedded", zerolog.New(io.Discard), server.NewMetrics(), false)
	signpage.Register(emb, signpage.Deps{Service: w.Service, Now: w.Clock.Now})
	embSrv := httptest.NewServer(emb)
	t.Cleanup(embSrv.Close)
	base := strings.Replace(embSrv.URL, "127.0.0.1", "localhost", 1)
	adm := server.NewEcho("admin", zerolog.New(io.Discard), server.NewMetrics(), true)
	demo.Register(adm, demo.Deps{Service: w.Service, AppID: w.AppA.ID, TemplateID: tpl.ID, EmbeddedBaseURL: base + "/"})
	admSrv := httptest.NewServer(adm)
	t.Cleanup(admSrv.Close)
	return &env{Standard: w, admin: admSrv, embedded: base, tpl: tpl}
}

var configRE = regexp.MustCompile(`(?s)<script type="application/json" id="demo-config">(.*?)</script>`)

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// GET /demo creates a contract with the demo app between its owner and the
// demo customer, opens the customer's session framed only by the demo
// page, and mounts it through the embedded listener's sdk.js.
func TestDemoPageCreatesAContractAndASession(t *testing.T) {
	e := newEnv(t)
	status, page := get(t, e.admin.URL+"/demo?lang=ru")
	if status != 200 || !strings.Contains(page, `<script src="`+e.embedded+`/sdk.js">`) {
		t.Fatalf("%d\n%s", status, page)
	}
	m := configRE.FindStringSubmatch(page)
	var cfg struct{ SignURL, StatusURL string }
	if m == nil || json.Unmarshal([]byte(m[1]), &cfg) != nil || !strings.HasPrefix(cfg.SignURL, e.embedded+"/sign/") {
		t.Fatalf("config %v", m)
	}
	token := strings.TrimPrefix(cfg.SignURL, e.embedded+"/sign/")
	view, err := e.Service.SigningSession(token)
	if err != nil {
		t.Fatal(err)
	}
	s, c := view.Session, view.Contract
	if s.SignerIN != demo.DefaultCustomerIN || s.Lang != "ru" || s.ParentOrigin != e.admin.URL || s.Method != signflow.MethodOTP ||
		s.RedirectURL != e.admin.URL+"/demo/done?contract="+c.ID || s.AppID != e.AppA.ID {
		t.Fatalf("session %+v", s)
	}
	if c.BuyerIN != demo.DefaultCustomerIN || c.SellerIN != fixture.OwnerIN || c.TemplateID != e.tpl.ID || c.Status != signflow.StatusCreated ||
		c.Price != 465000000 || len(c.Products) != 2 || len(c.Payments) != 2 || len(c.Values) != 2 || !strings.Contains(page, c.Number) {
		t.Fatalf("contract %+v", c.Contract)
	}
	status, body := get(t, e.admin.URL+cfg.StatusURL)
	if status != 200 || !strings.Contains(body, `"sessionStatus":"PENDING"`) || !strings.Contains(body, `"contractStatus":"CREATED"`) {
		t.Fatalf("status %d %s", status, body)
	}
	// Each visit is a fresh contract.
	_, again := get(t, e.admin.URL+"/demo")
	if strings.Contains(again, c.Number) {
		t.Fatal("a second visit shows the same contract")
	}
}

// A newcomer signs in a browser: the demo page lists the iframe's events,
// its server-side check turns SIGNED, and Continue leads to the shop's
// thank-you page with the state the server holds.
func TestDemoSignsInABrowser(t *testing.T) {
	e := newEnv(t)
	ctx := browsertest.Start(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(e.admin.URL+"/demo")); err != nil {
		t.Fatal(err)
	}
	browsertest.WaitText(t, ctx, "READY")
	f := browsertest.Frame(t, ctx, e.embedded+"/sign/")
	browsertest.Click(t, f, "button", "Sign")
	browsertest.WaitText(t, f, "We sent a 5-digit code")
	code := regexp.MustCompile(`\b\d{5}\b`).FindString(e.SMS.Last().Text)
	browsertest.Type(t, f, "SMS code", code)
	browsertest.Click(t, f, "button", "Confirm")
	browsertest.WaitText(t, ctx, "SIGNED")
	if _, err := chromedp.Run(browsertest.Within(t, ctx, 10*time.Second), chromedp.Poll[bool](
		`document.getElementById('session-status').textContent === 'SIGNED'`)); err != nil {
		t.Fatalf("server-side check never showed SIGNED: %v", err)
	}
	browsertest.Screenshot(t, ctx, "demo-signed", 1200)
	browsertest.Click(t, f, "button", "Continue")
	browsertest.WaitText(t, ctx, "Thank you")
	browsertest.WaitText(t, ctx, "buyer ACCEPTED")
}
