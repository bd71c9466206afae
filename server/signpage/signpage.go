// Package signpage serves, on the embedded listener, the signing page a
// customer sees in the integrator's iframe (GET /sign/<token>), the page's
// small JSON API, its static files, and the integrator SDK (GET /sdk.js).
package signpage

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"html/template"
	"io/fs"
	"net/http"
	"strings"
	"time"

	"contracts/assets"
	"contracts/server"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// Deps is what the signing page needs.
type Deps struct {
	// Service carries out the signing.
	Service *signflow.Service
	// ServiceName names the service; lower-cased with "-sdk" appended it is
	// the source of every iframe message. Default "Contracts".
	ServiceName string
	// OTPPerMinute limits SMS-code checks and sends per client IP; 0 means no limit.
	OTPPerMinute int
	// Now is the clock of the rate limiter; default the service's clock.
	Now func() time.Time
}

// Register mounts the signing page, its API, its files and /sdk.js on e.
func Register(e *echo.Echo, d Deps) {
	h := newHandler(d)
	e.GET("/sdk.js", h.sdk.serve)
	e.GET("/sign/assets/:name", h.asset)
	e.GET("/sign/:token", h.page)
	e.POST("/sign/:token/code", h.sendCode)
	e.POST("/sign/:token/confirm", h.confirm)
	e.POST("/sign/:token/reject", h.reject)
}

type handler struct {
	svc         *signflow.Service
	serviceName string
	source      string
	limiter     *server.Limiter
	tmpl        *template.Template
	files       map[string]*file
	sdk         *file
	version     string
}

func newHandler(d Deps) *handler {
	if d.ServiceName == "" {
		d.ServiceName = "Contracts"
	}
	if d.Now == nil {
		d.Now = d.Service.Now
	}
	h := &handler{svc: d.Service, serviceName: d.ServiceName, source: strings.ToLower(d.ServiceName) + "-sdk",
		limiter: server.NewLimiter(d.OTPPerMinute, time.Minute, d.Now), files: map[string]*file{}}
	page, err := fs.ReadFile(assets.Sign, "sign/page.html")
	if err != nil {
		panic(err) // embedded at build time
	}
	h.tmpl = template.Must(template.New("page").Parse(string(page)))
	sum := sha256.New()
	for name, ctype := range map[string]string{"sign.css": "text/css; charset=utf-8", "sign.js": "text/javascript; charset=utf-8"} {
		body, err := fs.ReadFile(assets.Sign, "sign/"+name)
		if err != nil {
			panic(err)
		}
		h.files[name] = newFile(body, ctype, "public, max-age=86400")
		sum.Write(body)
	}
	h.version = hex.EncodeToString(sum.Sum(nil))[:12]
	quoted, _ := json.Marshal(h.source)
	h.sdk = newFile(bytes.ReplaceAll(assets.SDK, []byte("'__SOURCE__'"), quoted), "text/javascript; charset=utf-8", "public, max-age=3600")
	return h
}

// file is a static response with its validator.
type file struct {
	body         []byte
	ctype, cache string
	etag         string
}

func newFile(body []byte, ctype, cache string) *file {
	sum := sha256.Sum256(body)
	return &file{body: body, ctype: ctype, cache: cache, etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
}

func (f *file) serve(c echo.Context) error {
	hd := c.Response().Header()
	hd.Set("Cache-Control", f.cache)
	hd.Set("ETag", f.etag)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Cross-Origin-Resource-Policy", "cross-origin")
	if c.Request().Header.Get("If-None-Match") == f.etag {
		return c.NoContent(http.StatusNotModified)
	}
	return c.Blob(http.StatusOK, f.ctype, f.body)
}

func (h *handler) asset(c echo.Context) error {
	f := h.files[c.Param("name")]
	if f == nil {
		return echo.ErrNotFound
	}
	return f.serve(c)
}

// pageHeaders: the page may be framed only by parentOrigin when the session
// names one; the first CSP header is exactly DESIGN §7's, the second keeps
// the page to its own files.
func pageHeaders(hd http.Header, parentOrigin string) {
	ancestors := "*"
	if parentOrigin != "" {
		ancestors = parentOrigin
	}
	hd.Set("Content-Security-Policy", "frame-ancestors "+ancestors)
	hd.Add("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "+
		"connect-src 'self'; base-uri 'none'; form-action 'none'")
	hd.Set("Cache-Control", "no-store")
	hd.Set("Referrer-Policy", "no-referrer")
	hd.Set("X-Content-Type-Options", "nosniff")
}

// actor is the customer as the audit trail records them.
func actor(c echo.Context) signflow.Actor {
	ua := c.Request().UserAgent()
	if len(ua) > 512 {
		ua = ua[:512]
	}
	return signflow.Actor{IP: c.RealIP(), UserAgent: ua}
}
