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

// issueToken is POST /v1/auth/token, the one open route. The secret is
// checked first, and a correct one is always answered with a token: others'
// failures never lock an app out. Failures are counted per client IP and
// per app; past either limit a failure is answered 429 instead of 401.
func (h *handler) issueToken(c echo.Context) error {
	var req tokenRequest
	if err := server.Bind(c, &req); err != nil {
		return err
	}
	if req.AppID == "" || req.AppSecret == "" {
		return signflow.Errorf(signflow.EINVALID, "appId and appSecret: required")
	}
	var token string
	var err error = errBadCredentials // no app has an id or secret this long
	if len(req.AppID) <= 100 && len(req.AppSecret) <= 200 {
		token, err = h.svc.IssueToken(req.AppID, req.AppSecret)
	}
	if signflow.ErrorCode(err) == signflow.EUNAUTHORIZED {
		return h.failedToken(c, req.AppID, err)
	} else if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
	return server.JSON(c, http.StatusOK, tokenResponse{AccessToken: token, TokenType: "Bearer",
		ExpiresIn: int64(signflow.TokenTTL.Seconds())})
}

var errBadCredentials = signflow.Errorf(signflow.EUNAUTHORIZED, "Invalid appId or appSecret.")

// failedToken counts a wrong id or secret against the client IP and, while
// that address is within its limit, against the app named; it answers the
// failure, or 429 once either has failed too often.
func (h *handler) failedToken(c echo.Context, appID string, failure error) error {
	if err := h.failuresByIP.Allow(c.RealIP()); err != nil {
		return err
	}
	if err := h.failuresByApp.Allow(appID); err != nil {
		return err
	}
	return failure
}

var errNoToken = signflow.Errorf(signflow.EUNAUTHORIZED, "The access token is missing, invalid or expired.")

// authenticate turns "Authorization: Bearer <token>" into the app's Access.
// A missing, wrong, expired or superseded token is 401; a cancelled or
// expired app is 403; an app past its requests per second is 429.
func (h *handler) authenticate(next echo.HandlerFunc) echo.HandlerFunc {
	return h.authenticateWith("", next)
}

// authenticateFor is authenticate for a route that needs scope and whose
// service call confirms the credentials in its own read
// (signflow.AuthenticateTokenFor).
func (h *handler) authenticateFor(scope string) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc { return h.authenticateWith(scope, next) }
}

// authenticateWith authenticates with AuthenticateToken, or with
// AuthenticateTokenFor when confirmScope is set.
func (h *handler) authenticateWith(confirmScope string, next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		scheme, token, ok := strings.Cut(c.Request().Header.Get(echo.HeaderAuthorization), " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" {
			return errNoToken
		}
		token = strings.TrimSpace(token)
		var (
			app *signflow.App
			a   *signflow.Access
			err error
		)
		// A request with an Idempotency-Key may be answered from what is
		// stored before any service call confirms cached credentials.
		if _, replayable := c.Request().Header[server.HeaderIdempotencyKey]; confirmScope == "" || replayable {
			if app, err = h.svc.AuthenticateToken(token); err == nil {
				a = app.Access()
			}
		} else {
			app, a, err = h.svc.AuthenticateTokenFor(token, confirmScope)
		}
		if err != nil {
			return err
		}
		if err := h.perApp.Allow(app.ID); err != nil {
			return err
		}
		return next(&authed{Context: c, access: a})
	}
}

// authed is the request's context once its token is checked: the caller
// rides in a field rather than in echo's store, a map made per request.
type authed struct {
	echo.Context
	access *signflow.Access
}

// access is the authenticated caller of the request.
func access(c echo.Context) *signflow.Access {
	if a, ok := c.(*authed); ok && a.access != nil {
		return a.access
	}
	return &signflow.Access{Interface: signflow.Embedded}
}
