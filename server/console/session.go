package console

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"contracts/server/i18n"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// Cookies of the console, all on Path=/console and HttpOnly.
const (
	// sessionCookie holds the session's token (SameSite=Strict; no expiry
	// of its own: the server ends the session).
	sessionCookie = "console_session"
	// loginCookie binds the login form's CSRF token to the browser.
	loginCookie = "console_login"
	// langCookie remembers the language chosen with ?lang= (a year).
	langCookie = "console_lang"
	// csrfField is the form field of the CSRF token on every POST.
	csrfField = "csrf"
)

const ctxSession = "console.session"

func (h *handler) setCookie(c echo.Context, name, value string, maxAge int, site http.SameSite) {
	c.SetCookie(&http.Cookie{Name: name, Value: value, Path: "/console", MaxAge: maxAge, HttpOnly: true,
		Secure: c.Request().TLS != nil || c.Scheme() == "https", SameSite: site})
}

func cookie(c echo.Context, name string) string {
	if ck, err := c.Cookie(name); err == nil {
		return ck.Value
	}
	return ""
}

// page lets a logged-in administrator through, with the session's CSRF
// token on every POST (403 otherwise); anyone else gets the login page.
func (h *handler) page(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		s, ended := h.auth.session(cookie(c, sessionCookie))
		if s == nil {
			if ended {
				h.setCookie(c, sessionCookie, "", -1, http.SameSiteStrictMode)
			}
			status := http.StatusOK
			if c.Request().Method != http.MethodGet {
				status = http.StatusUnauthorized
			}
			return h.loginPage(c, status, loginView{Ended: ended, Next: nextOf(c)})
		}
		if c.Request().Method == http.MethodPost && !sameToken(c.FormValue(csrfField), s.csrf) {
			d := h.data(c, s, "")
			d.Title = d.T["staleTitle"]
			return h.render(c, http.StatusForbidden, "missing", d.withError(d.T["errStale"]))
		}
		c.Set(ctxSession, s)
		return next(c)
	}
}

// nextOf is the page to return to after the login: the page asked for.
func nextOf(c echo.Context) string {
	if c.Request().Method != http.MethodGet {
		return ""
	}
	return c.Request().URL.RequestURI()
}

// safeNext keeps a return address to the console's own pages.
func safeNext(next string) string {
	if !strings.HasPrefix(next, "/console") || strings.HasPrefix(next, "/console/login") || strings.ContainsAny(next, "\\\r\n") {
		return "/console"
	}
	return next
}

// loginView is the login form's state.
type loginView struct {
	Ended bool   // a session ended by itself
	Next  string // where to go after the login
	Error string
}

func (h *handler) loginPage(c echo.Context, status int, v loginView) error {
	binding := cookie(c, loginCookie)
	if len(binding) < 20 || len(binding) > 64 {
		binding = signflow.RandomToken(24)
		h.setCookie(c, loginCookie, binding, 0, http.SameSiteStrictMode)
	}
	d := h.data(c, nil, "")
	d.Title, d.CSRF, d.Login = d.T["adminLogin"]+" · "+h.serviceName, binding, &v
	return h.render(c, status, "login", d)
}

// logIn is POST /console/login {token, csrf, next}.
func (h *handler) logIn(c echo.Context) error {
	v := loginView{Next: safeNext(c.FormValue("next"))}
	t := h.words(c)
	if !sameToken(c.FormValue(csrfField), cookie(c, loginCookie)) {
		v.Error = t["errStale"]
		return h.loginPage(c, http.StatusForbidden, v)
	}
	token, err := h.auth.logIn(c.RealIP(), c.FormValue("token"))
	var locked *signflow.LoginLockedError
	switch {
	case errors.As(err, &locked):
		c.Response().Header().Set("Retry-After", strconv.Itoa(int(locked.After.Seconds()+0.999)))
		v.Error = t.F("errLocked", "minutes", strconv.Itoa(int((locked.After.Minutes())+0.999)))
		return h.loginPage(c, http.StatusTooManyRequests, v)
	case err != nil:
		v.Error = t["errWrongToken"]
		return h.loginPage(c, http.StatusUnauthorized, v)
	}
	h.setCookie(c, sessionCookie, token, 0, http.SameSiteStrictMode)
	h.setCookie(c, loginCookie, "", -1, http.SameSiteStrictMode)
	return c.Redirect(http.StatusSeeOther, v.Next)
}

// logOut is POST /console/logout: it ends the session.
func (h *handler) logOut(c echo.Context) error {
	h.auth.logOut(cookie(c, sessionCookie))
	h.setCookie(c, sessionCookie, "", -1, http.SameSiteStrictMode)
	return c.Redirect(http.StatusSeeOther, "/console")
}

// requestLang is the page language: ?lang=, then the remembered choice,
// then Accept-Language, then Uzbek.
func requestLang(c echo.Context) string { return i18n.RequestLang(c, langCookie) }

// pageLang is the language of a page; a ?lang= choice is remembered for a year.
func (h *handler) pageLang(c echo.Context) string { return i18n.PageLang(c, langCookie, h.setCookie) }

func (h *handler) words(c echo.Context) i18n.Dict { return i18n.Console.For(requestLang(c)) }
