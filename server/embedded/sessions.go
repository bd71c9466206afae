package embedded

import (
	"net/http"

	"contracts/server"
	"contracts/server/wire"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// sessionRequest is the spec's "Sign session request".
type sessionRequest struct {
	SignerIN     string `json:"signerIn"`
	Lang         string `json:"lang"`
	ParentOrigin string `json:"parentOrigin"`
	RedirectURL  string `json:"redirectUrl"`
	Notify       string `json:"notify"`
}

// sessionCreated is the spec's "Sign session response (create)".
type sessionCreated struct {
	ID        string    `json:"id"`
	URL       string    `json:"url"`
	Method    string    `json:"method"`
	ExpiresAt wire.Time `json:"expiresAt"`
	Status    string    `json:"status"`
	// NotifiedAt is when the link was texted to the signer (notify: SMS).
	NotifiedAt *wire.Time `json:"notifiedAt,omitempty"`
}

// sessionStatus is the spec's "Sign session status response".
type sessionStatus struct {
	ID          string     `json:"id"`
	ContractID  string     `json:"contractId"`
	SignerIN    string     `json:"signerIn"`
	Status      string     `json:"status"`
	Method      string     `json:"method"`
	ExpiresAt   wire.Time  `json:"expiresAt"`
	CompletedAt *wire.Time `json:"completedAt"`
	NotifiedAt  *wire.Time `json:"notifiedAt,omitempty"`
}

// openSession is POST /v1/contracts/{id}/sign-sessions. The url carries the
// session token, which is shown only here.
func (h *handler) openSession(c echo.Context) error {
	var req sessionRequest
	if err := server.Bind(c, &req); err != nil {
		return err
	}
	s, token, err := h.svc.OpenSession(access(c), c.Param("id"), signflow.SessionRequest{SignerIN: req.SignerIN,
		Lang: req.Lang, ParentOrigin: req.ParentOrigin, RedirectURL: req.RedirectURL, Notify: req.Notify,
		LinkBase: h.baseURL + "/sign/"}, server.Actor(c))
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
	return server.JSON(c, http.StatusOK, sessionCreated{ID: s.ID, URL: h.baseURL + "/sign/" + token, Method: s.Method,
		ExpiresAt: wire.Time(s.ExpiresAt), Status: s.EffectiveStatus(h.now()), NotifiedAt: wire.OptTime(s.NotifiedAt)})
}

// getSession is GET /v1/sign-sessions/{id}: only sessions the calling app
// opened; a pending session past its expiry reads EXPIRED.
func (h *handler) getSession(c echo.Context) error {
	s, err := h.svc.SessionForApp(access(c), c.Param("id"))
	if err != nil {
		return err
	}
	return server.JSON(c, http.StatusOK, sessionStatus{ID: s.ID, ContractID: s.ContractID, SignerIN: s.SignerIN,
		Status: s.EffectiveStatus(h.now()), Method: s.Method, ExpiresAt: wire.Time(s.ExpiresAt),
		CompletedAt: wire.OptTime(s.CompletedAt), NotifiedAt: wire.OptTime(s.NotifiedAt)})
}
