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

// SampleContract is a contract of the template filled with sample
// values, held in memory and never stored: what the console's preview
// shows on the signing page and in the PDF before a template is saved.
func (s *Service) SampleContract(def *TemplateDefinition) (*ContractView, error) {
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
		c.Values = append(c.Values, Value{ID: NewID(), Position: int32(i), Value: sampleValue(&f, now), TemplateID: tpl.ID,
			TemplateFieldID: f.ID, KeyName: f.KeyName, CreatedAt: now, UpdatedAt: now})
	}
	if tpl.ProductEnabled {
		p := Product{ID: NewID(), Name: "Sample", Unit: "DONA", Price: 75_000_000, Quantity: 2, Amount: 150_000_000, Values: map[string]any{}}
		for _, f := range tpl.Fields {
			if f.ProductField {
				p.Values[f.KeyName] = sampleValue(&f, now)
			}
		}
		c.Products = []Product{p}
	}
	if tpl.PaymentScheduleEnabled {
		c.Payments = []Payment{{Amount: 60_000_000, PaymentDate: now.AddDate(0, 1, 0)}, {Amount: 60_000_000, PaymentDate: now.AddDate(0, 2, 0)}}
	}
	for i := range tpl.WitnessCount {
		c.WitnessIDs = append(c.WitnessIDs, "Witness "+strconv.Itoa(i+1))
	}
	c.Hash = DocumentHash(c)
	return &ContractView{Contract: c, Template: tpl,
		Seller: &Client{IN: SampleSellerIN, Type: ClientCompany, LegalName: "Namuna Savdo MChJ", Address: "Toshkent"},
		Buyer:  &Client{IN: SampleBuyerIN, Type: ClientIndividual, FirstName: "Aziz", LastName: "Karimov"}}, nil
}

// sampleValue is a value of the field's type.
func sampleValue(f *Field, now time.Time) string {
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
	return f.Name.EN
}
