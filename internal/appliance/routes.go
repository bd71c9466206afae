package appliance

import (
	"net/url"
	"time"

	"contracts/assets"
	"contracts/server"
	"contracts/server/admin"
	"contracts/server/apidocs"
	"contracts/server/cabinet"
	"contracts/server/console"
	"contracts/server/demo"
	"contracts/server/embedded"
	"contracts/server/keyapi"
	"contracts/server/payments"
	"contracts/server/pdf"
	"contracts/server/pdf/pades"
	"contracts/server/signpage"
	"contracts/server/verify"
	"contracts/signflow"
	"contracts/signflow/secretbox"
	"contracts/webhooks"

	"github.com/labstack/echo/v4"
)

// routeDeps builds the echo instance of each listener.
type routeDeps struct {
	a          *Appliance
	adminToken string
	demo       bool
	box        *secretbox.Box
	pool       *webhooks.Pool
	pdfs       *pdf.Cache      // the contract PDFs of every listener, sealed
	sealID     *pades.Identity // the seal they carry
}

// newEcho starts the echo instance of one listener; every listener reads
// the client address the same way, trusting X-Forwarded-For only from
// http.trustedProxies (Strict-Transport-Security over TLS on every answer
// comes with server.NewEcho's common middleware).
func (d routeDeps) newEcho(iface string, withPath bool) *echo.Echo {
	e := server.NewEcho(iface, d.a.log, d.a.metrics, withPath)
	e.IPExtractor = server.IPExtractor(d.a.cfg.HTTP.ProxyNets())
	return e
}

// embedded builds the embedded listener's routes.
func (d routeDeps) embedded() *echo.Echo {
	e := d.newEcho("embedded", false)
	embedded.Register(e, embedded.Deps{Service: d.a.svc, BaseURL: d.a.cfg.Embedded.BaseURL,
		TokenPerMinute: d.a.cfg.RateLimit.TokenPerMinute, AppPerSecond: d.a.cfg.RateLimit.AppPerSecond, PDF: d.pdfs, Now: d.a.now})
	apidocs.Register(e, apidocs.Deps{Document: assets.OpenAPIEmbedded, BaseURL: d.a.cfg.Embedded.BaseURL})
	verify.Register(e, verify.Deps{Service: d.a.svc, SealFingerprint: d.sealID.Fingerprint(),
		Verifier:   pades.NewVerifier(d.sealID.Certificate()),
		Limiter:    server.NewLimiter(d.a.cfg.RateLimit.VerifyPerMinute, time.Minute, d.a.now),
		Concurrent: d.a.cfg.RateLimit.VerifyConcurrent})
	signpage.Register(e, signpage.Deps{Service: d.a.svc, ServiceName: d.a.cfg.Service.Name,
		OTPPerMinute: d.a.cfg.RateLimit.OTPPerMinute, Now: d.a.now, Log: d.a.log, EIMZO: d.eimzoClient()})
	server.Index{Service: d.a.cfg.Service.Name, Listener: "embedded", Serves: map[string]string{
		"/v1/": "the embedded interface (bearer tokens of apps)", "/docs": "its reference", "/api-docs": "its OpenAPI document",
		"/sign/<token>": "the signing page", "/sdk.js": "the iframe SDK", "/verify": "check a sealed PDF",
		"/verify/<id>": "a contract's public verify page (its PDF's QR code)"}}.Register(e)
	payments.Register(e, payments.Deps{Service: d.a.svc, Log: d.a.log})
	return e
}

// key builds the key listener's routes.
func (d routeDeps) key() *echo.Echo {
	e := d.newEcho("key", true)
	keyapi.Register(e, keyapi.Deps{Service: d.a.svc, BaseURL: d.a.cfg.Key.BaseURL, VerifyBaseURL: d.a.cfg.Embedded.BaseURL,
		KeyPerSecond: d.a.cfg.RateLimit.KeyPerSecond, PDF: d.pdfs, Now: d.a.now})
	cabinet.Register(e, cabinet.Deps{Service: d.a.svc, ServiceName: d.a.cfg.Service.Name,
		IdleTimeout: d.a.cfg.Cabinet.IdleTimeout, OTPPerMinute: d.a.cfg.RateLimit.OTPPerMinute,
		EmbeddedBaseURL: d.a.cfg.Embedded.BaseURL, BaseURL: d.a.cfg.Key.BaseURL, PDF: d.pdfs, Now: d.a.now, Texts: d.a.texts,
		CodesPerNumberPerDay: d.a.cfg.RateLimit.CabinetCodesPerNumberPerDay})
	apidocs.Register(e, apidocs.Deps{Document: assets.OpenAPIKey, BaseURL: d.a.cfg.Key.BaseURL})
	server.Index{Service: d.a.cfg.Service.Name, Listener: "key", Serves: map[string]string{
		"/v1/": "the key interface (X-API-Key)", "/docs": "its reference", "/api-docs": "its OpenAPI document",
		"/cabinet": "the parties' own page: log in by number and SMS code"}}.Register(e)
	return e
}

// workers lists the background components.
func (d routeDeps) workers() []worker {
	sweeper := signflow.NewSweeper(d.a.svc, signflow.SweeperOptions{Every: 30 * time.Second,
		OnSweep: func(n int, err error) {
			if err != nil {
				d.a.log.Error().Err(err).Msg("session sweep failed")
			} else if n > 0 {
				d.a.log.Info().Int("expired", n).Msg("sessions expired")
			}
		}})
	return []worker{sweeper, d.pool, d.a.texts}
}

// eimzoClient tells the signing page the E-IMZO API key of its own domain.
func (d routeDeps) eimzoClient() signpage.EIMZOClient {
	c := signpage.EIMZOClient{APIKeys: map[string]string{}}
	if u, err := url.Parse(d.a.cfg.Embedded.BaseURL); err == nil && d.a.cfg.EIMZO.APIKey != "" {
		c.APIKeys[u.Hostname()] = d.a.cfg.EIMZO.APIKey
	}
	return c
}

// admin builds the admin listener's routes.
func (d routeDeps) admin() *echo.Echo {
	e := d.newEcho("admin", true)
	e.Use(admin.HostCheck(d.a.cfg.Admin.Listen, d.a.cfg.Admin.AllowedHosts))
	admin.Register(e, admin.Deps{Service: d.a.svc, DB: d.a.db.backup, Token: d.adminToken, Metrics: d.a.metrics,
		Ready: d.a.db.ready, Redelivered: d.pool.Redelivered,
		Warnings: d.a.warnings})
	console.Register(e, console.Deps{Service: d.a.svc, Token: d.adminToken, ServiceName: d.a.cfg.Service.Name,
		EmbeddedBaseURL: d.a.cfg.Embedded.BaseURL, PDF: d.pdfs, Redelivered: d.pool.Redelivered, Now: d.a.now})
	if d.demo {
		appID, _ := d.a.db.Meta(DemoMarker)
		demo.Register(e, demo.Deps{Service: d.a.svc, AppID: appID, EmbeddedBaseURL: d.a.cfg.Embedded.BaseURL,
			ServiceName: d.a.cfg.Service.Name, PDF: d.pdfs})
	} else {
		demo.RegisterOff(e)
	}
	demoPage := "the demo (start with --demo)"
	if d.demo {
		demoPage = "the demo: create and sign a contract"
	}
	server.Index{Service: d.a.cfg.Service.Name, Listener: "admin", Serves: map[string]string{
		"/console": "the administrator's console (log in with the admin token)", "/admin/v1/": "the admin API (docs/admin-api.md)",
		"/demo": demoPage, "/healthz": "liveness", "/readyz": "readiness", "/metrics": "Prometheus metrics"}}.Register(e)
	return e
}
