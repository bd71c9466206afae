// Package verify serves the public page a contract's QR code leads to:
// number, status, party names with masked numbers and the document hash,
// and nothing more personal.
package verify

import (
	"bytes"
	"html/template"
	"net/http"

	"contracts/server/pdf/pades"
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
}

// Register mounts GET /verify/:id on the embedded listener and, with a
// Verifier, the upload form GET /verify and its check POST /verify.
func Register(e *echo.Echo, d Deps) {
	e.GET("/verify/:id", func(c echo.Context) error { return page(c, d.Service, d.SealFingerprint) })
	if d.Verifier != nil {
		lookup := d.Lookup
		if lookup == nil {
			lookup = StoreLookup(d.Service)
		}
		e.GET("/verify", form(d.SealFingerprint))
		e.POST("/verify", upload(d.Verifier, lookup, d.SealFingerprint))
	}
}

type view struct {
	Lang, Title, Number, Status, Hash, Fingerprint string
	L                                              labels
	Parties                                        []partyView
}

type partyView struct{ Role, Name, IN, Status string }

func page(c echo.Context, svc *signflow.Service, fingerprint string) error {
	lang := c.QueryParam("lang")
	if lang != "ru" && lang != "en" {
		lang = "uz"
	}
	l := text[lang]
	v, err := svc.Verify(c.Param("id"), c.QueryParam("h"))
	if signflow.ErrorCode(err) == signflow.ENOTFOUND {
		return render(c, http.StatusNotFound, view{Lang: lang, L: l})
	} else if err != nil {
		return err
	}
	out := view{Lang: lang, L: l, Title: v.Template.Name.In(lang), Number: v.Number, Status: l.state(v.Status), Hash: v.Hash, Fingerprint: fingerprint}
	out.Parties = []partyView{
		{Role: v.Template.SellerName.In(lang), Name: signflow.PartyName(v.Seller, signflow.MaskIN(v.SellerIN)), IN: signflow.MaskIN(v.SellerIN), Status: l.state(v.SellerStatus)},
		{Role: v.Template.BuyerName.In(lang), Name: signflow.PartyName(v.Buyer, signflow.MaskIN(v.BuyerIN)), IN: signflow.MaskIN(v.BuyerIN), Status: l.state(v.BuyerStatus)},
	}
	return render(c, http.StatusOK, out)
}

func render(c echo.Context, code int, v view) error {
	var buf bytes.Buffer
	if err := tmpl.Execute(&buf, v); err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	return c.HTMLBlob(code, buf.Bytes())
}

// pageCSS is the look both verify pages share.
const pageCSS = `
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f6f8;color:#1d2733;margin:0;padding:24px}
main{max-width:640px;margin:0 auto;background:#fff;border-radius:12px;box-shadow:0 1px 4px rgba(0,0,0,.08);padding:28px}
h1{font-size:1.3rem;margin:0 0 4px}.muted{color:#5b6775}
dl{display:grid;grid-template-columns:max-content 1fr;gap:8px 16px;margin:20px 0}dt{color:#5b6775}dd{margin:0}
.hash{font-family:ui-monospace,Menlo,monospace;word-break:break-all;font-size:.85rem}
table{width:100%;border-collapse:collapse;margin-top:8px}td,th{text-align:left;padding:8px;border-bottom:1px solid #e6e9ed}
.badge{display:inline-block;padding:2px 10px;border-radius:999px;background:#e8f1ff;color:#1a4fa0;font-weight:600}
`

var tmpl = template.Must(template.New("verify").Parse(`<!doctype html>
<html lang="{{.Lang}}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>{{.L.Heading}}</title>
<style>` + pageCSS + `</style></head><body><main>
{{if .Number}}
<h1>{{.L.Heading}}</h1><p class="muted">{{.Title}}</p>
<dl><dt>{{.L.Number}}</dt><dd>{{.Number}}</dd><dt>{{.L.Status}}</dt><dd><span class="badge">{{.Status}}</span></dd>
<dt>SHA-256</dt><dd class="hash">{{.Hash}}</dd>
{{if .Fingerprint}}<dt>{{.L.Seal}}</dt><dd class="hash">{{.Fingerprint}}</dd>{{end}}</dl>
<table><thead><tr><th>{{.L.Party}}</th><th>{{.L.Name}}</th><th>{{.L.IN}}</th><th>{{.L.Status}}</th></tr></thead><tbody>
{{range .Parties}}<tr><td>{{.Role}}</td><td>{{.Name}}</td><td>{{.IN}}</td><td>{{.Status}}</td></tr>{{end}}
</tbody></table>
{{else}}<h1>{{.L.NotFound}}</h1>{{end}}
</main></body></html>`))
