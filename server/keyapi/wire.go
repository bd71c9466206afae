package keyapi

import (
	"encoding/json"

	"contracts/server/wire"
	"contracts/signflow"
)

// contractResponse is the key interface's "Contract (read response)":
// money in minor units, none of the embedded-only fields.
type contractResponse struct {
	ID             string        `json:"id"`
	Number         string        `json:"number"`
	Status         string        `json:"status"`
	Purpose        string        `json:"purpose"`
	BuyerStatus    string        `json:"buyerStatus"`
	SellerStatus   string        `json:"sellerStatus"`
	BuyerIN        string        `json:"buyerIn"`
	SellerIN       string        `json:"sellerIn"`
	CreatorIN      string        `json:"creatorIn"`
	Price          json.Number   `json:"price"`
	InitialPayment json.Number   `json:"initialPayment"`
	Currency       string        `json:"currency"`
	DeliveryAt     *wire.Time    `json:"deliveryAt"`
	SignBy         *wire.Time    `json:"signBy,omitempty"`
	TemplateID     string        `json:"templateId"`
	Buyer          *user         `json:"buyer"`
	Seller         *user         `json:"seller"`
	CreatedBy      *user         `json:"createdBy"`
	Values         []valueObject `json:"values"`
	CreatedDate    wire.Time     `json:"createdDate"`

	// TemplateVersion is the version of the template the contract was made from.
	TemplateVersion int `json:"templateVersion"`
	// Witnesses are in list items too.
	Witnesses []wire.Witness `json:"witnesses"`
}

// user is the key interface's user object: the names and type shown in the
// spec's key example plus legalName, so that a company party has a name.
// It never carries the id, phone or passport. A party that is not
// registered is null.
type user struct {
	FirstName *string `json:"firstName"`
	LastName  *string `json:"lastName"`
	LegalName *string `json:"legalName"`
	Type      string  `json:"type"`
}

// valueObject is a filled template field of a contract.
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

// contractOf renders a contract view; withValues is false in list items,
// whose values are always empty.
func contractOf(v *signflow.ContractView, withValues bool) contractResponse {
	out := contractResponse{ID: v.ID, Number: v.Number, Status: v.Status, Purpose: v.Purpose, BuyerStatus: v.BuyerStatus,
		SellerStatus: v.SellerStatus, BuyerIN: v.BuyerIN, SellerIN: v.SellerIN, CreatorIN: v.CreatorIN,
		Price: signflow.MinorNumber(v.Price), InitialPayment: signflow.MinorNumber(v.InitialPayment), Currency: v.Currency,
		DeliveryAt: wire.OptTime(v.DeliveryAt), SignBy: wire.OptTime(v.SignBy), TemplateID: v.TemplateID, TemplateVersion: v.FromVersion(), Buyer: userOf(v.Buyer), Seller: userOf(v.Seller),
		CreatedBy: userOf(v.Creator), Values: []valueObject{}, CreatedDate: wire.Time(v.CreatedAt), Witnesses: wire.Witnesses(v.Contract)}
	if withValues {
		for _, val := range v.Values {
			out.Values = append(out.Values, valueObject{ID: val.ID, Position: val.Position, Value: val.Value, DocumentID: v.ID,
				TemplateID: val.TemplateID, TemplateFieldID: val.TemplateFieldID, KeyName: val.KeyName,
				CreatedDate: wire.Time(val.CreatedAt), LastModifiedDate: wire.Time(val.UpdatedAt)})
		}
	}
	return out
}

func userOf(c *signflow.Client) *user {
	if c == nil {
		return nil
	}
	return &user{FirstName: wire.OptString(c.FirstName), LastName: wire.OptString(c.LastName), LegalName: wire.OptString(c.LegalName), Type: c.Type}
}
