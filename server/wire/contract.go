package wire

import (
	"fmt"
	"net/http"
	"slices"
	"time"

	"contracts/server/pdf"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// ContractRequest is the spec's "Contract create request", the same on both
// interfaces but for the unit of its money values.
type ContractRequest struct {
	TemplateID     string        `json:"templateId"`
	BuyerIN        string        `json:"buyerIn"`
	SellerIN       string        `json:"sellerIn"`
	Price          Amount        `json:"price"`
	Currency       string        `json:"currency"`
	InitialPayment Amount        `json:"initialPayment"`
	DeliveryAt     string        `json:"deliveryAt"`
	SignBy         string        `json:"signBy"`
	Values         []ValueItem   `json:"values"`
	Payments       []PaymentItem `json:"payments"`
	WitnessIDs     []string      `json:"witnessIds"`
	Products       []ProductItem `json:"products"`
}

// ValueItem fills a template field; its id is the service's to assign, and
// a templateId naming another template is refused.
type ValueItem struct {
	ID              string `json:"id"`
	Position        int32  `json:"position"`
	Value           string `json:"value"`
	TemplateID      string `json:"templateId"`
	TemplateFieldID string `json:"templateFieldId"`
	KeyName         string `json:"keyName"`
}

// PaymentItem is one entry of the payment schedule.
type PaymentItem struct {
	Amount      Amount `json:"amount"`
	PaymentDate string `json:"paymentDate"`
}

// ProductItem is one line of the goods list.
type ProductItem struct {
	Name       string         `json:"name"`
	Unit       string         `json:"unit"`
	Price      Amount         `json:"price"`
	Quantity   float64        `json:"quantity"`
	Amount     Amount         `json:"amount"`
	DeliveryAt string         `json:"deliveryAt"`
	Values     map[string]any `json:"values"`
}

// Input converts the request to the domain's, money read in unit u and
// dates to UTC, naming the field of the first problem. Parties are left as
// given: the service puts the owner in an empty one.
func (r *ContractRequest) Input(u Unit) (*signflow.ContractInput, error) {
	in := &signflow.ContractInput{TemplateID: r.TemplateID, BuyerIN: r.BuyerIN, SellerIN: r.SellerIN,
		Currency: r.Currency, WitnessIDs: r.WitnessIDs}
	var err error
	if in.Price, err = r.Price.In(u, "price"); err != nil {
		return nil, err
	}
	if in.InitialPayment, err = r.InitialPayment.In(u, "initialPayment"); err != nil {
		return nil, err
	}
	if in.DeliveryAt, err = ParseDateTime(r.DeliveryAt, "deliveryAt"); err != nil {
		return nil, err
	}
	if in.SignBy, err = ParseDateTime(r.SignBy, "signBy"); err != nil {
		return nil, err
	}
	if len(r.Values) > 0 {
		in.Values = make([]signflow.ValueInput, 0, len(r.Values))
	}
	if len(r.Payments) > 0 {
		in.Payments = make([]signflow.Payment, 0, len(r.Payments))
	}
	if len(r.Products) > 0 {
		in.Products = make([]signflow.Product, 0, len(r.Products))
	}
	for i, v := range r.Values {
		if v.TemplateID != "" && v.TemplateID != r.TemplateID {
			return nil, signflow.Errorf(signflow.EINVALID, "values[%d].templateId: must be the contract's templateId", i)
		}
		in.Values = append(in.Values, signflow.ValueInput{TemplateFieldID: v.TemplateFieldID, KeyName: v.KeyName,
			Value: v.Value, Position: v.Position})
	}
	for i, p := range r.Payments {
		var pay signflow.Payment
		if pay.Amount, err = amountOf(p.Amount, u, "payments[%d].amount", i); err != nil {
			return nil, err
		}
		at, err := dateOf(p.PaymentDate, "payments[%d].paymentDate", i)
		if err != nil {
			return nil, err
		}
		if at != nil {
			pay.PaymentDate = *at
		}
		in.Payments = append(in.Payments, pay)
	}
	for i, p := range r.Products {
		prod := signflow.Product{Name: p.Name, Unit: p.Unit, Quantity: p.Quantity, Values: p.Values}
		if prod.Price, err = amountOf(p.Price, u, "products[%d].price", i); err != nil {
			return nil, err
		}
		if prod.Amount, err = amountOf(p.Amount, u, "products[%d].amount", i); err != nil {
			return nil, err
		}
		if prod.DeliveryAt, err = dateOf(p.DeliveryAt, "products[%d].deliveryAt", i); err != nil {
			return nil, err
		}
		in.Products = append(in.Products, prod)
	}
	return in, nil
}

// amountOf is a.In(u) for the field of item i that format names; the name
// is made only for an error (a create has several items, few errors).
func amountOf(a Amount, u Unit, format string, i int) (int64, error) {
	v, err := a.In(u, "")
	if err != nil {
		_, err = a.In(u, fmt.Sprintf(format, i))
	}
	return v, err
}

// dateOf is ParseDateTime for the field of item i that format names.
func dateOf(s, format string, i int) (*time.Time, error) {
	t, err := ParseDateTime(s, "")
	if err != nil {
		_, err = ParseDateTime(s, fmt.Sprintf(format, i))
	}
	return t, err
}

// ContractPDF answers GET /v1/contracts/{id}/pdf?lang=uz|ru|en (default uz):
// the contract the caller may read, with its audit trail and a QR code of
// its public verify page on verifyBaseURL (the embedded listener), made
// and kept by the appliance's one PDF cache.
func ContractPDF(c echo.Context, svc *signflow.Service, pdfs *pdf.Cache, a *signflow.Access, verifyBaseURL string) error {
	lang := c.QueryParam("lang")
	if lang == "" {
		lang = "uz"
	}
	if !slices.Contains(signflow.Languages, lang) {
		return signflow.Errorf(signflow.EINVALID, "lang: must be uz, ru or en")
	}
	v, err := svc.Contract(a, c.Param("id"))
	if err != nil {
		return err
	}
	return WritePDF(c, svc, pdfs, v, lang, verifyBaseURL, false)
}

// WritePDF answers the PDF of v in lang with its audit trail, from the
// appliance's one PDF cache: shown in place for the interfaces, or, for a
// page's download link, saved under a name with its language and never
// kept by the browser's cache (the pages are behind a login).
func WritePDF(c echo.Context, svc *signflow.Service, pdfs *pdf.Cache, v *signflow.ContractView, lang, verifyBaseURL string, download bool) error {
	audit, err := svc.AuditTrail(v.ID)
	if err != nil {
		return err
	}
	// The QR of a ru or en PDF opens the verify page in the PDF's language.
	verifyURL := signflow.VerifyURL(verifyBaseURL, v.Contract)
	if lang != "uz" {
		verifyURL += "&lang=" + lang
	}
	doc, err := pdfs.Contract(c.Request().Context(), v, audit, lang, verifyURL)
	if err != nil {
		return err
	}
	hd := c.Response().Header()
	if download {
		hd.Set(echo.HeaderContentDisposition, `attachment; filename="contract-`+v.Number+`-`+lang+`.pdf"`)
		hd.Set("Cache-Control", "no-store")
	} else {
		hd.Set(echo.HeaderContentDisposition, `inline; filename="contract-`+v.Number+`.pdf"`)
	}
	return c.Blob(http.StatusOK, "application/pdf", doc)
}
