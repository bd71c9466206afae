package cabinet_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"contracts/internal/apitest"
	"contracts/internal/config"
	"contracts/internal/fixture"
	"contracts/server"
	"contracts/server/cabinet"
	"contracts/server/keyapi"
	"contracts/server/pdf"
	"contracts/signflow"
	"contracts/signflow/sms"

	"github.com/labstack/echo/v4"
	"github.com/rs/zerolog"
)

// The peer is an individual who owns an API key with a webhook, so that
// key-interface contracts between the peer and the customer are signed by
// two individuals with SMS codes.
const (
	peerIN       = "32222222222222"
	peerPhone    = "998901111111"
	custPhone    = "998901234567"
	embeddedBase = "http://embedded.test"
	hookURL      = "http://127.0.0.1:9/hook"
	noPhoneIN    = "305555555" // a company registered without a phone
)

// options shape an env.
type options struct {
	tls          bool
	otpPerMinute int
	baseURL      string
	embedded     string // EmbeddedBaseURL; "-" for none
	service      func(*fixture.Standard) *signflow.Service
	pdfs         *pdf.Cache // shared by the key interface and the cabinet, as routes.go shares it
	// gateway sends every SMS through the http provider to a gateway over
	// HTTP (env.gateway), which records it in the world's SMS.
	gateway bool
	// codesPerDay is ratelimit.cabinetCodesPerNumberPerDay.
	codesPerDay int
}

// env is the key listener (key interface and cabinet, as routes.go mounts
// them) over real HTTP on a real bbolt world. Login codes go out through a
// text queue in the background, as the appliance sends them.
type env struct {
	*fixture.Standard
	svc     *signflow.Service
	key     *signflow.NewCredential // the peer's key
	srv     *httptest.Server
	gateway *fixture.Gateway // with options.gateway
	texts   *sms.Queue       // sends the login codes
	textLog *syncBuffer      // what the text queue logged
}

// syncBuffer is a log written by the text queue's senders.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func newEnv(t *testing.T, o options) *env {
	t.Helper()
	w := fixture.NewStandard(t)
	fixture.MustOwner(t, w.Service, &signflow.Client{IN: peerIN, FirstName: "Dilnoza", LastName: "Rahimova", Phone: peerPhone})
	fixture.MustClaim(t, w.Service, peerIN, &signflow.Client{IN: fixture.CustomerIN, FirstName: "Aziz", LastName: "Karimov", Phone: custPhone})
	ev := &env{Standard: w, svc: w.Service}
	var sender signflow.SMSSender = w.SMS
	if o.gateway {
		ev.gateway = fixture.NewGateway(t, w.SMS)
		sender = sms.NewHTTP(ev.gateway.URL, nil, 5*time.Second)
		opt := w.Options
		opt.SMS = sender
		ev.svc = signflow.NewService(w.DB, opt)
	}
	if o.service != nil {
		ev.svc = o.service(w)
	}
	ev.textLog = &syncBuffer{}
	texts := sms.NewQueue(sender, zerolog.New(ev.textLog), sms.QueueOptions{Timeout: config.Default().SMS.HTTP.Timeout})
	texts.Start()
	t.Cleanup(func() { texts.Shutdown(context.Background()) })
	ev.texts = texts
	ev.key = fixture.MustCredential(t, w.Service.CreateKey, &signflow.CredentialInput{Name: "Peer back office", OwnerIN: peerIN,
		Scopes: signflow.KeyScopes, AllTemplates: true, WebhookURL: hookURL})
	if o.embedded == "" {
		o.embedded = embeddedBase
	} else if o.embedded == "-" {
		o.embedded = ""
	}
	e := server.NewEcho("key", zerolog.Nop(), nil, true)
	e.IPExtractor = echo.ExtractIPDirect()
	keyapi.Register(e, keyapi.Deps{Service: ev.svc, VerifyBaseURL: o.embedded, PDF: o.pdfs, Now: w.Clock.Now})
	cabinet.Register(e, cabinet.Deps{Service: ev.svc, ServiceName: config.Default().Service.Name, IdleTimeout: 30 * time.Minute, OTPPerMinute: o.otpPerMinute,
		EmbeddedBaseURL: o.embedded, BaseURL: o.baseURL, PDF: o.pdfs, Now: w.Clock.Now, Texts: texts,
		CodesPerNumberPerDay: o.codesPerDay})
	if o.tls {
		ev.srv = httptest.NewTLSServer(e)
	} else {
		ev.srv = httptest.NewServer(e)
	}
	t.Cleanup(ev.srv.Close)
	return ev
}

// create posts a contract with the peer's key through the key interface
// and returns its id; body gets a template and a price unless it has them.
func (e *env) create(t *testing.T, body map[string]any) string {
	t.Helper()
	if body["templateId"] == nil {
		body["templateId"] = e.Template.ID
	}
	if body["price"] == nil {
		body["price"], body["currency"] = 150000000, "UZS"
	}
	api := &apitest.Caller{URL: e.srv.URL, HTTP: e.srv.Client(), Auth: func(req *http.Request, key string) { req.Header.Set(keyapi.HeaderAPIKey, key) }}
	r := api.Do(t, "POST", "/v1/contracts", e.key.Secret, body)
	if r.Status != 200 {
		t.Fatalf("create contract: %d %s", r.Status, r)
	}
	return r.JSON(t)["id"].(string)
}

// browser is one party's browser: its cookies and the CSRF token of the
// last page it loaded.
type browser struct {
	e    *env
	t    *testing.T
	c    *http.Client
	csrf string
	// api sends the browser's requests: the CSRF token given on those that
	// change something, the token of each page it loads kept.
	api *apitest.Caller
}

func (e *env) browser(t *testing.T) *browser {
	jar, _ := cookiejar.New(nil)
	c := *e.srv.Client()
	c.Jar = jar
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	b := &browser{e: e, t: t, c: &c}
	b.api = &apitest.Caller{URL: e.srv.URL, HTTP: b.c, Auth: csrfHeader, Read: b.keepCSRF}
	return b
}

// browserFrom is a browser whose connections come from the loopback
// address ip (all of 127.0.0.0/8 is loopback), another client address.
func (e *env) browserFrom(t *testing.T, ip string) *browser {
	b := e.browser(t)
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	b.c.Transport = &http.Transport{DialContext: d.DialContext}
	t.Cleanup(b.c.CloseIdleConnections)
	return b
}

var configRE = regexp.MustCompile(`(?s)<script type="application/json" id="cabinet-config">(.*?)</script>`)

// do sends a request; a JSON body is sent with the browser's CSRF token
// unless csrf is given ("" for none).
func (b *browser) do(method, path string, body any, csrf ...string) apitest.Reply {
	b.t.Helper()
	token := b.csrf
	if len(csrf) > 0 {
		token = csrf[0]
	}
	return b.api.Do(b.t, method, path, token, body)
}

// csrfHeader puts a CSRF token on a request that may change something.
func csrfHeader(req *http.Request, token string) {
	if req.Method != "GET" {
		req.Header.Set("X-CSRF-Token", token)
	}
}

// keepCSRF keeps the CSRF token of a page the browser loaded, and takes
// the page's configuration out of the answer: what the tests read is the
// page itself, not every string in the configuration.
func (b *browser) keepCSRF(req *http.Request, r *apitest.Reply) error {
	m := configRE.FindStringSubmatch(r.Body)
	if req.Method != "GET" || m == nil {
		return nil
	}
	var cfg struct{ CSRF string }
	if err := json.Unmarshal([]byte(m[1]), &cfg); err != nil {
		return fmt.Errorf("page config: %w", err)
	}
	b.csrf = cfg.CSRF
	r.Body = configRE.ReplaceAllString(r.Body, "")
	return nil
}

// get loads a page (or reads the API) and keeps the page's CSRF token.
func (b *browser) get(path string) apitest.Reply { b.t.Helper(); return b.do("GET", path, nil) }

// post sends a JSON request with the current CSRF token.
func (b *browser) post(path string, body any) apitest.Reply {
	b.t.Helper()
	if body == nil {
		body = map[string]any{}
	}
	return b.do("POST", path, body)
}

// sendCode opens the login page and asks for a code for the number.
func (b *browser) sendCode(in string) apitest.Reply {
	b.t.Helper()
	if r := b.get("/cabinet?lang=en"); r.Status != 200 || b.csrf == "" {
		b.t.Fatalf("login page: %d, csrf %q", r.Status, b.csrf)
	}
	return b.post("/cabinet/api/login/code", map[string]string{"number": in})
}

// login logs the party in with the code texted to phone, then loads its list.
func (b *browser) login(in, phone string) {
	b.t.Helper()
	if r := b.sendCode(in); r.Status != 200 {
		b.t.Fatalf("send login code: %d %s", r.Status, r.Body)
	}
	if r := b.post("/cabinet/api/login", map[string]string{"number": in, "code": lastCode(b.t, b.e.SMS, phone)}); r.Status != 200 {
		b.t.Fatalf("log in: %d %s", r.Status, r.Body)
	}
	if r := b.get("/cabinet"); r.Status != 200 || !strings.Contains(r.Body, "My contracts") {
		b.t.Fatalf("list after login: %d", r.Status)
	}
}

// sessionCookie returns the cabinet session cookie the browser holds.
func (b *browser) sessionCookie() *http.Cookie {
	u, _ := url.Parse(b.e.srv.URL + "/cabinet")
	for _, c := range b.c.Jar.Cookies(u) {
		if c.Name == "cabinet_session" {
			return c
		}
	}
	return nil
}

// lastCode reads the code of the newest SMS to phone that no earlier call
// read, waiting for it: login codes go out in the background.
func lastCode(t *testing.T, sms *fixture.SMS, phone string) string {
	t.Helper()
	return sms.Newest(t, phone).Code(t)
}

func itoa(n int) string { return strconv.Itoa(n) }

func toJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func mustURL(s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		panic(err)
	}
	return u
}
