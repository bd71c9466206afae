package cabinet

import (
	"net/http"

	"contracts/server/i18n"

	"github.com/labstack/echo/v4"
)

// dict is every string of the page in one language.
type dict = i18n.Dict

// tr returns the strings of lang, Uzbek for an unknown language: the
// document's words, the signing steps the cabinet shares with the signing
// page, and the cabinet's own.
func tr(lang string) dict { return i18n.Cabinet.For(lang) }

// requestLang is the page language: ?lang=, then the party's remembered
// choice, then Accept-Language, then Uzbek.
func requestLang(c echo.Context) string {
	return i18n.Pick(c.QueryParam("lang"), cookie(c, langCookie), c.Request().Header.Get("Accept-Language"))
}

// pageLang is the language of a page; a ?lang= choice is remembered for a year.
func (h *handler) pageLang(c echo.Context) string {
	lang := requestLang(c)
	if q := c.QueryParam("lang"); q == lang && cookie(c, langCookie) != lang {
		h.setCookie(c, langCookie, lang, 365*24*3600, http.SameSiteLaxMode)
	}
	return lang
}
