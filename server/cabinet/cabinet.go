// Package cabinet serves, on the key listener, the service's own web page
// where a party of key-interface contracts logs in with its number and an
// SMS code, and reads, signs, rejects and (as creator) cancels its
// contracts (spec: "On the key interface, signing is done through the
// service's own application or cabinet"). Every rule is signflow's: the
// login, its locks and the sessions are signflow.Cabinet's, the contract
// work is the embedded flow's own operations.
package cabinet

import (
	"html/template"
	"net/http"
	"strings"
	"time"

	"contracts/assets"
	"contracts/server"
	"contracts/server/document"
	"contracts/server/pdf"
	"contracts/server/static"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// Deps is what the cabinet needs.
type Deps struct {
	// Service carries out every operation.
	Service *signflow.Service
	// ServiceName names the service in the page header; required (service.name).
	ServiceName string
	// IdleTimeout ends a session after this long without a request
	// (cabinet.idleTimeout); default 30m.
	IdleTimeout time.Duration
	// OTPPerMinute limits, per client IP, the requests that send or check
	// an SMS code: login and signing (ratelimit.otpPerMinute); 0 means no limit.
	OTPPerMinute int
	// EmbeddedBaseURL is embedded.baseURL: the PDF's QR code links to its
	// verify page, and E_IMZO signers go on to its signing page (the
	// E-IMZO API keys are issued for that site). Empty turns E_IMZO off here.
	EmbeddedBaseURL string
	// BaseURL is key.baseURL; an https one makes every cookie Secure (TLS
	// ends at a proxy). Requests that arrive over TLS always get Secure cookies.
	BaseURL string
	// PDF makes and keeps the contract PDFs, shared with every route that
	// serves them; nil means a cache of the cabinet's own.
	PDF *pdf.Cache
	// Now is the rate limiter's clock; default the service's clock.
	Now func() time.Time
	// Texts sends the login codes in the background (sms.Queue, a worker
	// of the appliance); nil sends them inline, for tests.
	Texts signflow.TextQueue
	// CodesPerNumberPerDay caps the login codes a day for one number from
	// browsers it never logged in with, and from each that it did
	// (ratelimit.cabinetCodesPerNumberPerDay); 0 means no cap.
	CodesPerNumberPerDay int
}

// Register mounts the cabinet under /cabinet on e.
func Register(e *echo.Echo, d Deps) {
	h := newHandler(d)
	e.GET("/cabinet", h.home)
	e.GET("/cabinet/", func(c echo.Context) error { return c.Redirect(http.StatusMovedPermanently, "/cabinet") })
	e.GET("/cabinet/contracts/:id", h.contract, h.page)
	e.GET("/cabinet/contracts/:id/pdf", h.pdf, h.page)
	e.GET("/cabinet/assets/:name", h.files.Serve)

	e.POST("/cabinet/api/login/code", h.sendLoginCode, h.loginCSRF, h.limited)
	e.POST("/cabinet/api/login", h.logIn, h.loginCSRF, h.limited)
	e.POST("/cabinet/api/logout", h.logOut)

	e.GET("/cabinet/api/contracts/:id", h.contractState, h.api)
	e.POST("/cabinet/api/contracts/:id/cancel", h.cancel, h.api)
	e.POST("/cabinet/api/contracts/:id/signing", h.openSigning, h.api)
	e.POST("/cabinet/api/signing/code", h.sendCode, h.api, h.limited)
	e.POST("/cabinet/api/signing/confirm", h.confirm, h.api, h.limited)
	e.POST("/cabinet/api/signing/reject", h.reject, h.api)
	e.POST("/cabinet/api/signing/identity", h.identity, h.api)
}

type handler struct {
	svc         *signflow.Service
	cab         *signflow.Cabinet
	serviceName string
	embedded    string
	secure      bool
	limiter     *server.Limiter
	tmpl        *template.Template
	files       *static.Set
	pdfs        *pdf.Cache
}

func newHandler(d Deps) *handler {
	if d.ServiceName == "" {
		panic("cabinet: Deps.ServiceName is required (service.name)")
	}
	if d.Now == nil {
		d.Now = d.Service.Now
	}
	if d.PDF == nil {
		d.PDF = pdf.NewCache(pdf.DefaultCacheBytes)
	}
	h := &handler{svc: d.Service, pdfs: d.PDF, cab: d.Service.Cabinet(signflow.CabinetOptions{IdleTimeout: d.IdleTimeout, Texts: d.Texts,
		CodesPerNumberPerDay: d.CodesPerNumberPerDay}),
		serviceName: d.ServiceName, embedded: strings.TrimRight(d.EmbeddedBaseURL, "/"),
		secure: strings.HasPrefix(d.BaseURL, "https://"), limiter: server.NewLimiter(d.OTPPerMinute, time.Minute, d.Now)}
	h.tmpl = document.Page("page.html", static.Read(assets.Cabinet, "cabinet/page.html"), static.Read(assets.Sign, "sign/steps.html"))
	h.files = static.New(
		static.File{Name: "document.css", Body: document.CSS()},
		static.File{Name: "sign.css", Body: static.Read(assets.Sign, "sign/sign.css")},
		static.File{Name: "cabinet.css", Body: static.Read(assets.Cabinet, "cabinet/cabinet.css")},
		static.File{Name: "common.js", Body: assets.CommonJS},
		static.File{Name: "cabinet.js", Body: static.Read(assets.Cabinet, "cabinet/cabinet.js")},
	)
	return h
}
