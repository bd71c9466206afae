package signpage

import (
	"bytes"
	"net/http"
	"time"

	"contracts/server"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// The page's JSON API, all under /sign/<token>/ and authorised by the token:
//
//	POST code      send (or resend) the SMS code       200 codeJSON
//	               ({"intent":"reject"}: a code to confirm a rejection)
//	POST confirm   {"code":"12345"}                    200 resultJSON
//	POST reject    {"code"} or {"pkcs7"}               200 resultJSON
//	POST identity  start the MY_ID/ABLE_ID check       200 {"authUrl": ...}
//	               ({"intent":"reject"}: to confirm a rejection)
//	POST eimzo     {"pkcs7":"<base64>"}                200 resultJSON
//	GET  status    the session as it is now            200 resultJSON
//
// Errors are the spec's error body; server.ReasonHeader names the refusal
// for the page (server.Refuse), and the page adds method-unavailable and
// signature-refused; the identity callback, identity-refused and
// identity-cancelled.

// codeJSON tells the page where the code went and what it may do next.
type codeJSON struct {
	Phone     string `json:"phone,omitempty"`
	ExpiresIn int    `json:"expiresIn"` // seconds
	ResendIn  int    `json:"resendIn"`  // seconds
	SendsLeft int    `json:"sendsLeft"`
	Intent    string `json:"intent,omitempty"` // "reject" for a rejection's code
}

// resultJSON is a session after the customer acted on it.
type resultJSON struct {
	SessionID      string `json:"sessionId"`
	ContractID     string `json:"contractId"`
	Status         string `json:"status"`
	ContractStatus string `json:"contractStatus"`
	PartyStatus    string `json:"partyStatus"`
}

type confirmRequest struct {
	Code string `json:"code"`
}

// rejectRequest confirms a rejection as the session's method confirms a
// signature: the SMS code (OTP_SMS) or the E-IMZO signature of
// signflow.RejectContent (E_IMZO). MY_ID and ABLE_ID reject through the
// identity check started with intent "reject".
type rejectRequest struct {
	Code  string `json:"code"`
	PKCS7 string `json:"pkcs7"`
}

// intentRequest is the body of code and identity: what the code or the
// check is to confirm.
type intentRequest struct {
	Intent string `json:"intent"` // "" to sign, "reject" to reject
}

// bindIntent reads an optional intentRequest: an empty body is a signature's.
func bindIntent(c echo.Context) (intentRequest, error) {
	var req intentRequest
	data, err := server.ReadBody(c)
	if err == nil && len(bytes.TrimSpace(data)) > 0 {
		err = server.Decode(data, &req)
	}
	return req, err
}

type eimzoRequest struct {
	PKCS7 string `json:"pkcs7"` // the attached PKCS#7 from E-IMZO's create_pkcs7, base64
}

type identityJSON struct {
	AuthURL string `json:"authUrl"` // the provider page the popup opens
}

func codeBody(c *signflow.CodeSent) *codeJSON {
	secs := func(d time.Duration) int { return int((d + time.Second - 1) / time.Second) }
	return &codeJSON{Phone: c.Phone, ExpiresIn: secs(c.ExpiresIn), ResendIn: secs(c.ResendIn), SendsLeft: c.SendsLeft, Intent: c.Intent}
}

func resultBody(r *signflow.SessionResult) resultJSON {
	return resultJSON{SessionID: r.Session.ID, ContractID: r.Contract.ID, Status: r.Session.Status,
		ContractStatus: r.Contract.Status, PartyStatus: r.Contract.PartyStatus(r.Session.SignerIN)}
}

func (h *handler) sendCode(c echo.Context) error {
	if err := h.allow(c); err != nil {
		return server.Refuse(c, err)
	}
	req, err := bindIntent(c)
	if err != nil {
		return err
	}
	sent, err := h.svc.SendCodeFor(c.Request().Context(), c.Param("token"), req.Intent, server.Actor(c))
	if err != nil {
		return server.Refuse(c, err)
	}
	return server.JSON(c, http.StatusOK, codeBody(sent))
}

func (h *handler) confirm(c echo.Context) error {
	if err := h.allow(c); err != nil {
		return server.Refuse(c, err)
	}
	var req confirmRequest
	if err := server.Bind(c, &req); err != nil {
		return err
	}
	res, err := h.svc.ConfirmCode(c.Param("token"), req.Code, server.Actor(c))
	if err != nil {
		return server.Refuse(c, err)
	}
	return server.JSON(c, http.StatusOK, resultBody(res))
}

func (h *handler) reject(c echo.Context) error {
	// Limited like every other action on a token, so that no action can be
	// used to probe tokens faster than the limit.
	if err := h.allow(c); err != nil {
		return server.Refuse(c, err)
	}
	data, err := server.ReadBody(c)
	if err != nil {
		return err
	}
	var req rejectRequest
	if len(bytes.TrimSpace(data)) > 0 {
		if err := server.Decode(data, &req); err != nil {
			return err
		}
	}
	var res *signflow.SessionResult
	switch {
	case req.PKCS7 != "":
		res, err = h.svc.RejectWithEIMZO(c.Request().Context(), c.Param("token"), req.PKCS7, server.Actor(c))
		if signflow.ErrorCode(err) == signflow.EINVALID && server.ReasonOf(err) == "" {
			c.Response().Header().Set(server.ReasonHeader, "signature-refused")
		}
	case req.Code != "":
		res, err = h.svc.RejectWithCode(c.Param("token"), req.Code, server.Actor(c))
	default:
		err = h.svc.RejectUnconfirmed(c.Param("token"))
	}
	if err != nil {
		return server.Refuse(c, err)
	}
	return server.JSON(c, http.StatusOK, resultBody(res))
}

// startIdentity begins the MY_ID or ABLE_ID check; the page opens the
// answer's authUrl in its popup.
func (h *handler) startIdentity(c echo.Context) error {
	if err := h.allow(c); err != nil {
		return server.Refuse(c, err)
	}
	req, err := bindIntent(c)
	if err != nil {
		return err
	}
	var authURL string
	switch req.Intent {
	case "":
		authURL, err = h.svc.StartIdentity(c.Param("token"), server.Actor(c))
	case signflow.IntentReject:
		authURL, err = h.svc.StartRejectIdentity(c.Param("token"), server.Actor(c))
	default:
		err = signflow.Errorf(signflow.EINVALID, "intent: must be empty or reject")
	}
	if err != nil {
		return server.Refuse(c, err)
	}
	return server.JSON(c, http.StatusOK, identityJSON{AuthURL: authURL})
}

// signEIMZO takes the PKCS#7 the local E-IMZO client made of the document
// hash; the domain has it verified by the E-IMZO server before signing.
func (h *handler) signEIMZO(c echo.Context) error {
	if err := h.allow(c); err != nil {
		return server.Refuse(c, err)
	}
	if !h.svc.MethodUsable(signflow.MethodEIMZO) {
		c.Response().Header().Set(server.ReasonHeader, "method-unavailable")
		return signflow.Errorf(signflow.EINVALID, "The signing method %s is not configured on this service.", signflow.MethodEIMZO)
	}
	var req eimzoRequest
	if err := server.Bind(c, &req); err != nil {
		return err
	}
	res, err := h.svc.SignWithEIMZO(c.Request().Context(), c.Param("token"), req.PKCS7, server.Actor(c))
	if err != nil {
		if signflow.ErrorCode(err) == signflow.EINVALID && server.ReasonOf(err) == "" {
			c.Response().Header().Set(server.ReasonHeader, "signature-refused")
		}
		return server.Refuse(c, err)
	}
	return server.JSON(c, http.StatusOK, resultBody(res))
}

// status answers the session's state now, whatever it is: the page polls
// it while the identity popup is open, in case the popup cannot tell it.
func (h *handler) status(c echo.Context) error {
	res, err := h.svc.SessionOutcome(c.Param("token"))
	if err != nil {
		return server.Refuse(c, err)
	}
	body := resultBody(res)
	body.Status = res.Session.EffectiveStatus(h.svc.Now())
	c.Response().Header().Set("Cache-Control", "no-store")
	return server.JSON(c, http.StatusOK, body)
}

// allow spends one request of the rate limit on the page's actions. A
// real session has its own budget per client IP; tokens that name no
// session share their client IP's, so that probing for tokens, from the
// signer's own address too, never spends a real session's.
func (h *handler) allow(c echo.Context) error {
	if !h.limiter.Enabled() {
		return nil
	}
	key := "ip " + c.RealIP()
	if id, err := h.svc.SessionID(c.Param("token")); err == nil {
		key = "session " + id + " " + key
	}
	return h.limiter.Allow(key)
}
