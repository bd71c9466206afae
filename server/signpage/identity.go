package signpage

import (
	"bytes"
	"errors"
	"net/http"
	"strings"

	"contracts/server"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// errCancelled is the provider sending the popup back with an OAuth error
// (the person cancelled or was refused) instead of a code.
var errCancelled = &signflow.Error{Code: signflow.EINVALID,
	Message: "The identity check was cancelled or refused at the identity provider; nothing was signed."}

// idpMessage is what the callback page posts to the signing page that
// opened the popup (type IDENTITY, never passed on to the integrator).
type idpMessage struct {
	Source    string      `json:"source"`
	Type      string      `json:"type"`
	OK        bool        `json:"ok"`
	SessionID string      `json:"sessionId,omitempty"`
	Result    *resultJSON `json:"result,omitempty"`
	Status    int         `json:"status,omitempty"`
	Reason    string      `json:"reason,omitempty"`
	Message   string      `json:"message,omitempty"`
	Code      string      `json:"code,omitempty"` // MyID's reason_code
}

// reasonCode is MyID's reason_code, digits only: it is shown to the signer.
func reasonCode(s string) string {
	if len(s) == 0 || len(s) > 6 || strings.Trim(s, "0123456789") != "" {
		return "?"
	}
	return s
}

// idpPage is what idp.html renders.
type idpPage struct {
	Lang, Title, ServiceName, AssetVersion string
	T                                      dict
	OK                                     bool
	Heading, Text, Hint                    string
	Message                                idpMessage
}

// idpTexts are the callback page's explanations of each refusal.
var idpTexts = map[string]string{
	"identity-mismatch":  "err.identityMismatch",
	"identity-state":     "err.identityState",
	"identity-cancelled": "err.identityCancelled",
	"identity-refused":   "err.identityRefused",
	"identity-reason":    "err.identityReason",
	"unavailable":        "err.identityUnavailable",
	"session-expired":    "expiredText",
	"session-closed":     "closedText",
	"session-not-found":  "notFoundText",
}

// identityCallback serves GET /sign/idp/callback, where the MY_ID or
// ABLE_ID provider sends the popup back with code and state. It finishes
// the check (the state is used up, the code exchanged server-side, the
// number compared with the signer's) and answers a small page that tells
// the signing page that opened the popup, by postMessage to this same
// origin, and closes. Opened without an opener, the page just says what
// happened.
func (h *handler) identityCallback(c echo.Context) error {
	q := c.QueryParams()
	lang := requestLang(c)
	msg := idpMessage{Source: h.source, Type: "IDENTITY"}
	var err error
	code := q.Get("code")
	if code == "" {
		code = q.Get("auth_code") // MyID's web check
	}
	switch {
	case q.Get("reason_code") != "":
		// MyID's web check did not confirm the person; it says why.
		err, msg.Code = errCancelled, reasonCode(q.Get("reason_code"))
	case q.Get("error") != "":
		// Nothing to exchange; the state stays until a new check replaces it.
		err = errCancelled
	default:
		var res *signflow.SessionResult
		res, err = h.svc.FinishIdentity(c.Request().Context(), q.Get("state"), code, server.Actor(c))
		if err == nil {
			body := resultBody(res)
			msg.OK, msg.SessionID, msg.Result, lang = true, res.Session.ID, &body, res.Session.Lang
		}
	}
	t := tr(lang)
	d := &idpPage{Lang: lang, T: t, ServiceName: h.serviceName, AssetVersion: h.files.Version, OK: msg.OK, Title: t["idpTitle"]}
	status := http.StatusOK
	if msg.OK {
		d.Heading, d.Text = t["signedTitle"], t["idpSignedText"]
		if msg.Result.Status == signflow.SessionRejected {
			d.Heading, d.Text = t["rejectedTitle"], t["reject.idpDoneText"]
		}
	} else {
		status = server.HTTPStatus(err)
		if status >= 500 && signflow.ErrorCode(err) == signflow.EINTERNAL {
			h.log.Error().Err(err).Str("request_id", server.RequestID(c)).Msg("identity callback failed")
		}
		msg.Status, msg.Reason, msg.Message = status, server.ReasonOf(err), signflow.ErrorMessage(err)
		switch {
		case msg.Code != "":
			msg.Reason = "identity-reason"
		case errors.Is(err, errCancelled):
			msg.Reason = "identity-cancelled"
		case msg.Reason == "" && status == http.StatusBadRequest:
			msg.Reason = "identity-refused"
		}
		d.Heading, d.Text, d.Hint = t["idpFailedTitle"], t.Or(idpTexts[msg.Reason], t["err.generic"]), t["idpFailedHint"]
		if msg.Code != "" {
			d.Text = t.F("err.identityReason", "code", msg.Code)
		}
	}
	d.Message = msg
	var buf bytes.Buffer
	if err := h.idpTmpl.Execute(&buf, d); err != nil {
		return err
	}
	hd := c.Response().Header()
	hd.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "+
		"base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
	hd.Set("Cache-Control", "no-store")
	hd.Set("Referrer-Policy", "no-referrer") // the URL holds the code and the state
	hd.Set("X-Content-Type-Options", "nosniff")
	if msg.Reason != "" {
		hd.Set(server.ReasonHeader, msg.Reason)
	}
	return c.HTMLBlob(status, buf.Bytes())
}
