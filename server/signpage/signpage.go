// Package signpage serves, on the embedded listener, the signing page a
// customer sees in the integrator's iframe (GET /sign/<token>), the page's
// small JSON API, the identity popup's return page (GET /sign/idp/callback),
// its static files, and the integrator SDK (GET /sdk.js).
package signpage

import (
	"bytes"
	"encoding/json"
	"html/template"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"

	"contracts/assets"
	"contracts/server"
	"contracts/server/document"
	"contracts/server/static"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
	"github.com/rs/zerolog"
)

// Deps is what the signing page needs.
type Deps struct {
	// Service carries out the signing.
	Service *signflow.Service
	// ServiceName names the service; lower-cased with "-sdk" appended it is
	// the source of every iframe message. Required (service.name).
	ServiceName string
	// OTPPerMinute limits SMS-code checks and sends, identity-check starts,
	// E-IMZO signatures and rejections: per session and client IP, and per
	// client IP for tokens of no session; 0 means no limit.
	OTPPerMinute int
	// Now is the clock of the rate limiter; default the service's clock.
	Now func() time.Time
	// EIMZO is how E_IMZO pages reach the signer's local E-IMZO client.
	EIMZO EIMZOClient
	// Log records the failures the identity callback cannot show.
	Log zerolog.Logger
}

// EIMZOClient is the page's side of E_IMZO signing: the websocket of the
// signer's local E-IMZO client and the API keys that let this site use it.
type EIMZOClient struct {
	// SecureURL is the client's websocket for pages served over HTTPS,
	// PlainURL for HTTP; their origins join the page's connect-src.
	// Default the client's own, DefaultSecureURL and DefaultPlainURL.
	SecureURL, PlainURL string
	// APIKeys maps a site's domain (the host of embedded.baseURL) to the
	// E-IMZO API key issued for it; the page presents them all to the
	// client, which picks the one of the page's own host. The public keys
	// of localhost and 127.0.0.1 are built in.
	APIKeys map[string]string
}

// The local E-IMZO client's websocket addresses.
const (
	DefaultSecureURL = "wss://127.0.0.1:64443/service/cryptapi"
	DefaultPlainURL  = "ws://127.0.0.1:64646/service/cryptapi"
)

// publicAPIKeys are the API keys E-IMZO publishes for development on
// localhost and 127.0.0.1.
var publicAPIKeys = map[string]string{
	"localhost": "96D0C1491615C82B9A54D9989779DF825B690748224C2B04F500F370D51827CE2644D8D4A82C18184D73AB8530BB8ED537269603F61DB0D03D2104ABF789970B",
	"127.0.0.1": "A7BCFA5D490B351BE0754130DF03A068F855DB4333D43921125B9CF2670EF6A40370C646B90401955E1F7BC9CDBF59CE0B2C5467D820BE189C845D0B79CFC96F",
}

// CallbackPath is the identity providers' redirect URI on the embedded
// listener; it must equal signflow/idp.CallbackPath.
const CallbackPath = "/sign/idp/callback"

// Register mounts the signing page, its API, its files and /sdk.js on e.
func Register(e *echo.Echo, d Deps) {
	h := newHandler(d)
	e.GET("/sdk.js", func(c echo.Context) error { return h.sdk.ServeFile(c, "sdk.js") })
	e.GET("/sign/assets/:name", h.files.Serve)
	e.GET(CallbackPath, h.identityCallback) // a static route: /sign/:token never captures it
	e.GET("/sign/:token", h.page)
	e.GET("/sign/:token/status", h.status)
	e.POST("/sign/:token/code", h.sendCode)
	e.POST("/sign/:token/confirm", h.confirm)
	e.POST("/sign/:token/reject", h.reject)
	e.POST("/sign/:token/identity", h.startIdentity)
	e.POST("/sign/:token/eimzo", h.signEIMZO)
}

type handler struct {
	svc         *signflow.Service
	serviceName string
	source      string
	limiter     *server.Limiter
	tmpl        *template.Template
	idpTmpl     *template.Template
	files, sdk  *static.Set
	eimzo       eimzoJSON // without the document
	eimzoCSP    string    // the local client's origins for connect-src
	log         zerolog.Logger
}

func newHandler(d Deps) *handler {
	if d.ServiceName == "" {
		panic("signpage: Deps.ServiceName is required (service.name)")
	}
	if d.Now == nil {
		d.Now = d.Service.Now
	}
	h := &handler{svc: d.Service, serviceName: d.ServiceName, source: strings.ToLower(d.ServiceName) + "-sdk",
		limiter: server.NewLimiter(d.OTPPerMinute, time.Minute, d.Now), log: d.Log}
	h.eimzo, h.eimzoCSP = eimzoConfig(d.EIMZO)
	h.tmpl = document.Page("page.html", static.Read(assets.Sign, "sign/page.html"), static.Read(assets.Sign, "sign/steps.html"))
	h.idpTmpl = template.Must(template.New("idp.html").Parse(string(static.Read(assets.Sign, "sign/idp.html"))))
	h.files = static.New(
		static.File{Name: "document.css", Body: document.CSS()},
		static.File{Name: "sign.css", Body: static.Read(assets.Sign, "sign/sign.css")},
		static.File{Name: "common.js", Body: assets.CommonJS},
		static.File{Name: "sign.js", Body: static.Read(assets.Sign, "sign/sign.js")},
		static.File{Name: "idp.js", Body: static.Read(assets.Sign, "sign/idp.js")},
	)
	// The SDK's URL has no version: integrators link it as it is.
	quoted, _ := json.Marshal(h.source)
	h.sdk = static.New(static.File{Name: "sdk.js", Body: bytes.ReplaceAll(assets.SDK, []byte("'__SOURCE__'"), quoted), Cache: "public, max-age=3600"})
	return h
}

// eimzoConfig fills in the defaults of the local client and returns what
// sign.js gets and the origins connect-src must allow.
func eimzoConfig(c EIMZOClient) (eimzoJSON, string) {
	if c.SecureURL == "" {
		c.SecureURL = DefaultSecureURL
	}
	if c.PlainURL == "" {
		c.PlainURL = DefaultPlainURL
	}
	keys := map[string]string{}
	for domain, key := range publicAPIKeys {
		keys[domain] = key
	}
	for domain, key := range c.APIKeys {
		if domain = strings.ToLower(strings.TrimSpace(domain)); domain != "" && key != "" {
			keys[domain] = strings.TrimSpace(key)
		}
	}
	domains := make([]string, 0, len(keys))
	for domain := range keys {
		domains = append(domains, domain)
	}
	sort.Strings(domains)
	out := eimzoJSON{SecureURL: c.SecureURL, PlainURL: c.PlainURL}
	for _, domain := range domains {
		out.APIKeys = append(out.APIKeys, domain, keys[domain])
	}
	var origins []string
	for _, raw := range []string{c.SecureURL, c.PlainURL} {
		if u, err := url.Parse(raw); err == nil && u.Host != "" {
			origins = append(origins, u.Scheme+"://"+u.Host)
		}
	}
	return out, strings.Join(origins, " ")
}

// pageHeaders: the page may be framed only by parentOrigin when the session
// names one; the first CSP header is exactly docs/decisions.md's, the second keeps
// the page to its own files, and to the local E-IMZO client when connect
// names its origins.
func pageHeaders(hd http.Header, parentOrigin, connect string) {
	ancestors := "*"
	if parentOrigin != "" {
		// Rebuilt from its parts; a session stored before origins were
		// checked may hold anything, and then no page may frame this one.
		ancestors = "'none'"
		if origin, ok := signflow.ParseOrigin(parentOrigin); ok {
			ancestors = origin
		}
	}
	if connect != "" {
		connect = " " + connect
	}
	hd.Set("Content-Security-Policy", "frame-ancestors "+ancestors)
	hd.Add("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "+
		"connect-src 'self'"+connect+"; base-uri 'none'; form-action 'none'")
	hd.Set("Cache-Control", "no-store")
	hd.Set("Referrer-Policy", "no-referrer")
	hd.Set("X-Content-Type-Options", "nosniff")
}
