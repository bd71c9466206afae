package embedded

import (
	"encoding/json"

	"contracts/server/wire"
	"contracts/signflow"
)

// contractResponse is the spec's "Contract (read response)" with the
// embedded interface's additional fields, money in major units. It is the
// reference shape: appendContract (contract_json.go) writes the same bytes
// without reflection, and contract_json_test.go holds the two equal.
type contractResponse struct {
	ID               string           `json:"id"`
	Number           string           `json:"number"`
	Status           string           `json:"status"`
	Purpose          string           `json:"purpose"`
	BuyerStatus      string           `json:"buyerStatus"`
	SellerStatus     string           `json:"sellerStatus"`
	BuyerIN          string           `json:"buyerIn"`
	SellerIN         string           `json:"sellerIn"`
	CreatorIN        string           `json:"creatorIn"`
	Price            json.Number      `json:"price"`
	InitialPayment   json.Number      `json:"initialPayment"`
	Currency         string           `json:"currency"`
	CurrencyID       *string          `json:"currencyId"`
	DeliveryAt       *wire.Time       `json:"deliveryAt"`
	SignBy           *wire.Time       `json:"signBy,omitempty"`
	TemplateID       string           `json:"templateId"`
	TemplateVersion  int              `json:"templateVersion"`
	Template         *templateSummary `json:"template"`
	Buyer            *userObject      `json:"buyer"`
	Seller           *userObject      `json:"seller"`
	CreatedBy        *userObject      `json:"createdBy"`
	BuyerUserID      *string          `json:"buyerUserId"`
	SellerUserID     *string          `json:"sellerUserId"`
	Values           []valueObject    `json:"values"`
	Products         []productObject  `json:"products"`
	Payments         []paymentObject  `json:"payments"`
	WitnessIDs       []string         `json:"witnessIds"`
	Witnesses        []wire.Witness   `json:"witnesses"`
	Deleted          bool             `json:"deleted"`
	CreatedDate      wire.Time        `json:"createdDate"`
	LastModifiedDate wire.Time        `json:"lastModifiedDate"`
	Version          int64            `json:"version"`
}

// userObject is a registered party; a party not registered yet is null.
type userObject struct {
	ID        string  `json:"id"`
	FirstName *string `json:"firstName"`
	LastName  *string `json:"lastName"`
	Phone     *string `json:"phone"`
	LegalName *string `json:"legalName"`
	Type      string  `json:"type"`
}

type valueObject struct {
	ID               string    `json:"id"`
	Position         int32     `json:"position"`
	Value            string    `json:"value"`
	DocumentID       string    `json:"documentId"`
	TemplateID       string    `json:"templateId"`
	TemplateFieldID  string    `json:"templateFieldId"`
	KeyName          string    `json:"keyName"`
	Deleted          bool      `json:"deleted"`
	CreatedDate      wire.Time `json:"createdDate"`
	LastModifiedDate wire.Time `json:"lastModifiedDate"`
}

type productObject struct {
	ID         string         `json:"id"`
	Name       string         `json:"name"`
	Unit       string         `json:"unit"`
	Price      json.Number    `json:"price"`
	Quantity   float64        `json:"quantity"`
	Amount     json.Number    `json:"amount"`
	DeliveryAt *wire.Time     `json:"deliveryAt"`
	Values     map[string]any `json:"values"`
}

type paymentObject struct {
	Amount      json.Number `json:"amount"`
	PaymentDate wire.Time   `json:"paymentDate"`
}

type templateSummary struct {
	ID           string        `json:"id"`
	Name         signflow.Text `json:"name"`
	SellerName   signflow.Text `json:"sellerName"`
	BuyerName    signflow.Text `json:"buyerName"`
	ExchangeMode string        `json:"exchangeMode"`
}

func contractOf(v *signflow.ContractView) *contractResponse {
	c := v.Contract
	out := &contractResponse{ID: c.ID, Number: c.Number, Status: c.Status, Purpose: c.Purpose,
		BuyerStatus: c.BuyerStatus, SellerStatus: c.SellerStatus, BuyerIN: c.BuyerIN, SellerIN: c.SellerIN,
		CreatorIN: c.CreatorIN, Price: major(c.Price), InitialPayment: major(c.InitialPayment), Currency: c.Currency,
		CurrencyID: currencyID(c.Currency), DeliveryAt: wire.OptTime(c.DeliveryAt), SignBy: wire.OptTime(c.SignBy), TemplateID: c.TemplateID, TemplateVersion: c.FromVersion(),
		Buyer: userOf(v.Buyer), Seller: userOf(v.Seller), CreatedBy: userOf(v.Creator),
		BuyerUserID: userID(v.Buyer), SellerUserID: userID(v.Seller),
		Values: make([]valueObject, 0, len(c.Values)), Products: make([]productObject, 0, len(c.Products)),
		Payments: make([]paymentObject, 0, len(c.Payments)), WitnessIDs: c.WitnessIDs, Witnesses: wire.Witnesses(c), Deleted: c.Deleted,
		CreatedDate: wire.Time(c.CreatedAt), LastModifiedDate: wire.Time(c.UpdatedAt), Version: c.Version}
	if out.WitnessIDs == nil {
		out.WitnessIDs = []string{}
	}
	if t := v.Template; t != nil {
		out.Template = &templateSummary{ID: t.ID, Name: t.Name, SellerName: t.SellerName, BuyerName: t.BuyerName,
			ExchangeMode: t.ExchangeMode}
	}
	for _, val := range c.Values {
		out.Values = append(out.Values, valueObject{ID: val.ID, Position: val.Position, Value: val.Value,
			DocumentID: c.ID, TemplateID: val.TemplateID, TemplateFieldID: val.TemplateFieldID, KeyName: val.KeyName,
			CreatedDate: wire.Time(val.CreatedAt), LastModifiedDate: wire.Time(val.UpdatedAt)})
	}
	for _, p := range c.Products {
		values := p.Values
		if values == nil {
			values = map[string]any{}
		}
		out.Products = append(out.Products, productObject{ID: p.ID, Name: p.Name, Unit: p.Unit, Price: major(p.Price),
			Quantity: p.Quantity, Amount: major(p.Amount), DeliveryAt: wire.OptTime(p.DeliveryAt), Values: values})
	}
	for _, p := range c.Payments {
		out.Payments = append(out.Payments, paymentObject{Amount: major(p.Amount), PaymentDate: wire.Time(p.PaymentDate)})
	}
	return out
}

func userOf(c *signflow.Client) *userObject {
	if c == nil {
		return nil
	}
	return &userObject{ID: c.ID, FirstName: wire.OptString(c.FirstName), LastName: wire.OptString(c.LastName),
		Phone: wire.OptString(c.Phone), LegalName: wire.OptString(c.LegalName), Type: c.Type}
}

func userID(c *signflow.Client) *string {
	if c == nil {
		return nil
	}
	return &c.ID
}
