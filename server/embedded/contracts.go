package embedded

import (
	"bytes"
	"fmt"
	"net/http"
	"slices"

	"contracts/server"
	"contracts/server/pdf"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// contractRequest is the spec's "Contract create request", money in major
// units (at most two decimals).
type contractRequest struct {
	TemplateID     string        `json:"templateId"`
	BuyerIN        string        `json:"buyerIn"`
	SellerIN       string        `json:"sellerIn"`
	Price          amount        `json:"price"`
	Currency       string        `json:"currency"`
	InitialPayment amount        `json:"initialPayment"`
	DeliveryAt     string        `json:"deliveryAt"`
	Values         []valueItem   `json:"values"`
	Payments       []paymentItem `json:"payments"`
	WitnessIDs     []string      `json:"witnessIds"`
	Products       []productItem `json:"products"`
}

// valueItem fills a template field; id and templateId are the service's to
// assign, but a templateId naming another template is refused.
type valueItem struct {
	ID              string `json:"id"`
	Position        int32  `json:"position"`
	Value           string `json:"value"`
	TemplateID      string `json:"templateId"`
	TemplateFieldID string `json:"templateFieldId"`
	KeyName         string `json:"keyName"`
}

type paymentItem struct {
	Amount      amount `json:"amount"`
	PaymentDate string `json:"paymentDate"`
}

type productItem struct {
	Name       string         `json:"name"`
	Unit       string         `json:"unit"`
	Price      amount         `json:"price"`
	Quantity   float64        `json:"quantity"`
	Amount     amount         `json:"amount"`
	DeliveryAt string         `json:"deliveryAt"`
	Values     map[string]any `json:"values"`
}

// input converts the wire request to the domain's, money to minor units
// and dates to UTC, naming the field of the first problem.
func (r *contractRequest) input() (*signflow.ContractInput, error) {
	in := &signflow.ContractInput{TemplateID: r.TemplateID, BuyerIN: r.BuyerIN, SellerIN: r.SellerIN,
		Currency: r.Currency, WitnessIDs: r.WitnessIDs}
	var err error
	if in.Price, err = r.Price.minor("price"); err != nil {
		return nil, err
	}
	if in.InitialPayment, err = r.InitialPayment.minor("initialPayment"); err != nil {
		return nil, err
	}
	if in.DeliveryAt, err = parseDateTime(r.DeliveryAt, "deliveryAt"); err != nil {
		return nil, err
	}
	for i, v := range r.Values {
		if v.TemplateID != "" && v.TemplateID != r.TemplateID {
			return nil, signflow.Errorf(signflow.EINVALID, "values[%d].templateId: must be the contract's templateId", i)
		}
		in.Values = append(in.Values, signflow.ValueInput{TemplateFieldID: v.TemplateFieldID, KeyName: v.KeyName,
			Value: v.Value, Position: v.Position})
	}
	for i, p := range r.Payments {
		var out signflow.Payment
		if out.Amount, err = p.Amount.minor(fmt.Sprintf("payments[%d].amount", i)); err != nil {
			return nil, err
		}
		at, err := parseDateTime(p.PaymentDate, fmt.Sprintf("payments[%d].paymentDate", i))
		if err != nil {
			return nil, err
		}
		if at != nil {
			out.PaymentDate = *at
		}
		in.Payments = append(in.Payments, out)
	}
	for i, p := range r.Products {
		out := signflow.Product{Name: p.Name, Unit: p.Unit, Quantity: p.Quantity, Values: p.Values}
		if out.Price, err = p.Price.minor(fmt.Sprintf("products[%d].price", i)); err != nil {
			return nil, err
		}
		if out.Amount, err = p.Amount.minor(fmt.Sprintf("products[%d].amount", i)); err != nil {
			return nil, err
		}
		if out.DeliveryAt, err = parseDateTime(p.DeliveryAt, fmt.Sprintf("products[%d].deliveryAt", i)); err != nil {
			return nil, err
		}
		in.Products = append(in.Products, out)
	}
	return in, nil
}

type createdContract struct {
	ID string `json:"id"`
}

// createContract is POST /v1/contracts; every rule is signflow's.
func (h *handler) createContract(c echo.Context) error {
	var req contractRequest
	if err := server.Bind(c, &req); err != nil {
		return err
	}
	in, err := req.input()
	if err != nil {
		return err
	}
	out, err := h.svc.CreateContract(access(c), in, actor(c))
	if err != nil {
		return err
	}
	return server.JSON(c, http.StatusOK, createdContract{ID: out.ID})
}

// getContract is GET /v1/contracts/{id}: the embedded read response.
func (h *handler) getContract(c echo.Context) error {
	v, err := h.svc.Contract(access(c), c.Param("id"))
	if err != nil {
		return err
	}
	return writeContract(c, v)
}

// writeContract answers the contract read response (contract_json.go).
func writeContract(c echo.Context, v *signflow.ContractView) error {
	bp := bufPool.Get().(*[]byte)
	b := appendContract((*bp)[:0], v)
	err := c.Blob(http.StatusOK, server.MIMEJSON, b)
	if cap(b) <= 64<<10 {
		*bp = b
		bufPool.Put(bp)
	}
	return err
}

// contractPDF is GET /v1/contracts/{id}/pdf?lang=uz|ru|en (default uz),
// with the audit trail and the public verify URL for the QR code.
func (h *handler) contractPDF(c echo.Context) error {
	lang := c.QueryParam("lang")
	if lang == "" {
		lang = "uz"
	}
	if !slices.Contains(signflow.Languages, lang) {
		return signflow.Errorf(signflow.EINVALID, "lang: must be uz, ru or en")
	}
	v, err := h.svc.Contract(access(c), c.Param("id"))
	if err != nil {
		return err
	}
	audit, err := h.svc.AuditTrail(v.ID)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := pdf.Contract(&buf, v, audit, lang, h.verifyURL(v.Contract)); err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderContentDisposition, fmt.Sprintf(`inline; filename="%s.pdf"`, v.Number))
	return c.Blob(http.StatusOK, "application/pdf", buf.Bytes())
}

// verifyURL is the public check page of a contract (DESIGN §7).
func (h *handler) verifyURL(c *signflow.Contract) string {
	h16 := c.Hash
	if len(h16) > 16 {
		h16 = h16[:16]
	}
	return h.baseURL + "/verify/" + c.ID + "?h=" + h16
}

// cancelContract is POST /v1/contracts/{id}/cancel (DESIGN §4).
func (h *handler) cancelContract(c echo.Context) error {
	return h.change(c, h.svc.Cancel)
}

// completeContract is POST /v1/contracts/{id}/complete (DESIGN §4).
func (h *handler) completeContract(c echo.Context) error {
	return h.change(c, h.svc.Complete)
}

// change applies a creator's transition and answers the contract's read
// response. The change needs only CONTRACTS_WRITE and has itself checked
// that the app may read the contract, so the answer is read with that
// right rather than asking for CONTRACTS_READ as well.
func (h *handler) change(c echo.Context, apply func(*signflow.Access, string, signflow.Actor) (*signflow.Contract, error)) error {
	a := access(c)
	done, err := apply(a, c.Param("id"), actor(c))
	if err != nil {
		return err
	}
	reader := *a
	reader.Scopes = []string{signflow.ScopeContractsRead}
	v, err := h.svc.Contract(&reader, done.ID)
	if err != nil {
		return err
	}
	return writeContract(c, v)
}
