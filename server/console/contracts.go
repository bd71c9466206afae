package console

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"contracts/server"
	"contracts/server/document"
	"contracts/server/wire"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// contractsPageSize is how many contracts a page of the list shows.
const contractsPageSize = 25

// contractsView is the list: the filter and one page.
type contractsView struct {
	Search, Status string
	Statuses       []option
	Rows           []contractRow
	Total          int
	Pager          *pager
}

type option struct {
	Value, Label string
	Selected     bool
}

// contractRow is one contract of the list.
type contractRow struct {
	ID, Number, URL, Title, Date, Amount string
	Status, StatusText, StatusClass      string
	Seller, Buyer                        string
}

// contracts is GET /console/contracts?search=&status=&page=.
func (h *handler) contracts(c echo.Context) error {
	d := h.start(c, "/console/contracts", "nav.contracts")
	v := &contractsView{Search: strings.TrimSpace(c.QueryParam("search")), Status: c.QueryParam("status")}
	if !slices.Contains(signflow.ContractStatuses, v.Status) {
		v.Status = ""
	}
	v.Statuses = append(v.Statuses, option{Value: "", Label: d.T["allStatuses"], Selected: v.Status == ""})
	for _, st := range signflow.ContractStatuses {
		if legacy(st) && st != v.Status {
			continue
		}
		v.Statuses = append(v.Statuses, option{Value: st, Label: d.T.Or("status."+st, st), Selected: st == v.Status})
	}
	page := pageParam(c.QueryParam("page"))
	q := signflow.ContractQuery{Search: v.Search, Page: page, Size: contractsPageSize}
	if v.Status != "" {
		q.Statuses = []string{v.Status}
	}
	list, total, err := h.svc.AdminContracts(q)
	if refused(err) {
		d.Page = v
		return h.render(c, http.StatusBadRequest, "contracts", d.withError(refusalText(d.T, err)))
	} else if err != nil {
		return err
	}
	v.Total = total
	for _, cv := range list {
		doc := document.CardOf(cv, "", d.Lang)
		v.Rows = append(v.Rows, contractRow{ID: cv.ID, Number: cv.Number, URL: "/console/contracts/" + cv.ID, Title: doc.Title,
			Date: doc.Date, Amount: doc.Amount, Status: cv.Status, StatusText: doc.StatusText, StatusClass: doc.StatusClass,
			Seller: signflow.PartyName(cv.Seller, cv.SellerIN), Buyer: signflow.PartyName(cv.Buyer, cv.BuyerIN)})
	}
	v.Pager = pagerOf(d.T, "/console/contracts", url.Values{"search": {v.Search}, "status": {v.Status}}, page, total, contractsPageSize)
	d.Page = v
	return h.render(c, http.StatusOK, "contracts", d)
}

// contractView is a contract's page.
type contractView struct {
	Doc        *document.Doc    // the card, without its audit trail: the page shows it as a timeline
	Audit      []document.Event // the audit trail
	PDF        []pdfLink
	CanCancel  bool
	Confirming bool // the administrator asked to cancel: the page asks to confirm
	Deliveries string
	CancelURL  string
	BackURL    string
	Ledger     *ledgerView // nil before the contract is in force
}

type pdfLink struct{ Lang, Label, URL string }

// contract is GET /console/contracts/{id}[?confirm=cancel].
func (h *handler) contract(c echo.Context) error {
	d := h.start(c, "/console/contracts", "nav.contracts")
	if c.QueryParam("cancelled") == "1" {
		d.Notice = d.T["cancelledNotice"]
	}
	if c.QueryParam("paid") == "1" {
		d.Notice = d.T["payment.recordedNotice"]
	}
	return h.contractPage(c, d, http.StatusOK)
}

func (h *handler) contractPage(c echo.Context, d *pageData, status int) error {
	v, err := h.svc.AdminContract(c.Param("id"))
	if signflow.ErrorCode(err) == signflow.ENOTFOUND {
		return h.missing(c, d, "contractMissing")
	} else if err != nil {
		return err
	}
	audit, err := h.svc.AuditTrail(v.ID)
	if err != nil {
		return err
	}
	cv := &contractView{Doc: document.New(v.AsRecorded(), nil, d.Lang, document.Options{}), Audit: document.New(v, audit, d.Lang, document.Options{}).Audit,
		BackURL:   "/console/contracts",
		CanCancel: v.Status == signflow.StatusCreated, CancelURL: "/console/contracts/" + v.ID + "/cancel",
		Deliveries: "/console/deliveries?contract=" + v.ID}
	cv.Confirming = cv.CanCancel && c.QueryParam("confirm") == "cancel"
	if v.ActivatedAt() != nil {
		l, err := h.svc.AdminLedger(v.ID)
		if err != nil {
			return err
		}
		cv.Ledger = ledgerOf(d.T, v.Contract, l, h.svc.Now().UTC().Format(time.DateOnly))
	}
	for _, l := range signflow.Languages {
		cv.PDF = append(cv.PDF, pdfLink{Lang: l, Label: "PDF " + l, URL: "/console/contracts/" + v.ID + "/pdf?lang=" + l})
	}
	d.Title = cv.Doc.NumberText + " · " + h.serviceName
	d.Page = cv
	return h.render(c, status, "contract", d)
}

// cancel is POST /console/contracts/{id}/cancel: the administrator
// withdraws a CREATED contract (after the page's confirmation).
func (h *handler) cancel(c echo.Context) error {
	_, err := h.svc.AdminCancel(c.Param("id"), server.Actor(c))
	if refused(err) {
		d := h.start(c, "/console/contracts", "nav.contracts")
		msg := refusalText(d.T, err)
		// Refused as the contract is no longer CREATED: say what it is.
		if v, err := h.svc.AdminContract(c.Param("id")); err == nil && v.Status != signflow.StatusCreated {
			msg = d.T.F("refuse.notCreated", "status", d.T.Or("status."+v.Status, v.Status))
		}
		return h.contractPage(c, d.withError(msg), http.StatusBadRequest)
	} else if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/console/contracts/"+c.Param("id")+"?cancelled=1")
}

// contractPDF is GET /console/contracts/{id}/pdf?lang=uz|ru|en, from the
// PDF cache every route shares.
func (h *handler) contractPDF(c echo.Context) error {
	lang := c.QueryParam("lang")
	if !slices.Contains(signflow.Languages, lang) {
		lang = requestLang(c)
	}
	v, err := h.svc.AdminContract(c.Param("id"))
	if signflow.ErrorCode(err) == signflow.ENOTFOUND {
		return h.missing(c, h.start(c, "/console/contracts", "nav.contracts"), "contractMissing")
	} else if err != nil {
		return err
	}
	return wire.WritePDF(c, h.svc, h.pdfs, v, lang, h.embedded, true)
}
