// Package embedded serves the spec's embedded interface: bearer tokens of
// an app, client registration, templates, contracts, their PDF and signing
// sessions, under /v1 on the embedded listener.
package embedded

import (
	"net/http"
	"strings"
	"time"

	"contracts/server"
	"contracts/server/pdf"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// Deps is what the embedded routes need.
type Deps struct {
	// Service carries out every operation.
	Service *signflow.Service
	// BaseURL is embedded.baseURL, the origin of session and verify URLs.
	BaseURL string
	// TokenPerMinute limits the failures of POST /v1/auth/token (a wrong id
	// or secret) per client IP and per app; a correct secret always gets its
	// token. 0 means no limit.
	TokenPerMinute int
	// AppPerSecond limits each app's authenticated requests (every route
	// but the token endpoint) per second; 0 means no limit.
	AppPerSecond int
	// PDF makes and keeps the contract PDFs, shared with every route that
	// serves them; nil means a cache of this interface's own.
	PDF *pdf.Cache
	// Now is the service clock, for rate limits and effective session
	// statuses; nil means Service.Now.
	Now func() time.Time
}

type handler struct {
	svc     *signflow.Service
	baseURL string
	now     func() time.Time
	// failuresByIP and failuresByApp count wrong token requests.
	failuresByIP  *server.Limiter
	failuresByApp *server.Limiter
	// perApp limits each app's requests once authenticated.
	perApp *server.Limiter
	pdfs   *pdf.Cache
}

// route is one row of the spec's embedded table: the scope it needs.
type route struct {
	method, path, scope string
	serve               echo.HandlerFunc
}

// Register mounts the embedded interface on e (built with
// server.NewEcho("embedded", log, metrics, false)). Client addresses (rate
// limits, the audit trail) are e's IPExtractor's.
func Register(e *echo.Echo, d Deps) {
	now := d.Now
	if now == nil {
		now = d.Service.Now
	}
	if d.PDF == nil {
		d.PDF = pdf.NewCache(pdf.DefaultCacheBytes)
	}
	h := &handler{svc: d.Service, pdfs: d.PDF, baseURL: strings.TrimRight(d.BaseURL, "/"), now: now,
		failuresByIP:  server.NewLimiter(d.TokenPerMinute, time.Minute, now),
		failuresByApp: server.NewLimiter(d.TokenPerMinute, time.Minute, now),
		perApp:        server.NewLimiter(d.AppPerSecond, time.Second, now)}
	e.POST("/v1/auth/token", h.issueToken)
	idempotent := server.Idempotent(d.Service, func(c echo.Context) string { return "app:" + access(c).AppID })
	for _, r := range h.routes() {
		auth := h.authenticate
		if r.method == http.MethodGet && r.path == contractPath || r.method == http.MethodPost && r.path == createPath {
			// The read, and the create's read of its template, confirm
			// the credentials in their own transaction.
			auth = h.authenticateFor(r.scope)
		}
		mw := []echo.MiddlewareFunc{auth, server.RequireScope(r.scope, access)}
		if r.method == http.MethodPost {
			mw = append(mw, idempotent)
		}
		e.Add(r.method, r.path, server.Chain(r.serve, mw...))
	}
}

// contractPath is the contract's read, the most polled route; createPath
// its create.
const (
	contractPath = "/v1/contracts/:id"
	createPath   = "/v1/contracts"
)

func (h *handler) routes() []route {
	return []route{
		{http.MethodPost, "/v1/clients", signflow.ScopeClientsWrite, h.registerClient},
		{http.MethodGet, "/v1/clients/:in", signflow.ScopeClientsRead, h.getClient},
		{http.MethodGet, "/v1/templates", signflow.ScopeTemplatesRead, h.listTemplates},
		{http.MethodGet, "/v1/templates/:templateId/fields", signflow.ScopeTemplatesRead, h.templateFields},
		{http.MethodPost, "/v1/contracts", signflow.ScopeContractsWrite, h.createContract},
		{http.MethodGet, contractPath, signflow.ScopeContractsRead, h.getContract},
		{http.MethodGet, "/v1/contracts/:id/pdf", signflow.ScopeContractsRead, h.contractPDF},
		{http.MethodPost, "/v1/contracts/:id/cancel", signflow.ScopeContractsWrite, h.cancelContract},
		{http.MethodPost, "/v1/contracts/:id/complete", signflow.ScopeContractsWrite, h.completeContract},
		{http.MethodGet, "/v1/contracts/:id/payments", signflow.ScopeContractsRead, h.ledger},
		{http.MethodPost, "/v1/contracts/:id/payments", signflow.ScopeContractsWrite, h.recordPayment},
		{http.MethodPost, "/v1/contracts/:id/payment-links", signflow.ScopeContractsRead, h.payLink},
		{http.MethodPost, "/v1/contracts/:id/sign-sessions", signflow.ScopeContractsSign, h.openSession},
		{http.MethodGet, "/v1/sign-sessions/:id", signflow.ScopeContractsSign, h.getSession},
	}
}
