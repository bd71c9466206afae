// Package demo serves /demo on the admin listener when the appliance runs
// with --demo: a tiny integrator page. Server-side, with the demo app's
// access, it creates a contract between the app's owner and the demo
// customer, opens a signing session for the customer, and shows the signing
// iframe through the service's sdk.js, listing the events it receives.
package demo

import (
	"bytes"
	"html/template"
	"net/http"
	"sort"
	"strings"
	"time"

	"contracts/assets"
	"contracts/server"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// Deps is what the demo page needs.
type Deps struct {
	// Service is the domain the page acts on.
	Service *signflow.Service
	// AppID is the demo app; the page acts with its access, as an integrator's server would.
	AppID string
	// TemplateID is the template of the demo contracts; empty means the
	// oldest published template the app may use (the seeded demo template).
	TemplateID string
	// CustomerIN is the party who signs in the iframe; default 31234567890123.
	CustomerIN string
	// EmbeddedBaseURL is embedded.baseURL, where /sign/<token> and /sdk.js are served.
	EmbeddedBaseURL string
	// ServiceName names the service in the page; default "Contracts".
	ServiceName string
}

// DefaultCustomerIN is the demo customer seeded by serve --demo.
const DefaultCustomerIN = "31234567890123"

// Register mounts GET /demo, its status check and the page Continue leads to.
func Register(e *echo.Echo, d Deps) {
	if d.CustomerIN == "" {
		d.CustomerIN = DefaultCustomerIN
	}
	if d.ServiceName == "" {
		d.ServiceName = "Contracts"
	}
	d.EmbeddedBaseURL = strings.TrimRight(d.EmbeddedBaseURL, "/")
	h := &handler{Deps: d, page: template.Must(template.New("demo").Parse(string(assets.DemoPage)))}
	e.GET("/demo", h.show)
	e.GET("/demo/status", h.status)
	e.GET("/demo/done", h.done)
}

type handler struct {
	Deps
	page *template.Template
}

type pageData struct {
	ServiceName, Lang                             string
	Langs                                         []string
	Number, ContractID, SessionID, SignerIN       string
	SessionStatus, ContractStatus, EmbeddedOrigin string
	SDKURL                                        string
	Config                                        pageConfig
}

type pageConfig struct {
	SignURL   string `json:"signUrl"`
	StatusURL string `json:"statusUrl"`
}

// show creates a fresh contract and session and renders the integrator page.
func (h *handler) show(c echo.Context) error {
	lang := c.QueryParam("lang")
	if lang == "" {
		lang = "en"
	}
	a, err := h.access()
	if err != nil {
		return err
	}
	tpl, err := h.template(a)
	if err != nil {
		return err
	}
	actor := server.Actor(c)
	contract, err := h.Service.CreateContract(a, contractFor(tpl, h.CustomerIN, h.customerAddress(a), h.Service.Now()), actor)
	if err != nil {
		return err
	}
	origin := c.Scheme() + "://" + c.Request().Host
	// Only an https origin, or http on a loopback name, can be the framing
	// page's; the demo reached over plain http by a LAN name frames without.
	parent, ok := signflow.ParseOrigin(origin)
	if !ok {
		parent = ""
	}
	sess, token, err := h.Service.OpenSession(a, contract.ID, signflow.SessionRequest{SignerIN: h.CustomerIN, Lang: lang,
		ParentOrigin: parent, RedirectURL: origin + "/demo/done?contract=" + contract.ID}, actor)
	if err != nil {
		return err
	}
	d := pageData{ServiceName: h.ServiceName, Lang: lang, Langs: signflow.Languages, Number: contract.Number, ContractID: contract.ID,
		SessionID: sess.ID, SignerIN: sess.SignerIN, SessionStatus: sess.Status, ContractStatus: contract.Status,
		EmbeddedOrigin: h.EmbeddedBaseURL, SDKURL: h.EmbeddedBaseURL + "/sdk.js",
		Config: pageConfig{SignURL: h.EmbeddedBaseURL + "/sign/" + token,
			StatusURL: "/demo/status?contract=" + contract.ID + "&session=" + sess.ID}}
	var buf bytes.Buffer
	if err := h.page.Execute(&buf, d); err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.HTMLBlob(http.StatusOK, buf.Bytes())
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

var donePage = template.Must(template.New("done").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Thank you · Demo shop</title>
<style>body{margin:0;background:#eef1f6;color:#141a26;font:15px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,"Liberation Sans",Arial,sans-serif}
main{max-width:560px;margin:60px auto;padding:28px;background:#fff;border:1px solid #e3e7ef;border-radius:16px}
h1{font-size:22px;margin:0 0 8px}code{font:13px ui-monospace,"DejaVu Sans Mono",monospace}a{color:#2450e6;font-weight:600}</style></head>
<body><main><h1>Thank you</h1>
<p>The shop's server checked contract <b>{{.Number}}</b>: status <code>{{.Status}}</code>, buyer <code>{{.BuyerStatus}}</code>, seller <code>{{.SellerStatus}}</code>.</p>
<p><a href="/demo">Sign another contract</a></p></main></body></html>`))

// done is where Continue leads: the contract's state as the server holds it.
func (h *handler) done(c echo.Context) error {
	a, err := h.access()
	if err != nil {
		return err
	}
	v, err := h.Service.Contract(a, c.QueryParam("contract"))
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := donePage.Execute(&buf, v.Contract); err != nil {
		return err
	}
	return c.HTMLBlob(http.StatusOK, buf.Bytes())
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
