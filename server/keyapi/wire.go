package keyapi

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"

	"contracts/signflow"
)

// timeLayout is the one date-time form on the wire: UTC, whole seconds.
const timeLayout = "2006-01-02T15:04:05Z"

// wireTime writes a time as "YYYY-MM-DDThh:mm:ssZ".
type wireTime time.Time

// MarshalText renders the time in UTC.
func (t wireTime) MarshalText() ([]byte, error) {
	return time.Time(t).UTC().AppendFormat(make([]byte, 0, len(timeLayout)), timeLayout), nil
}

// optTime is a wire time, nil (JSON null) when t is nil or zero.
func optTime(t *time.Time) *wireTime {
	if t == nil || t.IsZero() {
		return nil
	}
	w := wireTime(*t)
	return &w
}

// optString is s, nil (JSON null) when empty: the spec's "may be null".
func optString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// parseDateTime reads a request date-time: RFC 3339 with any offset (and
// optional fraction), or a plain YYYY-MM-DD read as midnight UTC. Empty is
// nil. The result is UTC in whole seconds.
func parseDateTime(s, field string) (*time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		if t, err = time.ParseInLocation(time.DateOnly, s, time.UTC); err != nil {
			return nil, signflow.Errorf(signflow.EINVALID, "%s: must be a date-time such as 2026-01-31T10:00:00Z", field)
		}
	}
	u := signflow.UTC(t)
	return &u, nil
}

// amount is a request's money value in minor units. It accepts only a JSON
// number (or null, meaning absent) and keeps its exact text, so that a
// fraction can be refused; any other JSON type is an UnmarshalTypeError,
// which the decoder names with its field.
type amount json.Number

// UnmarshalJSON keeps the number's text.
func (n *amount) UnmarshalJSON(b []byte) error {
	switch {
	case string(b) == "null":
		*n = ""
		return nil
	case len(b) > 0 && (b[0] == '-' || (b[0] >= '0' && b[0] <= '9')):
		*n = amount(b)
		return nil
	}
	return &json.UnmarshalTypeError{Value: jsonKindOf(b), Type: reflect.TypeFor[int64]()}
}

// minor is the amount in minor units; it must be whole. field names it in errors.
func (n amount) minor(field string) (int64, error) {
	return signflow.MinorFromInteger(json.Number(n), field)
}

func jsonKindOf(b []byte) string {
	if len(b) == 0 {
		return "nothing"
	}
	switch b[0] {
	case '"':
		return "string"
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "bool"
	}
	return "value"
}

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
	DeliveryAt     *wireTime     `json:"deliveryAt"`
	TemplateID     string        `json:"templateId"`
	Buyer          *user         `json:"buyer"`
	Seller         *user         `json:"seller"`
	CreatedBy      *user         `json:"createdBy"`
	Values         []valueObject `json:"values"`
	CreatedDate    wireTime      `json:"createdDate"`
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
	ID               string   `json:"id"`
	Position         int32    `json:"position"`
	Value            string   `json:"value"`
	DocumentID       string   `json:"documentId"`
	TemplateID       string   `json:"templateId"`
	TemplateFieldID  string   `json:"templateFieldId"`
	KeyName          string   `json:"keyName"`
	Deleted          bool     `json:"deleted"`
	CreatedDate      wireTime `json:"createdDate"`
	LastModifiedDate wireTime `json:"lastModifiedDate"`
}

// contractOf renders a contract view; withValues is false in list items,
// whose values are always empty.
func contractOf(v *signflow.ContractView, withValues bool) contractResponse {
	out := contractResponse{ID: v.ID, Number: v.Number, Status: v.Status, Purpose: v.Purpose, BuyerStatus: v.BuyerStatus,
		SellerStatus: v.SellerStatus, BuyerIN: v.BuyerIN, SellerIN: v.SellerIN, CreatorIN: v.CreatorIN,
		Price: signflow.MinorNumber(v.Price), InitialPayment: signflow.MinorNumber(v.InitialPayment), Currency: v.Currency,
		DeliveryAt: optTime(v.DeliveryAt), TemplateID: v.TemplateID, Buyer: userOf(v.Buyer), Seller: userOf(v.Seller),
		CreatedBy: userOf(v.Creator), Values: []valueObject{}, CreatedDate: wireTime(v.CreatedAt)}
	if withValues {
		for _, val := range v.Values {
			out.Values = append(out.Values, valueObject{ID: val.ID, Position: val.Position, Value: val.Value, DocumentID: v.ID,
				TemplateID: val.TemplateID, TemplateFieldID: val.TemplateFieldID, KeyName: val.KeyName,
				CreatedDate: wireTime(val.CreatedAt), LastModifiedDate: wireTime(val.UpdatedAt)})
		}
	}
	return out
}

func userOf(c *signflow.Client) *user {
	if c == nil {
		return nil
	}
	return &user{FirstName: optString(c.FirstName), LastName: optString(c.LastName), LegalName: optString(c.LegalName), Type: c.Type}
}

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }
