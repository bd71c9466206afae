package i18n

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// RequestLang is the page language: ?lang=, then the choice remembered in
// the cookie named langCookie, then Accept-Language, then Uzbek.
func RequestLang(c echo.Context, langCookie string) string {
	return Pick(c.QueryParam("lang"), cookieValue(c, langCookie), c.Request().Header.Get("Accept-Language"))
}

// SetCookie sets a cookie the way the calling area does (its path, its
// Secure rule); maxAge < 0 deletes it.
type SetCookie func(c echo.Context, name, value string, maxAge int, site http.SameSite)

// PageLang is the language of a page; a ?lang= choice is remembered for a
// year in langCookie, set through set.
func PageLang(c echo.Context, langCookie string, set SetCookie) string {
	lang := RequestLang(c, langCookie)
	if q := c.QueryParam("lang"); q == lang && cookieValue(c, langCookie) != lang {
		set(c, langCookie, lang, 365*24*3600, http.SameSiteLaxMode)
	}
	return lang
}

func cookieValue(c echo.Context, name string) string {
	if ck, err := c.Cookie(name); err == nil {
		return ck.Value
	}
	return ""
}
