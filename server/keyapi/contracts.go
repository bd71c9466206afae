package keyapi

import (
	"net/http"

	"contracts/server"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// contractRequest is the spec's "Contract create request" with every money
// value (price, initialPayment, payment amount, product price and amount)
// in minor units, which must be whole.
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

// valueItem fills a template field; its id is the service's to assign, and
// a templateId naming another template is refused.
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

// input converts the wire request to the domain's, naming the field of the
// first problem. Parties are left as given: the service puts the owner in
// an empty one.
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
		var pay signflow.Payment
		if pay.Amount, err = p.Amount.minor(sprintf("payments[%d].amount", i)); err != nil {
			return nil, err
		}
		at, err := parseDateTime(p.PaymentDate, sprintf("payments[%d].paymentDate", i))
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
		if prod.Price, err = p.Price.minor(sprintf("products[%d].price", i)); err != nil {
			return nil, err
		}
		if prod.Amount, err = p.Amount.minor(sprintf("products[%d].amount", i)); err != nil {
			return nil, err
		}
		if prod.DeliveryAt, err = parseDateTime(p.DeliveryAt, sprintf("products[%d].deliveryAt", i)); err != nil {
			return nil, err
		}
		in.Products = append(in.Products, prod)
	}
	return in, nil
}

// createContract is POST /v1/contracts. An empty party is the key owner;
// both parties foreign is 403, both empty 400 (rule 2 of the key interface).
func (h *handler) createContract(c echo.Context) error {
	var req contractRequest
	if err := server.Bind(c, &req); err != nil {
		return err
	}
	in, err := req.input()
	if err != nil {
		return err
	}
	ct, err := h.svc.CreateContract(access(c), in, actor(c))
	if err != nil {
		return err
	}
	return server.JSON(c, http.StatusOK, map[string]string{"id": ct.ID})
}

// readContract is GET /v1/contracts/{id}: 404 when unknown, 403 when the
// owner takes no part or the template is outside the key's.
func (h *handler) readContract(c echo.Context) error {
	v, err := h.svc.Contract(access(c), c.Param("id"))
	if err != nil {
		return err
	}
	return server.JSON(c, http.StatusOK, contractOf(v, true))
}

// cancelContract is POST /v1/contracts/{id}/cancel (DESIGN §4): the creator
// withdraws a CREATED contract. It answers the contract read response.
func (h *handler) cancelContract(c echo.Context) error {
	return h.change(c, h.svc.Cancel)
}

// completeContract is POST /v1/contracts/{id}/complete (DESIGN §4): the
// creator marks an ACTIVE contract fulfilled.
func (h *handler) completeContract(c echo.Context) error {
	return h.change(c, h.svc.Complete)
}

func (h *handler) change(c echo.Context, apply func(*signflow.Access, string, signflow.Actor) (*signflow.Contract, error)) error {
	ct, err := apply(access(c), c.Param("id"), actor(c))
	if err != nil {
		return err
	}
	// The answer needs only the parties beside the record, so a key with
	// CONTRACTS_WRITE alone gets it too.
	v := &signflow.ContractView{Contract: ct}
	v.Buyer, v.Seller, v.Creator = h.client(ct.BuyerIN), h.client(ct.SellerIN), h.client(ct.CreatorIN)
	return server.JSON(c, http.StatusOK, contractOf(v, true))
}

// client is the registered client with the number, nil when there is none.
func (h *handler) client(in string) *signflow.Client {
	cl, err := h.svc.FindClient(in)
	if err != nil {
		return nil
	}
	return cl
}
