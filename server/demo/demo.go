// Package demo serves /demo on the admin listener when the appliance runs
// with --demo: a tiny integrator page that takes a newcomer to an ACTIVE
// contract. Server-side, with the demo app's access, it creates a contract
// between the app's owner and the demo customer (only on a POST with the
// page's CSRF token), opens a signing session for the buyer and then for
// the seller, shows each in the signing iframe through the service's
// sdk.js, and ends on the sealed PDF and the verify page.
package demo

import (
	"bytes"
	"crypto/subtle"
	"html/template"
	"net/http"
	"strings"

	"contracts/assets"
	"contracts/server/i18n"
	"contracts/server/pdf"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// Deps is what the demo page needs.
type Deps struct {
	// Service is the domain the page acts on.
	Service *signflow.Service
	// AppID is the demo app; the page acts with its access, as an integrator's server would.
	AppID string
	// TemplateID is the template of the demo contracts; empty means the
	// oldest published template the app may use (the seeded demo template).
	TemplateID string
	// CustomerIN is the buyer; default 31234567890123.
	CustomerIN string
	// EmbeddedBaseURL is embedded.baseURL, where /sign/<token>, /sdk.js and /verify are served.
	EmbeddedBaseURL string
	// ServiceName names the service in the page; required (service.name).
	ServiceName string
	// PDF makes the sealed contract PDFs, shared with every route; nil: unsealed, for tests.
	PDF *pdf.Cache
}

// DefaultCustomerIN is the demo customer seeded by serve --demo.
const DefaultCustomerIN = "31234567890123"

// Register mounts the demo's pages: GET /demo (the start), POST /demo (a
// new contract, the buyer signs), POST /demo/seller (the seller signs),
// GET /demo/done (where Continue leads), the status check and the PDF.
func Register(e *echo.Echo, d Deps) {
	if d.CustomerIN == "" {
		d.CustomerIN = DefaultCustomerIN
	}
	if d.ServiceName == "" {
		panic("demo: Deps.ServiceName is required (service.name)")
	}
	if d.PDF == nil {
		d.PDF = pdf.NewCache(pdf.DefaultCacheBytes)
	}
	d.EmbeddedBaseURL = strings.TrimRight(d.EmbeddedBaseURL, "/")
	h := &handler{Deps: d, page: template.Must(template.New("demo").Parse(string(assets.DemoPage)))}
	e.GET("/demo", h.start)
	e.POST("/demo", h.create, h.csrf)
	e.POST("/demo/seller", h.seller, h.csrf)
	e.GET("/demo/status", h.status)
	e.GET("/demo/done", h.done)
	e.GET("/demo/pdf", h.pdf)
}

// RegisterOff mounts /demo on an appliance started without --demo: it
// says how to turn the demo on instead of "No such route".
func RegisterOff(e *echo.Echo) {
	off := func(echo.Context) error {
		return signflow.Errorf(signflow.ENOTFOUND, "The demo is off: start the appliance with \"contracts serve --demo\" to serve /demo.")
	}
	e.GET("/demo", off)
	e.GET("/demo/*", off)
}

type handler struct {
	Deps
	page *template.Template
}

// csrfCookie binds the page's forms to the browser that was shown them.
const csrfCookie = "demo_csrf"

// csrf lets a POST through only with the form's token equal to the
// cookie's: another site cannot make the demo create contracts.
func (h *handler) csrf(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		ck, err := c.Cookie(csrfCookie)
		form := c.FormValue("csrf")
		if err != nil || len(ck.Value) < 20 || subtle.ConstantTimeCompare([]byte(ck.Value), []byte(form)) != 1 {
			d := h.data(c)
			d.View, d.Error = "start", d.T["demo.stale"]
			return h.render(c, http.StatusForbidden, d)
		}
		return next(c)
	}
}

// token is the browser's CSRF token, set on first sight.
func (h *handler) token(c echo.Context) string {
	if ck, err := c.Cookie(csrfCookie); err == nil && len(ck.Value) >= 20 && len(ck.Value) <= 64 {
		return ck.Value
	}
	t := signflow.RandomToken(24)
	c.SetCookie(&http.Cookie{Name: csrfCookie, Value: t, Path: "/demo", HttpOnly: true, SameSite: http.SameSiteStrictMode,
		Secure: c.Scheme() == "https"})
	return t
}

// pageData is everything the one page template shows, by View:
// "start", "sign" or "done".
type pageData struct {
	View, ServiceName, Lang, CSRF, Error string
	T                                    i18n.Dict
	Langs                                []string
	LangURL                              string // the page in another language, but for the code
	Intro                                string
	Step                                 string // the signing step's title
	Number, ContractID, SessionID        string
	SignerIN, SessionStatus              string
	ContractStatus, EmbeddedOrigin       string
	SDKURL                               string
	Config                               pageConfig
	Contract                             *signflow.Contract
	State                                string // the done page's sentence
	Next                                 string // "buyer", "seller", "active" or "ended"
	PDFURL, VerifyURL                    string
}

type pageConfig struct {
	SignURL   string `json:"signUrl"`
	StatusURL string `json:"statusUrl"`
}

func (h *handler) data(c echo.Context) pageData {
	lang := i18n.Pick(c.QueryParam("lang"), c.FormValue("lang"), c.Request().Header.Get("Accept-Language"))
	return pageData{ServiceName: h.ServiceName, Lang: lang, T: i18n.Demo.For(lang), Langs: signflow.Languages, CSRF: h.token(c),
		LangURL: "/demo?lang="}
}

func (h *handler) render(c echo.Context, status int, d pageData) error {
	var buf bytes.Buffer
	if err := h.page.Execute(&buf, d); err != nil {
		return err
	}
	hd := c.Response().Header()
	hd.Set("Cache-Control", "no-store")
	hd.Set("Referrer-Policy", "no-referrer")
	return c.HTMLBlob(status, buf.Bytes())
}

// start is GET /demo: what the demo does, and the button that creates a
// contract. A GET changes nothing.
func (h *handler) start(c echo.Context) error {
	d := h.data(c)
	d.View = "start"
	return h.render(c, http.StatusOK, d)
}
