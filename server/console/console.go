// Package console serves /console on the admin listener: the web page
// through which the administrator runs the appliance — counts and a
// chart, every owner's contracts, templates, owners, apps, keys and
// webhook deliveries. It logs in with the admin token. Every act is the
// same signflow call as the admin API's, with the admin API's request
// types, so that both stay one behaviour.
//
// Pages are rendered on the server (html/template, files embedded from
// assets/console) and act through plain forms that post with the
// session's CSRF token; the small script only copies secrets.
package console

import (
	"bytes"
	"html/template"
	"net/http"
	"strings"
	"time"

	"contracts/assets"
	"contracts/server/document"
	"contracts/server/pdf"
	"contracts/server/static"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// Deps is what the console needs.
type Deps struct {
	// Service carries out every operation.
	Service *signflow.Service
	// Token is the admin token; empty turns the login off.
	Token string
	// ServiceName names the service in the page header; required (service.name).
	ServiceName string
	// IdleTimeout ends a session after this long without a request; default 30m.
	IdleTimeout time.Duration
	// EmbeddedBaseURL is embedded.baseURL: the PDF's QR code links to its verify page.
	EmbeddedBaseURL string
	// PDF makes and keeps the contract PDFs, shared with every route that
	// serves them; nil means a cache of the console's own.
	PDF *pdf.Cache
	// Redelivered is told when a delivery is queued again, to wake the workers.
	Redelivered func()
	// Now is the clock of sessions and lock-outs; default the service's.
	Now func() time.Time
}

// Register mounts the console under /console on e.
func Register(e *echo.Echo, d Deps) {
	h := newHandler(d)
	e.GET("/console", h.dashboard, h.page)
	e.GET("/console/", func(c echo.Context) error { return c.Redirect(http.StatusMovedPermanently, "/console") })
	e.GET("/console/assets/:name", h.files.Serve)
	e.POST("/console/login", h.logIn)
	e.POST("/console/logout", h.logOut, h.page)

	e.GET("/console/contracts", h.contracts, h.page)
	e.GET("/console/contracts/:id", h.contract, h.page)
	e.GET("/console/contracts/:id/pdf", h.contractPDF, h.page)
	e.POST("/console/contracts/:id/cancel", h.cancel, h.page)
	e.POST("/console/contracts/:id/payments", h.recordPayment, h.page)

	e.GET("/console/templates", h.templates, h.page)
	e.POST("/console/templates", h.saveTemplate, h.page)
	e.POST("/console/templates/preview", h.previewTemplate, h.page)
	e.POST("/console/templates/preview/pdf", h.previewPDF, h.page)
	e.GET("/console/templates/:id", h.template, h.page)
	e.POST("/console/templates/:id", h.updateTemplate, h.page)
	e.POST("/console/templates/:id/preview", h.previewEdit, h.page)
	e.POST("/console/templates/:id/publish", h.publish, h.page)
	e.POST("/console/templates/:id/unpublish", h.unpublish, h.page)

	e.GET("/console/owners", h.owners, h.page)
	e.POST("/console/owners", h.createOwner, h.page)
	e.POST("/console/owners/payments", h.setMerchant, h.page)

	e.GET("/console/apps", h.apps, h.page)
	e.POST("/console/apps", h.createApp, h.page)
	e.POST("/console/apps/:id/secret", h.rotateSecret, h.page)
	e.POST("/console/apps/:id/cancel", h.cancelApp, h.page)
	e.GET("/console/keys", h.keys, h.page)
	e.POST("/console/keys", h.createKey, h.page)
	e.POST("/console/keys/:id/revoke", h.revokeKey, h.page)

	e.GET("/console/deliveries", h.deliveries, h.page)
	e.POST("/console/deliveries/:id/redeliver", h.redeliver, h.page)
}

type handler struct {
	svc         *signflow.Service
	serviceName string
	embedded    string
	pdfs        *pdf.Cache
	redelivered func()
	auth        *auth
	pages       map[string]*template.Template
	files       *static.Set
}

// pageNames are the page templates, each a file of assets/console that
// defines "main" inside layout.html.
var pageNames = []string{"login", "dashboard", "contracts", "contract", "templates", "owners", "credentials", "deliveries", "missing"}

func newHandler(d Deps) *handler {
	if d.ServiceName == "" {
		panic("console: Deps.ServiceName is required (service.name)")
	}
	if d.Now == nil {
		d.Now = d.Service.Now
	}
	if d.IdleTimeout <= 0 {
		d.IdleTimeout = 30 * time.Minute
	}
	if d.PDF == nil {
		d.PDF = pdf.NewCache(pdf.DefaultCacheBytes)
	}
	h := &handler{svc: d.Service, serviceName: d.ServiceName, embedded: strings.TrimRight(d.EmbeddedBaseURL, "/"),
		pdfs: d.PDF, redelivered: d.Redelivered, auth: newAuth(d.Token, d.IdleTimeout, d.Now),
		pages: map[string]*template.Template{}}
	layout := document.Page("layout.html", static.Read(assets.Console, "console/layout.html"))
	for _, name := range pageNames {
		t := template.Must(layout.Clone())
		template.Must(t.New(name).Parse(string(static.Read(assets.Console, "console/"+name+".html"))))
		h.pages[name] = t
	}
	h.files = static.New(
		static.File{Name: "document.css", Body: document.CSS()},
		static.File{Name: "console.css", Body: static.Read(assets.Console, "console/console.css")},
		static.File{Name: "console.js", Body: static.Read(assets.Console, "console/console.js")},
	)
	return h
}

// render writes page name with d.
func (h *handler) render(c echo.Context, status int, name string, d *pageData) error {
	var buf bytes.Buffer
	if err := h.pages[name].ExecuteTemplate(&buf, "layout.html", d); err != nil {
		return err
	}
	static.OwnPageHeaders(c.Response().Header())
	return c.HTMLBlob(status, buf.Bytes())
}
