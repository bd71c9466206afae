package console

import (
	"net/http"
	"net/url"
	"strings"

	"contracts/server/document"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// ownersView is the owners page: the list and the form of a new owner.
type ownersView struct {
	Rows     []ownerRow
	Form     signflow.Client // the form's values (kept after a refusal)
	Types    []option
	Payments *merchantsView
}

type ownerRow struct {
	IN, IDLabel, Name, TypeText, Phone, Created string
	Apps, Keys                                  int
	Payments                                    string // the owner's provider accounts, "" for none
}

// owners is GET /console/owners.
func (h *handler) owners(c echo.Context) error {
	d := h.start(c, "/console/owners", "nav.owners")
	q := c.QueryParams()
	switch {
	case q.Get("created") != "":
		d.Notice = d.T.F("ownerSaved", "in", q.Get("created"))
	case q.Get("updated") != "":
		d.Notice = d.T.F("owner.updated", "in", q.Get("updated"), "fields", q.Get("changed"))
	case q.Get("unchanged") != "":
		d.Notice = d.T.F("owner.unchanged", "in", q.Get("unchanged"))
	}
	if in := c.QueryParam("payments"); in != "" {
		d.Notice = d.T.F("payment.accountsSaved", "in", in)
	}
	return h.ownersPage(c, d, &signflow.Client{Type: signflow.ClientCompany}, http.StatusOK)
}

func (h *handler) ownersPage(c echo.Context, d *pageData, form *signflow.Client, status int) error {
	owners, err := h.svc.Owners()
	if err != nil {
		return err
	}
	apps, err := h.svc.Apps()
	if err != nil {
		return err
	}
	keys, err := h.svc.Keys()
	if err != nil {
		return err
	}
	v := &ownersView{Form: *form}
	if v.Payments, err = h.merchantsOf(owners, c.FormValue("owner")); err != nil {
		return err
	}
	for _, typ := range []string{signflow.ClientCompany, signflow.ClientIndividual} {
		v.Types = append(v.Types, option{Value: typ, Label: d.T["clientType."+typ], Selected: form.Type == typ})
	}
	for _, o := range owners {
		row := ownerRow{IN: o.IN, IDLabel: document.IDLabel(d.T, o.IN), Name: signflow.PartyName(o, o.IN),
			TypeText: d.T["clientType."+o.Type], Phone: o.Phone, Created: document.Date(o.CreatedAt)}
		for _, a := range apps {
			if a.OwnerIN == o.IN {
				row.Apps++
			}
		}
		for _, k := range keys {
			if k.OwnerIN == o.IN {
				row.Keys++
			}
		}
		row.Payments = v.Payments.Accounts[o.IN]
		v.Rows = append(v.Rows, row)
	}
	d.Page = v
	return h.render(c, status, "owners", d)
}

// createOwner is POST /console/owners: the fields of POST /admin/v1/owners.
func (h *handler) createOwner(c echo.Context) error {
	in := &signflow.Client{IN: strings.TrimSpace(c.FormValue("in")), Type: c.FormValue("type"),
		LegalName: c.FormValue("legalName"), FirstName: c.FormValue("firstName"), LastName: c.FormValue("lastName"),
		Phone: c.FormValue("phone")}
	if in.Type == signflow.ClientCompany {
		in.FirstName, in.LastName = "", ""
	} else {
		in.LegalName = ""
	}
	form := *in
	out, saved, err := h.svc.SaveOwner(in)
	if refused(err) {
		d := h.start(c, "/console/owners", "nav.owners")
		return h.ownersPage(c, d.withError(refusalText(d.T, err)), &form, http.StatusBadRequest)
	} else if err != nil {
		return err
	}
	// A number used again must not change an owner unseen: say what happened.
	q := url.Values{saved.Result: {out.IN}}
	if saved.Result == signflow.OwnerUpdated {
		q.Set("changed", strings.Join(saved.Changed, ", "))
	}
	return c.Redirect(http.StatusSeeOther, "/console/owners?"+q.Encode())
}
