package cabinet

import (
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
func requestLang(c echo.Context) string { return i18n.RequestLang(c, langCookie) }

// pageLang is the language of a page; a ?lang= choice is remembered for a year.
func (h *handler) pageLang(c echo.Context) string { return i18n.PageLang(c, langCookie, h.setCookie) }
