package pdf

import (
	"io"

	"contracts/signflow"
)

// Contract renders a contract view with its audit trail in lang.
func Contract(w io.Writer, v *signflow.ContractView, audit []*signflow.AuditEvent, lang, verifyURL string) error {
	return Render(w, FromContract(v, audit, lang, verifyURL))
}

// FromContract fills a Document from the domain's contract view.
func FromContract(v *signflow.ContractView, audit []*signflow.AuditEvent, lang, verifyURL string) Document {
	t := v.Template
	if t == nil {
		t = &signflow.Template{}
	}
	d := Document{Lang: lang, Title: t.Name.In(lang), Number: v.Number, Date: v.CreatedAt, Status: v.Status,
		Seller: party(v.Seller, v.SellerIN), Buyer: party(v.Buyer, v.BuyerIN),
		SellerLabel: t.SellerName.In(lang), BuyerLabel: t.BuyerName.In(lang), Body: signflow.FillBody(v, lang),
		Currency: v.Currency, Price: v.Price, InitialPayment: v.InitialPayment, DeliveryAt: v.DeliveryAt,
		Witnesses: v.WitnessIDs, Hash: v.Hash, VerifyURL: verifyURL}
	for _, val := range v.Values {
		label := val.KeyName
		if f := t.Field(val.TemplateFieldID); f != nil {
			label = f.Name.In(lang)
		}
		d.Values = append(d.Values, Value{Label: label, Value: val.Value})
	}
	for _, p := range v.Products {
		d.Products = append(d.Products, Product{Name: p.Name, Unit: p.Unit, Quantity: p.Quantity, Price: p.Price, Amount: p.Amount})
	}
	for _, p := range v.Payments {
		d.Payments = append(d.Payments, Payment{Date: p.PaymentDate, Amount: p.Amount})
	}
	for _, side := range []struct {
		role, in, status string
		client           *signflow.Client
	}{{d.SellerLabel, v.SellerIN, v.SellerStatus, v.Seller}, {d.BuyerLabel, v.BuyerIN, v.BuyerStatus, v.Buyer}} {
		s := Signature{Role: side.role, Name: signflow.PartyName(side.client, side.in), Status: side.status}
		if sig := v.Signatures[side.in]; sig != nil {
			at := sig.At
			s.Method, s.At = sig.Method, &at
		}
		d.Signatures = append(d.Signatures, s)
	}
	for _, e := range audit {
		d.Audit = append(d.Audit, AuditRow{At: e.At, Event: e.Type, Actor: e.ActorIN, IP: e.IP, UserAgent: e.UserAgent, Method: e.Method})
	}
	return d
}

func party(c *signflow.Client, in string) Party {
	p := Party{Name: signflow.PartyName(c, in), IN: in, Type: signflow.ClientTypeOf(in)}
	if c != nil {
		p.Type, p.Passport, p.Address = c.Type, c.Passport, c.Address
	}
	return p
}
