package cabinet

import (
	"net/http"
	"slices"

	"contracts/assets"
	"contracts/server/i18n"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// dict is every string of the page in one language.
type dict = i18n.Dict

// dicts holds the strings per language: the signing page's (what the two
// pages share: statuses, the signing steps, the contract's sections), with
// the cabinet's own over them.
var dicts = i18n.Load(i18n.Source{FS: assets.Sign, Path: "sign/i18n.json"}, i18n.Source{FS: assets.Cabinet, Path: "cabinet/i18n.json"})

// tr returns the strings of lang, Uzbek for an unknown language.
func tr(lang string) dict { return dicts.For(lang) }

// languageNames are the names of the languages in themselves.
var languageNames = map[string]string{"uz": "Oʻzbekcha", "ru": "Русский", "en": "English"}

// requestLang is the page language: ?lang=, then the party's remembered
// choice, then Accept-Language, then Uzbek.
func requestLang(c echo.Context) string {
	if l := c.QueryParam("lang"); slices.Contains(signflow.Languages, l) {
		return l
	}
	if l := cookie(c, langCookie); slices.Contains(signflow.Languages, l) {
		return l
	}
	if l := i18n.FromAcceptLanguage(c.Request().Header.Get("Accept-Language")); l != "" {
		return l
	}
	return "uz"
}

// pageLang is the language of a page; a ?lang= choice is remembered for a year.
func (h *handler) pageLang(c echo.Context) string {
	lang := requestLang(c)
	if q := c.QueryParam("lang"); q == lang && cookie(c, langCookie) != lang {
		h.setCookie(c, langCookie, lang, 365*24*3600, http.SameSiteLaxMode)
	}
	return lang
}
