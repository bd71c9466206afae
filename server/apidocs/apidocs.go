// Package apidocs serves an interface's OpenAPI description at /api-docs
// (JSON) and /api-docs.yaml, and a human-readable reference at /docs,
// rendered in the browser from that description by the pinned Redoc bundle
// embedded in the binary.
package apidocs

import (
	"bytes"
	"html/template"
	"net/http"

	"contracts/assets"
	"contracts/server"

	"github.com/labstack/echo/v4"
)

// Deps is what the documentation routes of one listener need.
type Deps struct {
	// Document is the interface's OpenAPI description in YAML:
	// assets.OpenAPIEmbedded or assets.OpenAPIKey.
	Document []byte
	// BaseURL is the listener's public base URL (embedded.baseURL or
	// key.baseURL); it becomes the document's only server.
	BaseURL string
}

// Paths of the routes, relative to the listener's root.
const (
	PathJSON   = "/api-docs"
	PathYAML   = "/api-docs.yaml"
	PathPage   = "/docs"
	PathScript = "/docs/redoc-" + assets.RedocVersion + ".js"
)

// MIMEYAML is the content type of /api-docs.yaml (RFC 9512).
const MIMEYAML = "application/yaml; charset=utf-8"

// PageCSP is the Content-Security-Policy of the /docs page: the page runs
// only the Redoc script served beside it (and the search worker Redoc
// builds from it as a blob), fetches only this origin, and cannot be framed.
// Redoc styles its elements at run time, hence the inline styles.
const PageCSP = "default-src 'none'; script-src 'self'; worker-src blob:; connect-src 'self'; " +
	"style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// Register mounts GET /api-docs, /api-docs.yaml, /docs and the Redoc script
// on e. It panics when the document is not valid YAML, which the package's
// tests rule out for the embedded documents.
func Register(e *echo.Echo, d Deps) {
	doc, err := prepare(d.Document, d.BaseURL)
	if err != nil {
		panic("apidocs: " + err.Error())
	}
	var page bytes.Buffer
	if err := pageTmpl.Execute(&page, pageView{Title: doc.title, Spec: PathJSON[1:], Script: PathScript[1:]}); err != nil {
		panic("apidocs: " + err.Error())
	}
	e.GET(PathJSON, func(c echo.Context) error { return serveDocument(c, server.MIMEJSON, doc.json) })
	e.GET(PathYAML, func(c echo.Context) error { return serveDocument(c, MIMEYAML, doc.yaml) })
	e.GET(PathPage, func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("Content-Security-Policy", PageCSP)
		h.Set("Referrer-Policy", "no-referrer")
		h.Set(echo.HeaderXContentTypeOptions, "nosniff")
		h.Set(echo.HeaderCacheControl, "no-cache")
		return c.HTMLBlob(http.StatusOK, page.Bytes())
	})
	e.GET(PathScript, func(c echo.Context) error {
		h := c.Response().Header()
		h.Set(echo.HeaderXContentTypeOptions, "nosniff")
		// The path carries the version, so the file never changes under it.
		h.Set(echo.HeaderCacheControl, "public, max-age=31536000, immutable")
		return c.Blob(http.StatusOK, "text/javascript; charset=utf-8", assets.Redoc)
	})
}

// serveDocument answers a description: public, readable from any origin
// (so that editors and generators can load it), revalidated on every use.
func serveDocument(c echo.Context, contentType string, body []byte) error {
	h := c.Response().Header()
	h.Set(echo.HeaderAccessControlAllowOrigin, "*")
	h.Set(echo.HeaderXContentTypeOptions, "nosniff")
	h.Set(echo.HeaderCacheControl, "no-cache")
	return c.Blob(http.StatusOK, contentType, body)
}

type pageView struct{ Title, Spec, Script string }

// The page names the description and the script relatively, so that it
// also works behind a proxy that serves the listener under a path prefix.
var pageTmpl = template.Must(template.New("docs").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>{{.Title}} — API reference</title>
<link rel="icon" href="data:,">
</head><body style="margin:0">
<noscript>This reference needs JavaScript. The description itself is at <a href="{{.Spec}}">{{.Spec}}</a>.</noscript>
<redoc spec-url="{{.Spec}}" path-in-middle-panel="true" required-props-first="true" sort-props-alphabetically="false"></redoc>
<script src="{{.Script}}"></script>
</body></html>
`))
