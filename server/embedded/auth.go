package embedded

import (
	"net/http"
	"strings"

	"contracts/server"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

type tokenRequest struct {
	AppID     string `json:"appId"`
	AppSecret string `json:"appSecret"`
}

type tokenResponse struct {
	AccessToken string `json:"accessToken"`
	TokenType   string `json:"tokenType"`
	ExpiresIn   int64  `json:"expiresIn"`
}

// issueToken is POST /v1/auth/token, the one open route. The caller's IP is
// limited before the body is read; the app named in the body, before its
// secret is checked, so guessing secrets of one app is slow from anywhere.
func (h *handler) issueToken(c echo.Context) error {
	if err := h.byIP.Allow(clientIP(c)); err != nil {
		return err
	}
	var req tokenRequest
	if err := server.Bind(c, &req); err != nil {
		return err
	}
	if req.AppID == "" || req.AppSecret == "" {
		return signflow.Errorf(signflow.EINVALID, "appId and appSecret: required")
	}
	if len(req.AppID) > 100 || len(req.AppSecret) > 200 {
		return signflow.Errorf(signflow.EUNAUTHORIZED, "Invalid appId or appSecret.")
	}
	if err := h.byApp.Allow(req.AppID); err != nil {
		return err
	}
	token, err := h.svc.IssueToken(req.AppID, req.AppSecret)
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
	return server.JSON(c, http.StatusOK, tokenResponse{AccessToken: token, TokenType: "Bearer",
		ExpiresIn: int64(signflow.TokenTTL.Seconds())})
}

const ctxAccess = "embedded.access"

var errNoToken = signflow.Errorf(signflow.EUNAUTHORIZED, "The access token is missing, invalid or expired.")

// authenticate turns "Authorization: Bearer <token>" into the app's Access.
// A missing, wrong, expired or superseded token is 401; a cancelled or
// expired app is 403.
func (h *handler) authenticate(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		scheme, token, ok := strings.Cut(c.Request().Header.Get(echo.HeaderAuthorization), " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" {
			return errNoToken
		}
		app, err := h.svc.AuthenticateToken(strings.TrimSpace(token))
		if err != nil {
			return err
		}
		c.Set(ctxAccess, app.Access())
		return next(c)
	}
}

// requireScope refuses, with 403, a caller whose app lacks the route's
// scope, before the request body is read.
func requireScope(scope string) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if err := access(c).Require(scope); err != nil {
				return err
			}
			return next(c)
		}
	}
}

// access is the authenticated caller of the request.
func access(c echo.Context) *signflow.Access {
	a, _ := c.Get(ctxAccess).(*signflow.Access)
	if a == nil {
		return &signflow.Access{Interface: signflow.Embedded}
	}
	return a
}
