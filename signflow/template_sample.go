package signflow

import (
	"strconv"
	"time"
)

// The sample parties of a template preview.
const (
	SampleSellerIN = "300000001"
	SampleBuyerIN  = "30000000000001"
)

// SampleWords are the sample values a person reads in a preview, in the
// preview's language (the console's strings file holds them).
type SampleWords struct {
	Seller, Address     string // the selling company's legal name and address
	FirstName, LastName string // the buyer's
	Product             string // the name of the product
	Witness             string // a witness, before its number
}

// SampleContract is a contract of the template filled with sample
// values, held in memory and never stored: what the console's preview
// shows on the signing page and in the PDF before a template is saved.
// The values are in lang: the words given, and a text field's own name.
func (s *Service) SampleContract(def *TemplateDefinition, lang string, w SampleWords) (*ContractView, error) {
	if err := def.Validate(); err != nil {
		return nil, err
	}
	now := UTC(s.opt.Now())
	tpl := def.Template("00000000-0000-4000-8000-000000000000", func() time.Time { return now })
	currency := "UZS"
	if len(tpl.EnabledCurrencies) > 0 {
		currency = tpl.EnabledCurrencies[0]
	}
	c := &Contract{ID: tpl.ID, Number: now.Format("2006") + "-000000", Status: StatusCreated, Purpose: tpl.Purpose,
		SellerIN: SampleSellerIN, BuyerIN: SampleBuyerIN, CreatorIN: SampleSellerIN, SellerStatus: PartyPending,
		BuyerStatus: PartyPending, Price: 150_000_000, Currency: currency, TemplateID: tpl.ID, CreatedAt: now, UpdatedAt: now, Version: 1}
	if tpl.InitialPaymentEnabled {
		c.InitialPayment = 30_000_000
	}
	delivery := now.AddDate(0, 0, 14)
	c.DeliveryAt = &delivery
	for i, f := range tpl.Fields {
		if f.ProductField {
			continue
		}
		c.Values = append(c.Values, Value{ID: NewID(), Position: int32(i), Value: sampleValue(&f, now, lang), TemplateID: tpl.ID,
			TemplateFieldID: f.ID, KeyName: f.KeyName, CreatedAt: now, UpdatedAt: now})
	}
	if tpl.ProductEnabled {
		p := Product{ID: NewID(), Name: w.Product, Unit: "DONA", Price: 75_000_000, Quantity: 2, Amount: 150_000_000, Values: map[string]any{}}
		for _, f := range tpl.Fields {
			if f.ProductField {
				p.Values[f.KeyName] = sampleValue(&f, now, lang)
			}
		}
		c.Products = []Product{p}
	}
	if tpl.PaymentScheduleEnabled {
		c.Payments = []Payment{{Amount: 60_000_000, PaymentDate: now.AddDate(0, 1, 0)}, {Amount: 60_000_000, PaymentDate: now.AddDate(0, 2, 0)}}
	}
	for i := range tpl.WitnessCount {
		c.WitnessIDs = append(c.WitnessIDs, w.Witness+" "+strconv.Itoa(i+1))
	}
	c.Hash = DocumentHash(c)
	return &ContractView{Contract: c, Template: tpl,
		Seller: &Client{IN: SampleSellerIN, Type: ClientCompany, LegalName: w.Seller, Address: w.Address},
		Buyer:  &Client{IN: SampleBuyerIN, Type: ClientIndividual, FirstName: w.FirstName, LastName: w.LastName}}, nil
}

// sampleValue is a value of the field's type; a text field's is its name
// in lang, which shows where the value goes.
func sampleValue(f *Field, now time.Time, lang string) string {
	first := "A"
	if len(f.Options) > 0 {
		first = f.Options[0]
	}
	switch f.Type {
	case "DATE":
		return now.Format(time.DateOnly)
	case "INTEGER":
		return "12"
	case "DOUBLE":
		return "2.5"
	case "CHECKBOX":
		return "true"
	case "DOUBLE_INPUT_DATE":
		return now.Format(time.DateOnly) + ";" + now.AddDate(0, 1, 0).Format(time.DateOnly)
	case "DOUBLE_INPUT_INTEGER":
		return "1;10"
	case "DOUBLE_INPUT_DOUBLE":
		return "1.5;2.5"
	case "DOUBLE_INPUT_STRING":
		return "A;B"
	case "LIST", "SELECT", "MULTISELECT", "RADIO":
		return first
	}
	return f.Name.In(lang)
}
