package cabinet

import (
	"bytes"
	"net/http"
	"slices"
	"strconv"

	"contracts/server/document"
	"contracts/server/i18n"
	"contracts/server/static"
	"contracts/server/wire"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// pageData is what page.html renders: the login form, the list or one contract.
type pageData struct {
	Lang, Title, ServiceName, AssetVersion string
	T                                      dict
	Langs                                  []i18n.LangLink
	Party                                  *whoView // the logged-in party; nil on the login page
	Login                                  *loginView
	List                                   *listView
	Doc                                    *docView    // nil with List and Login nil too: the contract is not found
	Ledger                                 *ledgerView // the contract's payments, once it is in force
	Config                                 pageConfig
}

// Creator tells the signing steps' reject panel (assets/sign/steps.html)
// whether the party created the contract; the cabinet offers that party
// Cancel contract instead.
func (d *pageData) Creator() bool { return d.Doc != nil && d.Doc.Creator }

// whoView names the logged-in party in the page's header.
type whoView struct{ Name, IDLabel, IN string }

type loginView struct{ Ended bool }

type listView struct {
	Open, Closed, Witnessed []cardView
	OpenTotal, ClosedTotal  int
	OpenMore, PageText      string
	Newer, Older            string // URLs of the pages beside this one
	Empty, Paged            bool
}

// pageConfig is handed to cabinet.js as JSON.
type pageConfig struct {
	View       string `json:"view"` // login, list, contract, missing
	CSRF       string `json:"csrf"`
	ContractID string `json:"contractId,omitempty"`
	Flow       string `json:"flow,omitempty"` // how the party signs: otp, identity, eimzo, none
	T          dict   `json:"t"`
	// Witnessed: the contract waits for witnesses too (common.js's done text).
	Witnessed bool `json:"witnessed,omitempty"`
}

// home is GET /cabinet: the party's contracts, or the login form.
func (h *handler) home(c echo.Context) error {
	lang := h.pageLang(c)
	s, token, err := h.session(c)
	if err == signflow.ErrCabinetSession {
		ended := token != ""
		if ended {
			h.setCookie(c, sessionCookie, "", -1, http.SameSiteStrictMode)
		}
		d, err := h.data(c, lang, nil, "")
		if err != nil {
			return err
		}
		d.Title, d.Login = d.T["loginTitle"]+" · "+h.serviceName, &loginView{Ended: ended}
		d.Config.View, d.Config.CSRF = "login", h.cab.CSRFToken(h.loginBinding(c))
		return h.render(c, http.StatusOK, d)
	} else if err != nil {
		return err
	}
	page, _ := strconv.Atoi(c.QueryParam("page"))
	list, err := h.cab.Contracts(s, max(page, 0))
	if err != nil {
		return err
	}
	d, err := h.data(c, lang, s, token)
	if err != nil {
		return err
	}
	d.Title, d.Config.View = d.T["myContracts"]+" · "+h.serviceName, "list"
	d.List = listOf(list, s.IN, max(page, 0), lang, d.T)
	return h.render(c, http.StatusOK, d)
}

func listOf(l *signflow.CabinetList, in string, page int, lang string, t dict) *listView {
	v := &listView{OpenTotal: l.OpenTotal, ClosedTotal: l.ClosedTotal, Empty: l.OpenTotal+l.ClosedTotal+len(l.Witnessed) == 0}
	for _, c := range l.Witnessed {
		v.Witnessed = append(v.Witnessed, cardOf(c, in, lang, t))
	}
	for _, c := range l.Open {
		v.Open = append(v.Open, cardOf(c, in, lang, t))
	}
	for _, c := range l.Closed {
		v.Closed = append(v.Closed, cardOf(c, in, lang, t))
	}
	if l.OpenTotal > len(l.Open) {
		v.OpenMore = t.F("openMore", "shown", strconv.Itoa(len(l.Open)), "total", strconv.Itoa(l.OpenTotal))
	}
	pages := (l.ClosedTotal + signflow.CabinetPageSize - 1) / signflow.CabinetPageSize
	if v.Paged = pages > 1; v.Paged {
		v.PageText = t.F("pageOf", "page", strconv.Itoa(page+1), "pages", strconv.Itoa(pages))
		if page > 0 {
			v.Newer = "/cabinet?page=" + strconv.Itoa(page-1)
		}
		if page+1 < pages {
			v.Older = "/cabinet?page=" + strconv.Itoa(page+1)
		}
	}
	return v
}

// contract is GET /cabinet/contracts/{id}: the document and its actions.
// A contract that is not the party's is not found, whether it exists or not.
func (h *handler) contract(c echo.Context) error {
	lang := h.pageLang(c)
	s, token := c.Get(ctxSession).(*signflow.CabinetSession), c.Get(ctxToken).(string)
	d, err := h.data(c, lang, s, token)
	if err != nil {
		return err
	}
	v, err := h.cab.Contract(s, c.Param("id"))
	if code := signflow.ErrorCode(err); code == signflow.ENOTFOUND || code == signflow.EFORBIDDEN {
		d.Title, d.Config.View = d.T["notFoundContractTitle"], "missing"
		return h.render(c, http.StatusNotFound, d)
	} else if err != nil {
		return err
	}
	audit, err := h.svc.AuditTrail(v.ID)
	if err != nil {
		return err
	}
	d.Doc = h.docOf(v, audit, s.IN, lang, d.T)
	if d.Ledger, err = h.ledgerOf(s, v, d.T); err != nil {
		return err
	}
	d.Title = d.Doc.Title + " · " + d.Doc.NumberText
	d.Config.View, d.Config.ContractID, d.Config.Flow = "contract", v.ID, d.Doc.Flow
	d.Config.Witnessed = len(v.Witnesses) > 0
	return h.render(c, http.StatusOK, d)
}

// pdf is GET /cabinet/contracts/{id}/pdf?lang=uz|ru|en (default the page's).
func (h *handler) pdf(c echo.Context) error {
	lang := c.QueryParam("lang")
	if !slices.Contains(signflow.Languages, lang) {
		lang = requestLang(c)
	}
	v, err := h.cab.Contract(c.Get(ctxSession).(*signflow.CabinetSession), c.Param("id"))
	if code := signflow.ErrorCode(err); code == signflow.EFORBIDDEN {
		return signflow.Errorf(signflow.ENOTFOUND, "Contract not found.")
	} else if err != nil {
		return err
	}
	return wire.WritePDF(c, h.svc, h.pdfs, v, lang, h.embedded, true)
}

// data starts a page for the party of session s (nil: nobody logged in).
func (h *handler) data(c echo.Context, lang string, s *signflow.CabinetSession, token string) (*pageData, error) {
	t := tr(lang)
	d := &pageData{Lang: lang, T: t, ServiceName: h.serviceName, AssetVersion: h.files.Version, Config: pageConfig{T: t}}
	d.Langs = i18n.LangLinks(c.Request().URL.Path, c.QueryParams(), lang)
	if s != nil {
		client, err := h.cab.Party(s)
		if err != nil {
			return nil, err
		}
		d.Party = &whoView{Name: signflow.PartyName(client, s.IN), IDLabel: document.IDLabel(t, s.IN), IN: s.IN}
		d.Config.CSRF = h.cab.CSRFToken(token)
	}
	return d, nil
}

func (h *handler) render(c echo.Context, status int, d *pageData) error {
	var buf bytes.Buffer
	if err := h.tmpl.Execute(&buf, d); err != nil {
		return err
	}
	static.OwnPageHeaders(c.Response().Header())
	return c.HTMLBlob(status, buf.Bytes())
}
