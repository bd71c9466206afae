package console

import (
	"contracts/server/i18n"

	"github.com/labstack/echo/v4"
)

// pageData is what layout.html and a page render.
type pageData struct {
	Lang, Title, ServiceName, AssetVersion string
	T                                      i18n.Dict
	Langs                                  []i18n.LangLink
	Nav                                    []navLink // empty on the login page
	CSRF                                   string
	Notice, Error                          string // what the last act did, or why it was refused
	Login                                  *loginView
	Page                                   any // the page's own view
}

type navLink struct {
	Label, URL string
	Current    bool
}

// sections are the navigation's pages: key of the label, path.
var sections = []struct{ key, path string }{
	{"nav.dashboard", "/console"}, {"nav.contracts", "/console/contracts"}, {"nav.templates", "/console/templates"},
	{"nav.owners", "/console/owners"}, {"nav.apps", "/console/apps"}, {"nav.keys", "/console/keys"},
	{"nav.deliveries", "/console/deliveries"},
}

// data starts a page of section (a path of sections) for session s (nil:
// the login page).
func (h *handler) data(c echo.Context, s *session, section string) *pageData {
	lang := h.pageLang(c)
	t := i18n.Console.For(lang)
	d := &pageData{Lang: lang, T: t, ServiceName: h.serviceName, AssetVersion: h.files.Version}
	path := c.Request().URL.Path
	if c.Request().Method != "GET" {
		path = section // a page answering a form links back to its section
	}
	d.Langs = i18n.LangLinks(path, c.QueryParams(), lang)
	if s != nil {
		d.CSRF = s.csrf
		for _, sec := range sections {
			d.Nav = append(d.Nav, navLink{Label: t[sec.key], URL: sec.path, Current: sec.path == section})
		}
	}
	return d
}

// start begins a page of the logged-in administrator.
func (h *handler) start(c echo.Context, section, titleKey string) *pageData {
	d := h.data(c, c.Get(ctxSession).(*session), section)
	d.Title = d.T[titleKey] + " · " + h.serviceName
	return d
}

func (d *pageData) withError(msg string) *pageData {
	d.Error = msg
	return d
}
