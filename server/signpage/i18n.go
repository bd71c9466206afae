package signpage

import (
	"contracts/server/i18n"

	"github.com/labstack/echo/v4"
)

// dict is every string of the page in one language.
type dict = i18n.Dict

// tr returns the page's strings in lang (the document's words and the
// page's own), Uzbek for an unknown language.
func tr(lang string) dict { return i18n.Sign.For(lang) }

// requestLang picks the page language of a request that has no session:
// ?lang=, then Accept-Language, then Uzbek.
func requestLang(c echo.Context) string {
	return i18n.Pick(c.QueryParam("lang"), "", c.Request().Header.Get("Accept-Language"))
}
