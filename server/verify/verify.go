// Package verify serves the public page a contract's QR code leads to:
// number, status, party names with masked numbers and the document hash,
// and nothing more personal; and the page that checks an uploaded PDF's
// seal.
package verify

import (
	"bytes"
	"html/template"
	"net/http"
	"time"

	"contracts/server"
	"contracts/server/document"
	"contracts/server/i18n"
	"contracts/server/pdf/pades"
	"contracts/server/static"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// Deps is what the verify pages need.
type Deps struct {
	Service *signflow.Service
	// SealFingerprint is the seal certificate's SHA-256, shown on the pages.
	SealFingerprint string
	// Verifier checks uploaded PDFs; nil leaves GET and POST /verify out.
	Verifier *pades.Verifier
	// Lookup finds an uploaded file's contract; nil: StoreLookup(Service).
	Lookup Lookup
	// Limiter bounds the checks per client IP (each hashes up to 10 MiB);
	// nil: no bound.
	Limiter *server.Limiter
	// Concurrent bounds the uploads read and checked at once
	// (ratelimit.verifyConcurrent); more wait up to ConcurrentWait, then
	// get 503 with Retry-After. 0: no bound.
	Concurrent     int
	ConcurrentWait time.Duration
}

// DefaultConcurrentWait is how long an upload waits for a place by default.
const DefaultConcurrentWait = 2 * time.Second

// Register mounts GET /verify/:id and the pages' files on the embedded
// listener and, with a Verifier, the upload form GET /verify and its check
// POST /verify.
func Register(e *echo.Echo, d Deps) {
	e.GET("/verify/assets/:name", files.Serve)
	e.GET("/verify/:id", func(c echo.Context) error { return page(c, d.Service, d.SealFingerprint) })
	if d.Verifier != nil {
		lookup := d.Lookup
		if lookup == nil {
			lookup = StoreLookup(d.Service)
		}
		e.GET("/verify", form(d.SealFingerprint))
		if d.ConcurrentWait <= 0 {
			d.ConcurrentWait = DefaultConcurrentWait
		}
		e.POST("/verify", upload(d.Verifier, lookup, d.SealFingerprint, d.Limiter, newGate(d.Concurrent, d.ConcurrentWait)))
	}
}

// view is the contract page: the document's head and parties, masked.
type view struct {
	Lang, Title, Fingerprint, Version string
	T                                 i18n.Dict
	Langs                             []i18n.LangLink
	Doc                               *document.Doc // nil: no contract matches the link
}

func page(c echo.Context, svc *signflow.Service, fingerprint string) error {
	lang := langOf(c)
	t := i18n.Verify.For(lang)
	out := view{Lang: lang, Title: t["verifyTitle"], T: t, Version: files.Version, Fingerprint: fingerprint, Langs: i18n.LangLinks(c.Request().URL.Path, c.QueryParams(), lang)}
	v, err := svc.Verify(c.Param("id"), c.QueryParam("h"))
	if signflow.ErrorCode(err) == signflow.ENOTFOUND {
		return render(c, http.StatusNotFound, tmpl, out, "")
	} else if err != nil {
		return err
	}
	// The parties as the contract's version recorded them, as its PDF shows them.
	out.Doc = document.New(v.AsRecorded(), nil, lang, document.Options{Masked: true})
	return render(c, http.StatusOK, tmpl, out, "")
}

// render writes a page; csp adds to the policy both pages share.
func render(c echo.Context, code int, t *template.Template, data any, csp string) error {
	var buf bytes.Buffer
	if err := t.Execute(&buf, data); err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'"+csp)
	return c.HTMLBlob(code, buf.Bytes())
}

// langOf is the page's language: ?lang= (the PDF's QR carries it), else
// the browser's Accept-Language, else Uzbek.
func langOf(c echo.Context) string {
	return i18n.Pick(c.QueryParam("lang"), "", c.Request().Header.Get("Accept-Language"))
}

// files are the pages' style sheets.
var files = static.New(
	static.File{Name: "document.css", Body: document.CSS()},
	static.File{Name: "verify.css", Body: []byte(pageCSS)},
)

// pageCSS is what both verify pages add to document.css.
const pageCSS = `.vpage { max-width: 680px; padding-top: 28px; }
.vhead { display: flex; align-items: center; gap: 10px; color: var(--muted); font-size: 14px; font-weight: 650; }
.vmark { display: grid; place-items: center; width: 30px; height: 30px; border-radius: 9px; background: var(--accent); color: #fff; flex: none; }
.vhead h1, .vhead p { margin: 0; font-size: 14px; font-weight: 650; letter-spacing: 0; color: var(--muted); }
.lead { color: var(--muted); margin-top: 4px; }
.none { text-align: center; padding-block: 36px; }
.none h2 { font-size: 19px; text-transform: none; letter-spacing: 0; color: var(--ink); margin: 0; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 8px 16px; margin: 20px 0 0; }
dt { color: var(--muted); }
dd { margin: 0; font-weight: 550; }
.hash { font: 12.5px/1.5 ui-monospace, "SFMono-Regular", Menlo, "DejaVu Sans Mono", monospace; word-break: break-all; }
.verdict { border-radius: 12px; padding: 14px 16px; margin: 18px 0 0; font-weight: 600; background: var(--danger-soft); color: var(--danger); }
.verdict.good { background: var(--ok-soft); color: var(--ok); }
.verdict.partly { background: var(--warn-soft); color: var(--warn); }
form { margin-top: 20px; display: flex; flex-wrap: wrap; gap: 12px; align-items: center; }
form label { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; font-weight: 600; }
button { font: inherit; font-weight: 650; padding: 10px 20px; border-radius: 11px; border: 0; background: var(--accent); color: #fff; cursor: pointer; }
button:hover { background: var(--accent-hover); }
.seal { margin-top: 18px; font-size: 13px; color: var(--muted); }
.vlangs { margin-left: auto; display: flex; gap: 4px; }
.vlangs a { padding: 2px 8px; border-radius: 8px; color: var(--muted); text-decoration: none; text-transform: uppercase; font-size: 13px; }
.vlangs a[aria-current] { background: var(--accent); color: #fff; }
@media (max-width: 560px) { .vpage { padding-top: 8px; } dl { grid-template-columns: 1fr; gap: 2px; } dd { margin-bottom: 8px; } }
`

// head is the top of both pages: the service's mark and the page's name.
const head = `<!doctype html>
<html lang="{{.Lang}}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>{{.Title}}</title>
<link rel="stylesheet" href="/verify/assets/document.css?v={{.Version}}">
<link rel="stylesheet" href="/verify/assets/verify.css?v={{.Version}}">
</head><body><main class="page vpage">
<div class="vhead"><span class="vmark" aria-hidden="true"><svg viewBox="0 0 24 24" width="16" height="16"><path fill="none" stroke="currentColor" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round" d="M5 12.5l4.5 4.5L19 7.5"/></svg></span>`

// langNav is the language switcher both pages end their head with.
const langNav = `<nav class="vlangs" aria-label="{{.T.verifyLanguage}}">
{{- range .Langs}}<a href="{{.URL}}" lang="{{.Code}}" title="{{.Name}}"{{if .Current}} aria-current="true"{{end}}>{{.Code}}</a>{{end -}}
</nav></div>`

var tmpl = document.Page("verify", []byte(head+`<p>{{.T.verifyTitle}}</p>`+langNav+`
{{- with .Doc}}
<article class="card doc" aria-labelledby="doc-title">
{{template "doc-head" .}}
{{template "doc-parties" .}}
<footer class="doc-foot"><span>{{.T.hash}}</span> <code>{{.Hash}}</code></footer>
{{- if $.Fingerprint}}
<p class="doc-foot"><span>{{$.T.seal}}</span> <code>{{$.Fingerprint}}</code></p>
{{- end}}
</article>
{{- else}}
<section class="card none"><h2>{{.T.verifyNotFound}}</h2></section>
{{- end}}
</main></body></html>`))
