package cabinet

import (
	"net/http"
	"time"

	"contracts/server"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// Cookies of the cabinet, all on Path=/cabinet and HttpOnly.
const (
	// sessionCookie holds the token of the cabinet session (SameSite=Strict,
	// no expiry of its own: the server ends the session).
	sessionCookie = "cabinet_session"
	// loginCookie holds the random binding of the login page's CSRF token
	// until the party logs in (SameSite=Strict).
	loginCookie = "cabinet_login"
	// knownCookie marks a browser the number logged in with, whose code
	// requests strangers' requests never hold up (half a year, SameSite=Strict).
	knownCookie = "cabinet_known"
	// langCookie remembers the language the party chose (a year, SameSite=Lax).
	langCookie = "cabinet_lang"
	// headerCSRF carries the page's CSRF token on every state-changing request.
	headerCSRF = "X-CSRF-Token"
)

const (
	ctxSession = "cabinet.session"
	ctxToken   = "cabinet.token"
)

// setCookie sets a cookie of the cabinet; maxAge < 0 deletes it.
func (h *handler) setCookie(c echo.Context, name, value string, maxAge int, site http.SameSite) {
	c.SetCookie(&http.Cookie{Name: name, Value: value, Path: "/cabinet", MaxAge: maxAge, HttpOnly: true,
		Secure: h.secure || c.Request().TLS != nil, SameSite: site})
}

func cookie(c echo.Context, name string) string {
	if ck, err := c.Cookie(name); err == nil {
		return ck.Value
	}
	return ""
}

// session returns the live session of the request's cookie and its token.
func (h *handler) session(c echo.Context) (*signflow.CabinetSession, string, error) {
	token := cookie(c, sessionCookie)
	s, err := h.cab.Session(token)
	return s, token, err
}

// page lets a logged-in party through to a page, and sends anyone else to
// the login page.
func (h *handler) page(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		s, token, err := h.session(c)
		if err == signflow.ErrCabinetSession {
			return c.Redirect(http.StatusSeeOther, "/cabinet")
		} else if err != nil {
			return err
		}
		c.Set(ctxSession, s)
		c.Set(ctxToken, token)
		return next(c)
	}
}

// api lets through a request of a logged-in party (401 otherwise) that
// carries the session's CSRF token when it changes anything (403 otherwise).
func (h *handler) api(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		noStore(c)
		s, token, err := h.session(c)
		if err != nil {
			return server.Refuse(c, err) // the login page drops the cookie and says why
		}
		if c.Request().Method != http.MethodGet {
			if err := h.cab.CheckCSRF(token, c.Request().Header.Get(headerCSRF)); err != nil {
				return server.Refuse(c, err)
			}
		}
		c.Set(ctxSession, s)
		return next(c)
	}
}

// loginCSRF checks the CSRF token of the login page, bound to its cookie.
func (h *handler) loginCSRF(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		noStore(c)
		if err := h.cab.CheckCSRF(cookie(c, loginCookie), c.Request().Header.Get(headerCSRF)); err != nil {
			return server.Refuse(c, err)
		}
		return next(c)
	}
}

// limited takes one event from the client IP's budget of code requests.
func (h *handler) limited(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if err := h.limiter.Allow(c.RealIP()); err != nil {
			return server.Refuse(c, err)
		}
		return next(c)
	}
}

func noStore(c echo.Context) { c.Response().Header().Set("Cache-Control", "no-store") }

// loginBinding returns the login page's CSRF binding, setting a new one
// when the browser has none.
func (h *handler) loginBinding(c echo.Context) string {
	b := cookie(c, loginCookie)
	if len(b) < 20 || len(b) > 64 {
		b = signflow.RandomToken(24)
		h.setCookie(c, loginCookie, b, 0, http.SameSiteStrictMode)
	}
	return b
}

type loginRequest struct {
	Number string `json:"number"`
	Code   string `json:"code"`
}

// codeJSON is the answer to a login-code request: the same for every number.
type codeJSON struct {
	ExpiresIn int `json:"expiresIn"` // seconds
	ResendIn  int `json:"resendIn"`  // seconds
	SendsLeft int `json:"sendsLeft"`
}

func seconds(d time.Duration) int { return int((d + time.Second - 1) / time.Second) }

// sendLoginCode is POST /cabinet/api/login/code {"number"}: codes bound to
// the login page's binding, sent in the background; the answer is the
// same for every number.
func (h *handler) sendLoginCode(c echo.Context) error {
	var req loginRequest
	if err := server.Bind(c, &req); err != nil {
		return err
	}
	b := signflow.LoginBrowser{Binding: cookie(c, loginCookie), Known: cookie(c, knownCookie)}
	sent, err := h.cab.SendLoginCodeTo(b, req.Number, requestLang(c), server.Actor(c))
	if err != nil {
		return server.Refuse(c, err)
	}
	return server.JSON(c, http.StatusOK, codeJSON{ExpiresIn: seconds(sent.ExpiresIn), ResendIn: seconds(sent.ResendIn), SendsLeft: sent.SendsLeft})
}

// logIn is POST /cabinet/api/login {"number", "code"}: it sets the session
// cookie and drops the login page's binding.
func (h *handler) logIn(c echo.Context) error {
	var req loginRequest
	if err := server.Bind(c, &req); err != nil {
		return err
	}
	token, s, err := h.cab.LogIn(req.Number, req.Code, cookie(c, loginCookie), server.Actor(c))
	if err != nil {
		return server.Refuse(c, err)
	}
	h.setCookie(c, sessionCookie, token, 0, http.SameSiteStrictMode)
	h.setCookie(c, loginCookie, "", -1, http.SameSiteStrictMode)
	h.setCookie(c, knownCookie, s.Known, int(signflow.KnownBrowserFor.Seconds()), http.SameSiteStrictMode)
	return server.JSON(c, http.StatusOK, map[string]string{"in": s.IN})
}

// logOut is POST /cabinet/api/logout: it ends the session (its CSRF token
// required) and drops the cookie. Without a live session there is nothing
// to end, and the cookie is dropped all the same.
func (h *handler) logOut(c echo.Context) error {
	noStore(c)
	if _, token, err := h.session(c); err == nil {
		if err := h.cab.CheckCSRF(token, c.Request().Header.Get(headerCSRF)); err != nil {
			return server.Refuse(c, err)
		}
		if err := h.cab.LogOut(token); err != nil {
			return err
		}
	} else if err != signflow.ErrCabinetSession {
		return err
	}
	h.setCookie(c, sessionCookie, "", -1, http.SameSiteStrictMode)
	return c.NoContent(http.StatusNoContent)
}
