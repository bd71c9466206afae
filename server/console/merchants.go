package console

import (
	"net/http"
	"net/url"
	"strings"

	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// merchantsView is the owners page's form of an owner's accounts with
// the payment providers, and which owners have them.
type merchantsView struct {
	Owners   []option
	Accounts map[string]string // owner's number -> "Payme · Click"
}

// merchantsOf lists each owner's provider accounts (ids only).
func (h *handler) merchantsOf(owners []*signflow.Client, selected string) (*merchantsView, error) {
	v := &merchantsView{Accounts: map[string]string{}}
	for _, o := range owners {
		v.Owners = append(v.Owners, option{Value: o.IN, Label: signflow.PartyName(o, o.IN) + " · " + o.IN, Selected: o.IN == selected})
		m, err := h.svc.Merchant(o.IN)
		if signflow.ErrorCode(err) == signflow.ENOTFOUND {
			continue
		} else if err != nil {
			return nil, err
		}
		var names []string
		if m.Payme != nil {
			names = append(names, "Payme "+m.Payme.MerchantID)
		}
		if m.Click != nil {
			names = append(names, "Click "+m.Click.ServiceID)
		}
		v.Accounts[o.IN] = strings.Join(names, " · ")
	}
	return v, nil
}

// setMerchant is POST /console/owners/payments: the fields of POST
// /admin/v1/owners/{in}/payments; a provider whose fields are all empty
// keeps its account.
func (h *handler) setMerchant(c echo.Context) error {
	f := func(name string) string { return strings.TrimSpace(c.FormValue(name)) }
	in := &signflow.MerchantInput{}
	if p := (signflow.PaymeInput{MerchantID: f("paymeMerchantId"), Key: f("paymeKey")}); p != (signflow.PaymeInput{}) {
		in.Payme = &p
	}
	if k := (signflow.ClickInput{ServiceID: f("clickServiceId"), MerchantID: f("clickMerchantId"), SecretKey: f("clickSecretKey")}); k != (signflow.ClickInput{}) {
		in.Click = &k
	}
	owner := f("owner")
	_, err := h.svc.SetMerchant(owner, in)
	if refused(err) {
		d := h.start(c, "/console/owners", "nav.owners")
		return h.ownersPage(c, d.withError(refusalText(d.T, err)), &signflow.Client{Type: signflow.ClientCompany}, http.StatusBadRequest)
	} else if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/console/owners?payments="+url.QueryEscape(owner))
}
