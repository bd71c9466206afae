package verify

import (
	"bytes"
	"errors"
	"html/template"
	"io"
	"net/http"
	"strings"
	"time"

	"contracts/server"
	"contracts/server/pdf/pades"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// Lookup finds a sealed file's contract, for its current status; an
// ENOTFOUND error when there is none.
type Lookup func(id string) (*signflow.Contract, error)

// StoreLookup is Lookup on the service's store.
func StoreLookup(svc *signflow.Service) Lookup {
	return func(id string) (*signflow.Contract, error) {
		var c *signflow.Contract
		err := svc.Store().View(func(tx signflow.Tx) (err error) {
			c, err = tx.Contract(id)
			return err
		})
		return c, err
	}
}

// Answer is the JSON answer of POST /verify; the last four are null when
// unknown.
type Answer struct {
	Sealed     bool    `json:"sealed"`
	Intact     bool    `json:"intact"`
	ContractID *string `json:"contractId"`
	Number     *string `json:"number"`
	Version    *int64  `json:"version"`
	Status     *string `json:"status"`
}

// uploadView is the upload page: the form, and a verdict after a POST.
type uploadView struct {
	Lang, Fingerprint string
	L                 labels      // words shared with the contract page
	C                 checkLabels // words of this page
	Checked           bool        // a file was examined
	Error             string      // the upload could not be read
	Good, Partly      bool        // intact; sealed revision intact but followed by more
	Verdict           string
	Result            pades.Result
	Answer            Answer
	Status            string // the contract's current status, in words
	Current           int64  // the contract's current version, when newer than the file's
}

// form serves GET /verify: the upload form alone.
func form(fingerprint string) echo.HandlerFunc {
	return func(c echo.Context) error {
		lang := langOf(c)
		return renderUpload(c, http.StatusOK, uploadView{Lang: lang, L: text[lang], C: checkText[lang], Fingerprint: fingerprint})
	}
}

// upload serves POST /verify: a PDF in the multipart field "file" (at most
// server.MaxUpload bytes), checked by v; JSON when the client accepts it,
// otherwise the page.
func upload(v *pades.Verifier, lookup Lookup, fingerprint string) echo.HandlerFunc {
	return func(c echo.Context) error {
		lang := langOf(c)
		out := uploadView{Lang: lang, L: text[lang], C: checkText[lang], Fingerprint: fingerprint}
		asJSON := strings.Contains(c.Request().Header.Get(echo.HeaderAccept), echo.MIMEApplicationJSON)
		data, err := readFile(c)
		if err != nil {
			if asJSON {
				return err
			}
			out.Error = out.C.NoFile
			if signflow.ErrorCode(err) == signflow.ETOOLARGE {
				out.Error = out.C.TooLarge
			}
			return renderUpload(c, statusOf(err), out)
		}
		r := v.Verify(data)
		out.Checked, out.Result = true, r
		out.Answer = Answer{Sealed: r.Sealed, Intact: r.Intact}
		if k := r.Contract; k != nil {
			out.Answer.ContractID, out.Answer.Number, out.Answer.Version = &k.ID, &k.Number, &k.Version
			current, err := lookup(k.ID)
			switch {
			case err == nil && !current.Deleted:
				out.Answer.Status = &current.Status
				out.Status = out.L.state(current.Status)
				if current.Version > k.Version {
					out.Current = current.Version
				}
			case err != nil && signflow.ErrorCode(err) != signflow.ENOTFOUND:
				return err
			}
		}
		if asJSON {
			return server.JSON(c, http.StatusOK, out.Answer)
		}
		out.Good, out.Partly = r.Intact, r.Reason == pades.Appended
		out.Verdict = out.C.Verdicts[r.Reason]
		return renderUpload(c, http.StatusOK, out)
	}
}

// readFile reads the "file" part of a multipart body.
func readFile(c echo.Context) ([]byte, error) {
	tooLarge := signflow.Errorf(signflow.ETOOLARGE, "The file is larger than 10 MiB.")
	mr, err := c.Request().MultipartReader()
	if err != nil {
		return nil, signflow.Errorf(signflow.EINVALID, "Send the PDF as multipart/form-data in the field file.")
	}
	for {
		part, err := mr.NextPart()
		var mbe *http.MaxBytesError
		switch {
		case errors.As(err, &mbe):
			return nil, tooLarge
		case errors.Is(err, io.EOF):
			return nil, signflow.Errorf(signflow.EINVALID, "No file: send the PDF in the multipart field file.")
		case err != nil:
			return nil, signflow.Errorf(signflow.EINVALID, "The multipart body could not be read.")
		}
		if part.FormName() != "file" {
			continue
		}
		data, err := io.ReadAll(io.LimitReader(part, server.MaxUpload+1))
		switch {
		case errors.As(err, &mbe) || len(data) > server.MaxUpload:
			return nil, tooLarge
		case err != nil:
			return nil, signflow.Errorf(signflow.EINVALID, "The file could not be read.")
		}
		return data, nil
	}
}

func statusOf(err error) int {
	if signflow.ErrorCode(err) == signflow.ETOOLARGE {
		return http.StatusRequestEntityTooLarge
	}
	return http.StatusBadRequest
}

func langOf(c echo.Context) string {
	if lang := c.QueryParam("lang"); lang == "ru" || lang == "en" {
		return lang
	}
	return "uz"
}

func renderUpload(c echo.Context, code int, v uploadView) error {
	var buf bytes.Buffer
	if err := uploadTmpl.Execute(&buf, v); err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'")
	return c.HTMLBlob(code, buf.Bytes())
}

var uploadTmpl = template.Must(template.New("upload").Funcs(template.FuncMap{
	"when": func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05 UTC") },
}).Parse(`<!doctype html>
<html lang="{{.Lang}}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>{{.C.Heading}}</title>
<style>` + pageCSS + `
.verdict{border-radius:10px;padding:14px 16px;margin:16px 0;font-weight:600;background:#fdecea;color:#8a1c12}
.verdict.good{background:#e7f6ec;color:#14632f}.verdict.partly{background:#fff4e0;color:#7a4b00}
form{margin-top:20px;display:flex;flex-wrap:wrap;gap:12px;align-items:center}
button{font:inherit;padding:8px 18px;border-radius:8px;border:0;background:#1a4fa0;color:#fff;cursor:pointer}
</style></head><body><main>
<h1>{{.C.Heading}}</h1><p class="muted">{{.C.Intro}}</p>
{{if .Error}}<p class="verdict" role="alert">{{.Error}}</p>{{end}}
{{if .Checked}}<p class="verdict{{if .Good}} good{{else if .Partly}} partly{{end}}" role="status">{{.Verdict}}</p>
<dl><dt>{{.C.SealedBy}}</dt><dd>{{if .Answer.Sealed}}{{.C.Yes}}{{else}}{{.C.No}}{{end}}</dd>
<dt>{{.C.Unchanged}}</dt><dd>{{if .Answer.Intact}}{{.C.Yes}}{{else}}{{.C.No}}{{end}}</dd>
{{with .Answer.Number}}<dt>{{$.L.Number}}</dt><dd>{{.}}</dd>{{end}}
{{with .Answer.Version}}<dt>{{$.C.Version}}</dt><dd>{{.}}{{if $.Current}} <span class="muted">({{$.C.NewerVersion}}: {{$.Current}})</span>{{end}}</dd>{{end}}
{{with .Status}}<dt>{{$.L.Status}}</dt><dd><span class="badge">{{.}}</span></dd>{{end}}
{{if and .Answer.Sealed (not .Result.SignedAt.IsZero)}}<dt>{{.C.SealTime}}</dt><dd>{{when .Result.SignedAt}}</dd>{{end}}
{{if not .Result.StampedAt.IsZero}}<dt>{{.C.Timestamp}}</dt><dd>{{when .Result.StampedAt}}</dd>{{end}}
</dl>{{end}}
<form method="post" action="/verify?lang={{.Lang}}" enctype="multipart/form-data">
<label>{{.C.File}} <input type="file" name="file" accept="application/pdf" required></label>
<button type="submit">{{.C.Check}}</button></form>
{{if .Fingerprint}}<p class="muted">{{.L.Seal}}:<br><span class="hash">{{.Fingerprint}}</span></p>{{end}}
</main></body></html>`))
