package demo_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"contracts/assets"
	"contracts/internal/config"
	"contracts/internal/fixture"
	"contracts/server"
	"contracts/server/demo"
	"contracts/server/signpage"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
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
	client   *http.Client // a browser: it keeps cookies
}

func newEnv(t *testing.T) *env {
	t.Helper()
	w := fixture.NewStandard(t)
	tpl := fixture.MustTemplate(t, w.Service, string(assets.DemoTemplate))
	emb := server.NewEcho("embedded", zerolog.New(io.Discard), server.NewMetrics(), false)
	signpage.Register(emb, signpage.Deps{Service: w.Service, ServiceName: config.Default().Service.Name, Now: w.Clock.Now})
	embSrv := httptest.NewServer(emb)
	t.Cleanup(embSrv.Close)
	base := strings.Replace(embSrv.URL, "127.0.0.1", "localhost", 1)
	adm := server.NewEcho("admin", zerolog.New(io.Discard), server.NewMetrics(), true)
	demo.Register(adm, demo.Deps{Service: w.Service, ServiceName: config.Default().Service.Name, AppID: w.AppA.ID, TemplateID: tpl.ID, EmbeddedBaseURL: base + "/"})
	admSrv := httptest.NewServer(adm)
	t.Cleanup(admSrv.Close)
	jar, _ := cookiejar.New(nil)
	return &env{Standard: w, admin: admSrv, embedded: base, tpl: tpl, client: &http.Client{Jar: jar}}
}

var (
	configRE = regexp.MustCompile(`(?s)<script type="application/json" id="demo-config">(.*?)</script>`)
	csrfRE   = regexp.MustCompile(`name="csrf" value="([^"]+)"`)
)

func (e *env) do(t *testing.T, method, path string, form url.Values) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, e.admin.URL+path, strings.NewReader(form.Encode()))
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	resp, err := e.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// contracts counts the contracts of the demo app's owner.
func (e *env) contracts(t *testing.T) int {
	t.Helper()
	_, n, err := e.Service.ListContracts(e.Access(t, e.AppA), signflow.ContractQuery{Size: 100})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// GET /demo changes nothing and speaks the language asked for; only a
// POST with the page's CSRF token creates a contract, and the page then
// mounts the buyer's session through the embedded listener's sdk.js.
func TestDemoCreatesOnlyOnAPostWithTheToken(t *testing.T) {
	e := newEnv(t)
	for lang, title := range map[string]string{"ru": "Подпишите договор", "uz": "Shartnomani boshidan", "en": "Sign a contract from start"} {
		status, page := e.do(t, "GET", "/demo?lang="+lang, nil)
		if status != 200 || !strings.Contains(page, `<html lang="`+lang+`">`) || !strings.Contains(page, title) {
			t.Fatalf("GET /demo?lang=%s: %d\n%s", lang, status, page)
		}
	}
	if n := e.contracts(t); n != 0 {
		t.Fatalf("GET /demo created %d contracts", n)
	}
	_, page := e.do(t, "GET", "/demo?lang=ru", nil)
	token := csrfRE.FindStringSubmatch(page)[1]

	// Without the token, with another, or without the cookie: refused, nothing made.
	stranger := &http.Client{}
	req, _ := http.NewRequest("POST", e.admin.URL+"/demo", strings.NewReader(url.Values{"csrf": {token}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := stranger.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 403 {
		t.Fatalf("POST without the cookie: %d", resp.StatusCode)
	}
	for _, form := range []url.Values{{}, {"csrf": {strings.Repeat("x", len(token))}}} {
		if status, body := e.do(t, "POST", "/demo?lang=ru", form); status != 403 || !strings.Contains(body, "Эта форма устарела") {
			t.Fatalf("POST %v: %d\n%s", form, status, body)
		}
	}
	if n := e.contracts(t); n != 0 {
		t.Fatalf("refused POSTs created %d contracts", n)
	}

	status, page := e.do(t, "POST", "/demo?lang=ru", url.Values{"csrf": {token}, "lang": {"ru"}})
	if status != 200 || !strings.Contains(page, `<script src="`+e.embedded+`/sdk.js">`) || !strings.Contains(page, "Шаг 1: подписывает покупатель") {
		t.Fatalf("POST /demo: %d\n%s", status, page)
	}
	m := configRE.FindStringSubmatch(page)
	var cfg struct{ SignURL, StatusURL string }
	if m == nil || json.Unmarshal([]byte(m[1]), &cfg) != nil || !strings.HasPrefix(cfg.SignURL, e.embedded+"/sign/") {
		t.Fatalf("config %v", m)
	}
	view, err := e.Service.SigningSession(strings.TrimPrefix(cfg.SignURL, e.embedded+"/sign/"))
	if err != nil {
		t.Fatal(err)
	}
	s, c := view.Session, view.Contract
	if s.SignerIN != demo.DefaultCustomerIN || s.Lang != "ru" || s.ParentOrigin != e.admin.URL || s.Method != signflow.MethodOTP ||
		s.RedirectURL != e.admin.URL+"/demo/done?contract="+c.ID+"&lang=ru" || s.AppID != e.AppA.ID {
		t.Fatalf("session %+v", s)
	}
	if c.BuyerIN != demo.DefaultCustomerIN || c.SellerIN != fixture.OwnerIN || c.TemplateID != e.tpl.ID || c.Status != signflow.StatusCreated ||
		c.Price != 465000000 || len(c.Products) != 2 || len(c.Payments) != 2 || len(c.Values) != 2 || !strings.Contains(page, c.Number) {
		t.Fatalf("contract %+v", c.Contract)
	}
	status, body := e.do(t, "GET", cfg.StatusURL, nil)
	if status != 200 || !strings.Contains(body, `"sessionStatus":"PENDING"`) || !strings.Contains(body, `"contractStatus":"CREATED"`) {
		t.Fatalf("status %d %s", status, body)
	}
	if n := e.contracts(t); n != 1 {
		t.Fatalf("one POST made %d contracts", n)
	}
	// The done page before the buyer signed offers the buyer's step again.
	if status, body := e.do(t, "GET", "/demo/done?contract="+c.ID+"&lang=en", nil); status != 200 ||
		!strings.Contains(body, "The buyer has not signed yet.") || !strings.Contains(body, `name="party" value="buyer"`) {
		t.Fatalf("done: %d\n%s", status, body)
	}
}

// Without --demo, /demo says how to turn it on.
func TestDemoOff(t *testing.T) {
	e := echo.New()
	e.HTTPErrorHandler = server.NewEcho("admin", zerolog.Nop(), nil, true).HTTPErrorHandler
	demo.RegisterOff(e)
	srv := httptest.NewServer(e)
	defer srv.Close()
	for _, path := range []string{"/demo", "/demo/done?contract=x"} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 404 || !strings.Contains(string(body), `contracts serve --demo`) {
			t.Fatalf("%s: %d %s", path, resp.StatusCode, body)
		}
	}
}
