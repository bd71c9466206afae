package signpage

import (
	"bytes"
	"errors"
	"net/http"

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
	if q.Get("error") != "" {
		// Nothing to exchange; the state stays until a new check replaces it.
		err = errCancelled
	} else {
		var res *signflow.SessionResult
		res, err = h.svc.FinishIdentity(c.Request().Context(), q.Get("state"), q.Get("code"), server.Actor(c))
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
	} else {
		status = server.HTTPStatus(err)
		if status >= 500 && signflow.ErrorCode(err) == signflow.EINTERNAL {
			h.log.Error().Err(err).Str("request_id", server.RequestID(c)).Msg("identity callback failed")
		}
		msg.Status, msg.Reason, msg.Message = status, server.ReasonOf(err), signflow.ErrorMessage(err)
		if errors.Is(err, errCancelled) {
			msg.Reason = "identity-cancelled"
		} else if msg.Reason == "" && status == http.StatusBadRequest {
			msg.Reason = "identity-refused"
		}
		d.Heading, d.Text, d.Hint = t["idpFailedTitle"], t.Or(idpTexts[msg.Reason], t["err.generic"]), t["idpFailedHint"]
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
