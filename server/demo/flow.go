package demo

import (
	"net/http"
	"net/url"
	"slices"
	"sort"
	"time"

	"contracts/server"
	"contracts/server/wire"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// create is POST /demo: a new contract with the demo app, and the buyer's
// signing session.
func (h *handler) create(c echo.Context) error {
	a, err := h.access()
	if err != nil {
		return err
	}
	tpl, err := h.template(a)
	if err != nil {
		return err
	}
	contract, err := h.Service.CreateContract(a, contractFor(tpl, h.CustomerIN, h.customerAddress(a), h.Service.Now()), server.Actor(c))
	if err != nil {
		return err
	}
	return h.sign(c, a, contract, contract.BuyerIN, "demo.signBuyer", "demo.buyer")
}

// seller is POST /demo/seller {contract}: the seller's signing session of
// a demo contract, so that both signatures come from this page.
func (h *handler) seller(c echo.Context) error {
	a, err := h.access()
	if err != nil {
		return err
	}
	v, err := h.Service.Contract(a, c.FormValue("contract"))
	if err != nil {
		return err
	}
	if c.FormValue("party") == "buyer" {
		return h.sign(c, a, v.Contract, v.BuyerIN, "demo.signBuyer", "demo.buyer")
	}
	return h.sign(c, a, v.Contract, v.SellerIN, "demo.signSeller", "demo.seller")
}

// sign opens a session of the contract for signer and renders the page
// that mounts it.
func (h *handler) sign(c echo.Context, a *signflow.Access, contract *signflow.Contract, signer, step, party string) error {
	d := h.data(c)
	origin := c.Scheme() + "://" + c.Request().Host
	// Only an https origin, or http on a loopback name, can be the framing
	// page's; the demo reached over plain http by a LAN name frames without.
	parent, ok := signflow.ParseOrigin(origin)
	if !ok {
		parent = ""
	}
	sess, token, err := h.Service.OpenSession(a, contract.ID, signflow.SessionRequest{SignerIN: signer, Lang: d.Lang,
		ParentOrigin: parent, RedirectURL: origin + "/demo/done?contract=" + contract.ID + "&lang=" + d.Lang}, server.Actor(c))
	if err != nil {
		return err
	}
	d.View, d.Step = "sign", d.T[step]
	d.LangURL = "/demo/done?contract=" + url.QueryEscape(contract.ID) + "&lang="
	d.Intro = d.T.F("demo.signIntro", "number", contract.Number, "signer", d.T[party])
	d.Number, d.ContractID, d.SessionID, d.SignerIN = contract.Number, contract.ID, sess.ID, sess.SignerIN
	d.SessionStatus, d.ContractStatus = sess.Status, contract.Status
	d.EmbeddedOrigin, d.SDKURL = h.EmbeddedBaseURL, h.EmbeddedBaseURL+"/sdk.js"
	d.Config = pageConfig{SignURL: h.EmbeddedBaseURL + "/sign/" + token,
		StatusURL: "/demo/status?contract=" + url.QueryEscape(contract.ID) + "&session=" + url.QueryEscape(sess.ID)}
	return h.render(c, http.StatusOK, d)
}

// status is the page's server-side check: the authoritative state.
func (h *handler) status(c echo.Context) error {
	a, err := h.access()
	if err != nil {
		return err
	}
	sess, err := h.Service.SessionForApp(a, c.QueryParam("session"))
	if err != nil {
		return err
	}
	v, err := h.Service.Contract(a, c.QueryParam("contract"))
	if err != nil {
		return err
	}
	return server.JSON(c, http.StatusOK, map[string]string{"sessionStatus": sess.EffectiveStatus(h.Service.Now()),
		"contractStatus": v.Status, "buyerStatus": v.BuyerStatus, "sellerStatus": v.SellerStatus})
}

// done is where Continue leads: the contract's state as the server holds
// it, and the next step — the seller's signature, or the sealed PDF and
// the verify page once it is ACTIVE.
func (h *handler) done(c echo.Context) error {
	a, err := h.access()
	if err != nil {
		return err
	}
	v, err := h.Service.Contract(a, c.QueryParam("contract"))
	if err != nil {
		return err
	}
	d := h.data(c)
	d.View, d.Contract, d.Number, d.ContractID = "done", v.Contract, v.Number, v.ID
	d.LangURL = "/demo/done?contract=" + url.QueryEscape(v.ID) + "&lang="
	d.Step = d.T.F("demo.doneTitle", "number", v.Number)
	d.State = d.T.F("demo.doneState", "status", v.Status, "buyer", v.BuyerStatus, "seller", v.SellerStatus)
	switch {
	case v.Status == signflow.StatusActive:
		d.Next = "active"
		d.PDFURL = "/demo/pdf?contract=" + url.QueryEscape(v.ID) + "&lang=" + d.Lang
		d.VerifyURL = signflow.VerifyURL(h.EmbeddedBaseURL, v.Contract) + "&lang=" + d.Lang
	case v.Status != signflow.StatusCreated:
		d.Next = "ended"
	case v.BuyerStatus == signflow.PartyAccepted && v.SellerStatus == signflow.PartyPending:
		d.Next = "seller"
	default:
		d.Next = "buyer"
	}
	return h.render(c, http.StatusOK, d)
}

// pdf is GET /demo/pdf?contract=&lang=: the contract's PDF as every route
// serves it, sealed.
func (h *handler) pdf(c echo.Context) error {
	a, err := h.access()
	if err != nil {
		return err
	}
	v, err := h.Service.Contract(a, c.QueryParam("contract"))
	if err != nil {
		return err
	}
	lang := c.QueryParam("lang")
	if !slices.Contains(signflow.Languages, lang) {
		lang = "uz"
	}
	return wire.WritePDF(c, h.Service, h.PDF, v, lang, h.EmbeddedBaseURL, true)
}

// access is the demo app's access, as its token would grant.
func (h *handler) access() (*signflow.Access, error) {
	var a *signflow.Access
	err := h.Service.Store().View(func(tx signflow.Tx) error {
		app, err := tx.App(h.AppID)
		if err != nil {
			return err
		}
		if err := app.Usable(h.Service.Now()); err != nil {
			return err
		}
		a = app.Access()
		return nil
	})
	return a, err
}

// template is the demo template: Deps.TemplateID, else the oldest published
// template the app may use.
func (h *handler) template(a *signflow.Access) (*signflow.Template, error) {
	var out *signflow.Template
	err := h.Service.Store().View(func(tx signflow.Tx) error {
		if h.TemplateID != "" {
			var err error
			out, err = tx.Template(h.TemplateID)
			return err
		}
		all, err := tx.Templates()
		if err != nil {
			return err
		}
		sort.Slice(all, func(i, j int) bool { return all[i].CreatedAt.Before(all[j].CreatedAt) })
		for _, t := range all {
			if t.Status == signflow.TemplatePublished && a.TemplateAllowed(t.ID) {
				out = t
				return nil
			}
		}
		return signflow.Errorf(signflow.ENOTFOUND, "The demo app has no published template.")
	})
	return out, err
}

// customerAddress is the customer's address as the demo app's tenant knows it.
func (h *handler) customerAddress(a *signflow.Access) string {
	if c, err := h.Service.FindClient(a, h.CustomerIN); err == nil && c.Address != "" {
		return c.Address
	}
	return "Toshkent, Chilonzor 7"
}

// contractFor fills what the template has room for: a phone and a case,
// an initial payment and two instalments, delivery in three days.
func contractFor(t *signflow.Template, customerIN, address string, now time.Time) *signflow.ContractInput {
	day := func(days int) *time.Time { d := now.UTC().Truncate(24*time.Hour).AddDate(0, 0, days); return &d }
	in := &signflow.ContractInput{TemplateID: t.ID, BuyerIN: customerIN, Price: 465000000, Currency: "UZS", DeliveryAt: day(3)}
	if !t.CurrencyAllowed("UZS") && len(t.EnabledCurrencies) > 0 {
		in.Currency = t.EnabledCurrencies[0]
	}
	for _, v := range [][2]string{{"deliveryAddress", address}, {"warrantyMonths", "12"}} {
		if f := t.FieldByKey(v[0]); f != nil && !f.ProductField {
			in.Values = append(in.Values, signflow.ValueInput{KeyName: v[0], Value: v[1]})
		}
	}
	if t.ProductEnabled {
		phone := signflow.Product{Name: "Smartphone Nova X", Unit: "DONA", Quantity: 1, Price: 450000000}
		if f := t.FieldByKey("color"); f != nil && f.ProductField {
			phone.Values = map[string]any{"color": "Graphite"}
		}
		in.Products = []signflow.Product{phone, {Name: "Silicone case", Unit: "DONA", Quantity: 2, Price: 7500000}}
	}
	rest := in.Price
	if t.InitialPaymentEnabled {
		in.InitialPayment = 100000000
		rest -= in.InitialPayment
	}
	if t.PaymentScheduleEnabled {
		in.Payments = []signflow.Payment{{Amount: rest / 2, PaymentDate: *day(30)}, {Amount: rest - rest/2, PaymentDate: *day(60)}}
	}
	return in
}
