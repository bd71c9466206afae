package signflow

import (
	"slices"
	"time"
)

// Verification methods a template may name.
const (
	MethodOTP    = "OTP_SMS"
	MethodMyID   = "MY_ID"
	MethodAbleID = "ABLE_ID"
	MethodEIMZO  = "E_IMZO"
)

// Template statuses.
const (
	TemplatePublished = "PUBLISHED"
	TemplateDraft     = "DRAFT"
)

// FieldTypes and FieldPositions are the enums of a template field.
var (
	FieldTypes = []string{"LIST", "SELECT", "MULTISELECT", "DATE", "INTEGER", "DOUBLE", "STRING", "CHECKBOX", "RADIO",
		"DOUBLE_INPUT_DATE", "DOUBLE_INPUT_INTEGER", "DOUBLE_INPUT_DOUBLE", "DOUBLE_INPUT_STRING"}
	FieldPositions = []string{"BOTTOM", "UNDER", "LEFT", "RIGHT"}
	Purposes       = []string{"CONTRACT", "TTN", "AKT", "FACTURA"}
	ExchangeModes  = []string{"GOODS", "MONEY"}
)

// Text is a string in each of the service's languages.
type Text struct {
	UZ string `json:"uz" yaml:"uz"`
	RU string `json:"ru" yaml:"ru"`
	EN string `json:"en" yaml:"en"`
}

// In returns the text in lang, falling back to uz.
func (t Text) In(lang string) string {
	switch {
	case lang == "ru" && t.RU != "":
		return t.RU
	case lang == "en" && t.EN != "":
		return t.EN
	}
	return t.UZ
}

func (t Text) complete() bool { return t.UZ != "" && t.RU != "" && t.EN != "" }

// Template is a contract form: its names, rules and fields. Body is the
// report source and is never returned by an API.
type Template struct {
	ID                         string    `json:"id"`
	Name                       Text      `json:"name"`
	SellerName                 Text      `json:"sellerName"`
	BuyerName                  Text      `json:"buyerName"`
	Type                       string    `json:"type"`
	Status                     string    `json:"status"`
	Purpose                    string    `json:"purpose"`
	ExchangeMode               string    `json:"exchangeMode"`
	IndividualVerificationType string    `json:"individualVerificationType"`
	LegalVerificationType      string    `json:"legalVerificationType"`
	EnabledCurrencies          []string  `json:"enabledCurrencies"`
	ProductEnabled             bool      `json:"productEnabled"`
	ProductRequired            bool      `json:"productRequired"`
	PaymentScheduleEnabled     bool      `json:"paymentScheduleEnabled"`
	InitialPaymentEnabled      bool      `json:"initialPaymentEnabled"`
	WitnessEnabled             bool      `json:"witnessEnabled"`
	WitnessCount               int       `json:"witnessCount"`
	CompleteWhenPaid           bool      `json:"completeWhenPaid,omitempty"`
	Fields                     []Field   `json:"fields"`
	Body                       Text      `json:"body"`
	CreatedAt                  time.Time `json:"createdAt"`
	UpdatedAt                  time.Time `json:"updatedAt"`
	// Version counts the definitions stored under the id, from 1
	// (storage gave every template stored before versions 1).
	Version int `json:"version"`
}

// Field is one input of a template.
type Field struct {
	ID           string    `json:"id"`
	ParentKey    *string   `json:"parentKey"`
	TemplateID   string    `json:"templateId"`
	Name         Text      `json:"name"`
	KeyName      string    `json:"keyName"`
	Type         string    `json:"type"`
	Position     string    `json:"position"`
	ProductField bool      `json:"productField"`
	Required     bool      `json:"required,omitempty"`
	Options      []string  `json:"options,omitempty"`
	Deleted      bool      `json:"deleted"`
	CreatedAt    time.Time `json:"createdDate"`
	UpdatedAt    time.Time `json:"lastModifiedDate"`
}

// CurrencyAllowed reports whether the template accepts cur.
func (t *Template) CurrencyAllowed(cur string) bool {
	return t.EnabledCurrencies == nil || slices.Contains(t.EnabledCurrencies, cur)
}

// Field returns the live field with the id, or nil.
func (t *Template) Field(id string) *Field {
	for i := range t.Fields {
		if t.Fields[i].ID == id && !t.Fields[i].Deleted {
			return &t.Fields[i]
		}
	}
	return nil
}

// FieldByKey returns the live field with the key name, or nil.
func (t *Template) FieldByKey(key string) *Field {
	for i := range t.Fields {
		if t.Fields[i].KeyName == key && !t.Fields[i].Deleted {
			return &t.Fields[i]
		}
	}
	return nil
}

// MethodFor returns the confirmation method for a signer of the client type.
// Rule 5 of the spec: signing through the service always asks for
// confirmation, so a template that names none gets SMS or E-IMZO.
func (t *Template) MethodFor(clientType string) string {
	if clientType == ClientCompany {
		return MethodEIMZO
	}
	switch t.IndividualVerificationType {
	case MethodMyID, MethodAbleID:
		return t.IndividualVerificationType
	}
	return MethodOTP
}
