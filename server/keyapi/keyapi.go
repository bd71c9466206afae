// Package keyapi serves the spec's key interface on the key listener:
// back-office systems authenticate with an X-API-Key and create, list and
// read contracts, download their PDF, read templates and check parties.
// All money is in minor units. Errors carry path and description, so the
// echo instance is made with server.NewEcho("key", log, metrics, true).
package keyapi

import (
	"strings"
	"time"

	"contracts/server"
	"contracts/server/pdf"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// Deps is what the key interface needs.
type Deps struct {
	// Service carries out every operation.
	Service *signflow.Service
	// BaseURL is key.baseURL, the origin of the cabinet that invitations
	// link to.
	BaseURL string
	// VerifyBaseURL is embedded.baseURL: the PDF's QR code links to
	// {VerifyBaseURL}/verify/{id}?h=<first 16 hex digits of the hash>.
	VerifyBaseURL string
	// KeyPerSecond limits the requests of each API key
	// (ratelimit.keyPerSecond); 0 means no limit.
	KeyPerSecond int
	// PDF makes and keeps the contract PDFs, shared with every route that
	// serves them; nil means a cache of this interface's own.
	PDF *pdf.Cache
	// Now is the rate limiter's clock; nil means time.Now.
	Now func() time.Time
}

type handler struct {
	svc        *signflow.Service
	baseURL    string
	verifyBase string
	limit      *server.Limiter
	pdfs       *pdf.Cache
}

// Register mounts the key interface's /v1 routes on e. Every route takes
// the key (and then its scope) as route middleware, so an unknown path is
// 404 and a known path with the wrong method 405, as elsewhere.
func Register(e *echo.Echo, d Deps) {
	if d.PDF == nil {
		d.PDF = pdf.NewCache(pdf.DefaultCacheBytes)
	}
	h := &handler{svc: d.Service, baseURL: strings.TrimRight(d.BaseURL, "/"), verifyBase: d.VerifyBaseURL, limit: server.NewLimiter(d.KeyPerSecond, time.Second, d.Now), pdfs: d.PDF}
	with := func(scope string) []echo.MiddlewareFunc {
		if scope == "" {
			return []echo.MiddlewareFunc{h.authenticate}
		}
		return []echo.MiddlewareFunc{h.authenticate, server.RequireScope(scope, access)}
	}
	idempotent := server.Idempotent(d.Service, func(c echo.Context) string { return "key:" + apiKey(c).ID })
	post := func(scope string) []echo.MiddlewareFunc { return append(with(scope), idempotent) }
	e.GET("/v1/me", server.Chain(h.me, with("")...))
	e.GET("/v1/templates", server.Chain(h.listTemplates, with(signflow.ScopeTemplatesRead)...))
	e.GET("/v1/templates/:templateId/fields", server.Chain(h.templateFields, with(signflow.ScopeTemplatesRead)...))
	e.POST("/v1/contracts", server.Chain(h.createContract, post(signflow.ScopeContractsWrite)...))
	e.GET("/v1/contracts", server.Chain(h.listContracts, with(signflow.ScopeContractsRead)...))
	e.GET("/v1/contracts/:id", server.Chain(h.readContract, with(signflow.ScopeContractsRead)...))
	e.GET("/v1/contracts/:id/pdf", server.Chain(h.contractPDF, with(signflow.ScopeContractsRead)...))
	e.POST("/v1/contracts/:id/cancel", server.Chain(h.cancelContract, post(signflow.ScopeContractsWrite)...))
	e.POST("/v1/contracts/:id/complete", server.Chain(h.completeContract, post(signflow.ScopeContractsWrite)...))
	e.GET("/v1/contracts/:id/payments", server.Chain(h.ledger, with(signflow.ScopeContractsRead)...))
	e.POST("/v1/contracts/:id/payments", server.Chain(h.recordPayment, post(signflow.ScopeContractsWrite)...))
	e.POST("/v1/contracts/:id/payment-links", server.Chain(h.payLink, post(signflow.ScopeContractsRead)...))
	e.GET("/v1/clients/:in", server.Chain(h.readClient, with(signflow.ScopeClientsRead)...))
}
