package verify

import (
	"errors"
	"io"
	"net/http"
	"strings"

	"contracts/server"
	"contracts/server/document"
	"contracts/server/i18n"
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
	Lang, Title, Fingerprint, Version string
	T                                 i18n.Dict
	Langs                             []i18n.LangLink
	Checked                           bool   // a file was examined
	Error                             string // the upload could not be read
	Good, Partly                      bool   // intact; sealed revision intact but followed by more
	Verdict                           string
	Result                            pades.Result
	Answer                            Answer
	Status                            string // the contract's current status, in words
	Current                           int64  // the contract's current version, when newer than the file's
	SealTime, StampTime               string // when the file was sealed and time-stamped, if it says
}

func newUploadView(c echo.Context, fingerprint string) uploadView {
	lang := langOf(c)
	t := i18n.Verify.For(lang)
	return uploadView{Lang: lang, Title: t["checkTitle"], T: t, Fingerprint: fingerprint, Version: files.Version, Langs: i18n.LangLinks(c.Request().URL.Path, c.QueryParams(), lang)}
}

// form serves GET /verify: the upload form alone.
func form(fingerprint string) echo.HandlerFunc {
	return func(c echo.Context) error {
		return renderUpload(c, http.StatusOK, newUploadView(c, fingerprint))
	}
}

// upload serves POST /verify: a PDF in the multipart field "file" (at most
// server.MaxUpload bytes), checked by v; JSON when the client accepts it,
// otherwise the page. A client IP over limit's bound is refused before
// its file is read, and so is one that finds no place at the gate.
func upload(v *pades.Verifier, lookup Lookup, fingerprint string, limit *server.Limiter, g *gate) echo.HandlerFunc {
	return func(c echo.Context) error {
		out := newUploadView(c, fingerprint)
		asJSON := strings.Contains(c.Request().Header.Get(echo.HeaderAccept), echo.MIMEApplicationJSON)
		if err := limit.Allow(c.RealIP()); err != nil {
			if asJSON {
				return err
			}
			server.SetRetryAfter(c, err)
			out.Error = out.T["tooMany"]
			return renderUpload(c, http.StatusTooManyRequests, out)
		}
		if err := g.enter(c.Request().Context()); err != nil {
			if asJSON {
				return err
			}
			server.SetRetryAfter(c, err)
			out.Error = out.T["limits.busy"]
			return renderUpload(c, http.StatusServiceUnavailable, out)
		}
		defer g.leave()
		data, err := readFile(c)
		if err != nil {
			if asJSON {
				return err
			}
			out.Error = out.T["noFile"]
			if signflow.ErrorCode(err) == signflow.ETOOLARGE {
				out.Error = out.T["tooLarge"]
			}
			return renderUpload(c, statusOf(err), out)
		}
		r := v.Verify(data)
		out.Checked, out.Result = true, r
		if r.Sealed && !r.SignedAt.IsZero() {
			out.SealTime = document.Time(r.SignedAt)
		}
		if !r.StampedAt.IsZero() {
			out.StampTime = document.Time(r.StampedAt)
		}
		out.Answer = Answer{Sealed: r.Sealed, Intact: r.Intact}
		if k := r.Contract; k != nil {
			out.Answer.ContractID, out.Answer.Number, out.Answer.Version = &k.ID, &k.Number, &k.Version
			current, err := lookup(k.ID)
			switch {
			case err == nil && !current.Deleted:
				out.Answer.Status = &current.Status
				out.Status = out.T.Or("status."+current.Status, current.Status)
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
		out.Verdict = out.T[verdictKey(r.Reason)]
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

// verdictKey is the strings key of what a result means, by its reason.
func verdictKey(r pades.Reason) string {
	if r == "" {
		return "verdict.INTACT"
	}
	return "verdict." + string(r)
}

func renderUpload(c echo.Context, code int, v uploadView) error {
	return render(c, code, uploadTmpl, v, "; form-action 'self'; frame-ancestors 'none'")
}

var uploadTmpl = document.Page("upload", []byte(head+`<h1>{{.T.checkTitle}}</h1>`+langNav+`
<section class="card">
<p class="lead">{{.T.checkIntro}}</p>
{{- if .Error}}<p class="verdict" role="alert">{{.Error}}</p>{{end}}
{{- if .Checked}}<p class="verdict{{if .Good}} good{{else if .Partly}} partly{{end}}" role="status">{{.Verdict}}</p>
<dl><dt>{{.T.sealedBy}}</dt><dd>{{if .Answer.Sealed}}{{.T.yes}}{{else}}{{.T.no}}{{end}}</dd>
<dt>{{.T.unchanged}}</dt><dd>{{if .Answer.Intact}}{{.T.yes}}{{else}}{{.T.no}}{{end}}</dd>
{{with .Answer.Number}}<dt>{{$.T.number}}</dt><dd>{{.}}</dd>{{end}}
{{with .Answer.Version}}<dt>{{$.T.version}}</dt><dd>{{.}}{{if $.Current}} <span class="muted">({{$.T.newerVersion}}: {{$.Current}})</span>{{end}}</dd>{{end}}
{{with .Status}}<dt>{{$.T.status}}</dt><dd>{{.}}</dd>{{end}}
{{with .SealTime}}<dt>{{$.T.sealTime}}</dt><dd>{{.}}</dd>{{end}}
{{with .StampTime}}<dt>{{$.T.timestamp}}</dt><dd>{{.}}</dd>{{end}}
</dl>{{end}}
<form method="post" action="/verify?lang={{.Lang}}" enctype="multipart/form-data">
<label>{{.T.checkFile}} <input type="file" name="file" accept="application/pdf" required></label>
<button type="submit">{{.T.checkButton}}</button></form>
{{- if .Fingerprint}}<p class="seal">{{.T.seal}}:<br><span class="hash">{{.Fingerprint}}</span></p>{{end}}
</section>
</main></body></html>`))
