package cabinet

import (
	"net/http"

	"contracts/server"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// The cabinet's JSON API for a logged-in party, under /cabinet/api/:
//
//	GET  contracts/:id           the contract's status and the party's   stateJSON
//	POST contracts/:id/cancel    the creator withdraws the contract     stateJSON
//	POST contracts/:id/signing   open a signing session for the party   signingJSON
//	POST signing/code     {token}          send (or resend) the SMS code    codeJSON
//	POST signing/confirm  {token, code}    sign with the code               stateJSON
//	POST signing/reject   {token}          reject (the creator: cancel)     stateJSON
//	POST signing/identity {token}          start MY_ID or ABLE_ID            {url}
//
// Errors are the spec's error body; server.ReasonHeader names the refusal
// for the page (server.Refuse), with X-Attempts-Left or Retry-After where
// useful.

// stateJSON is a contract's state as the party sees it.
type stateJSON struct {
	ContractID     string `json:"contractId"`
	ContractStatus string `json:"contractStatus"`
	PartyStatus    string `json:"partyStatus"`
}

// signingJSON is a signing session opened for the party. URL is the
// service's signing page of the session, for methods the cabinet page
// hands over to it (E_IMZO).
type signingJSON struct {
	Token     string `json:"token"`
	Method    string `json:"method"`
	ExpiresIn int    `json:"expiresIn"` // seconds
	URL       string `json:"url,omitempty"`
}

// signingCode is the party's signing code as sent by the page.
type signingCode struct {
	Token string `json:"token"`
	Code  string `json:"code"`
}

// smsJSON tells the page where the signing code went.
type smsJSON struct {
	Phone     string `json:"phone"`
	ExpiresIn int    `json:"expiresIn"`
	ResendIn  int    `json:"resendIn"`
	SendsLeft int    `json:"sendsLeft"`
}

func sessionOf(c echo.Context) *signflow.CabinetSession {
	return c.Get(ctxSession).(*signflow.CabinetSession)
}

func stateOf(c *signflow.Contract, in string) stateJSON {
	return stateJSON{ContractID: c.ID, ContractStatus: c.Status, PartyStatus: c.PartyStatus(in)}
}

func (h *handler) contractState(c echo.Context) error {
	s := sessionOf(c)
	v, err := h.cab.Contract(s, c.Param("id"))
	if err != nil {
		return server.Refuse(c, err)
	}
	return server.JSON(c, http.StatusOK, stateOf(v.Contract, s.IN))
}

func (h *handler) cancel(c echo.Context) error {
	s := sessionOf(c)
	v, err := h.cab.Cancel(s, c.Param("id"), server.Actor(c))
	if err != nil {
		return server.Refuse(c, err)
	}
	return server.JSON(c, http.StatusOK, stateOf(v.Contract, s.IN))
}

func (h *handler) openSigning(c echo.Context) error {
	sess, token, err := h.cab.OpenSigning(sessionOf(c), c.Param("id"), requestLang(c), server.Actor(c))
	if err != nil {
		return server.Refuse(c, err)
	}
	out := signingJSON{Token: token, Method: sess.Method, ExpiresIn: seconds(sess.ExpiresAt.Sub(h.svc.Now()))}
	if sess.Method == signflow.MethodEIMZO && h.embedded != "" {
		out.URL = h.embedded + "/sign/" + token
	}
	return server.JSON(c, http.StatusOK, out)
}

// signing reads the request's signing token and checks that it is a
// session the party opened here.
func (h *handler) signing(c echo.Context, req *signingCode) error {
	if err := server.Bind(c, req); err != nil {
		return err
	}
	return h.cab.CheckSigning(sessionOf(c), req.Token)
}

func (h *handler) sendCode(c echo.Context) error {
	var req signingCode
	if err := h.signing(c, &req); err != nil {
		return server.Refuse(c, err)
	}
	sent, err := h.svc.SendCode(c.Request().Context(), req.Token, server.Actor(c))
	if err != nil {
		return server.Refuse(c, err)
	}
	return server.JSON(c, http.StatusOK, smsJSON{Phone: sent.Phone, ExpiresIn: seconds(sent.ExpiresIn),
		ResendIn: seconds(sent.ResendIn), SendsLeft: sent.SendsLeft})
}

func (h *handler) confirm(c echo.Context) error {
	var req signingCode
	if err := h.signing(c, &req); err != nil {
		return server.Refuse(c, err)
	}
	res, err := h.svc.ConfirmCode(req.Token, req.Code, server.Actor(c))
	if err != nil {
		return server.Refuse(c, err)
	}
	return server.JSON(c, http.StatusOK, stateOf(res.Contract, res.Session.SignerIN))
}

func (h *handler) reject(c echo.Context) error {
	var req signingCode
	if err := server.Bind(c, &req); err != nil {
		return server.Refuse(c, err)
	}
	res, err := h.cab.Reject(sessionOf(c), req.Token, server.Actor(c))
	if err != nil {
		return server.Refuse(c, err)
	}
	return server.JSON(c, http.StatusOK, stateOf(res.Contract, res.Session.SignerIN))
}

// identity starts the MY_ID or ABLE_ID check: the page opens the URL in a
// popup; the provider returns to the signing page's callback on the
// embedded listener, which finishes it, and the page sees the result in
// the contract's state.
func (h *handler) identity(c echo.Context) error {
	var req signingCode
	if err := h.signing(c, &req); err != nil {
		return server.Refuse(c, err)
	}
	url, err := h.svc.StartIdentity(req.Token, server.Actor(c))
	if err != nil {
		return server.Refuse(c, err)
	}
	return server.JSON(c, http.StatusOK, map[string]string{"url": url})
}
