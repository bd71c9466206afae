// Package document is the contract as a person reads it, in one language:
// every word and number the signing page, the cabinet, the verify page
// and the PDF show of a contract, built once from the domain's contract
// view. The pages render it with the shared card (card.html), the PDF
// with its own layout; none of them formats a value or translates a code
// of its own.
package document

import (
	"slices"
	"strings"
	"time"

	"contracts/server/i18n"
	"contracts/signflow"
)

// Doc is a contract as a person reads it in Lang. Its fields are text to
// print as it is, except the codes kept beside their words for styling.
// It holds no map and nothing of the moment it is built, so the same
// contract version always makes the same Doc.
type Doc struct {
	Lang string
	// T is the document's words in Lang (assets/i18n/document.json), for
	// the labels a layout puts around the fields.
	T i18n.Dict `json:"-"`

	ID, Number, NumberText, Title string
	Created                       time.Time // when the contract was drawn up
	Date, DateText                string    // "01.03.2026"; "Drawn up on 01.03.2026"
	// Status is the contract's status code; StatusText its word,
	// StatusClass its code in lower case, for styling.
	Status, StatusText, StatusClass string

	Currency string
	// Price, Initial (empty when there is none) and Delivery (empty when
	// unset), as read.
	Price, Initial, Delivery string
	// Parties are the seller, then the buyer.
	Parties []Party
	// Terms are the filled template fields, in their position and then in
	// the template's order of fields.
	Terms []Term
	// Products and Payments are the tables; their money cells are numbers
	// without the currency, which their headings name; totals carry it.
	Products                    []Product
	ProductsTotal               string
	PriceHeading, AmountHeading string // "Price, UZS", "Amount, UZS"
	Payments                    []Payment
	PaymentsTotal               string
	Witnesses                   []Party
	Body                        string // the template body with its placeholders filled
	Hash                        string
	Audit                       []Event
	VerifyURL                   string // the verify page's link; empty when not printed
	Masked                      bool   // numbers and unregistered names are masked (Options.Masked)
}

// Party is one side of the contract, or a witness (Doc.Witnesses, in
// witnessIds order, Role the word for a witness).
type Party struct {
	Role    string // the template's name of the side, e.g. "Sotuvchi"
	Name    string
	IN      string // the number, masked on the verify page
	IDLabel string // "STIR" for a company's number, "JShShIR" for a person's
	Company bool
	// Passport and Address are what the creator's tenant knows; empty on
	// the verify page.
	Passport, Address string
	// Status is the party's status code; StatusText its word.
	Status, StatusText, StatusClass string
	// Method and SignedAt say how and when the party signed; empty until then.
	Method, SignedAt string
	You              bool // the party is the reader (Options.Viewer)
}

// Term is one label and its value.
type Term struct{ Label, Value string }

// Product is one row of the goods table.
type Product struct {
	N                              int
	Name, Qty, Unit, Price, Amount string
	Extra                          []Term // the product's own fields, then its delivery date
}

// Payment is one row of the payment schedule.
type Payment struct {
	N            int
	Date, Amount string
}

// Event is one line of the audit trail.
type Event struct {
	At, Label string
	// Actor names who acted: a party's role, the number of anyone else,
	// or the system; ActorIN is the number, empty for the system.
	Actor, ActorIN string
	IP, UserAgent  string
	Method         string // how the act was confirmed, empty when nothing confirmed it
	Code           string // the event's code, e.g. CONTRACT_SIGNED
}

// Options are what a surface adds to the contract.
type Options struct {
	// Viewer is the number of the party reading, marked You; empty for none.
	Viewer string
	// VerifyURL is the verify page's link the PDF prints as a QR code.
	VerifyURL string
	// Masked leaves out everything but the number, title, date, status,
	// parties and hash, with the parties' numbers masked: the public
	// verify page.
	Masked bool
}

// Words returns the document's words in lang, Uzbek for an unknown one.
func Words(lang string) i18n.Dict { return i18n.Document.For(lang) }

// Lang returns lang when it is one of the document's languages, else uz.
func Lang(lang string) string {
	if slices.Contains(signflow.Languages, lang) {
		return lang
	}
	return "uz"
}

// New builds the document of a contract view with its audit trail in lang.
func New(v *signflow.ContractView, audit []*signflow.AuditEvent, lang string, o Options) *Doc {
	lang = Lang(lang)
	t := Words(lang)
	tpl := v.Template
	if tpl == nil {
		tpl = &signflow.Template{}
	}
	d := &Doc{Lang: lang, T: t, ID: v.ID, Number: v.Number, NumberText: t.F("contractNo", "number", v.Number),
		Title: tpl.Name.In(lang), Created: v.CreatedAt, Date: Date(v.CreatedAt), DateText: t.F("dated", "date", Date(v.CreatedAt)),
		Status: v.Status, StatusText: t.Or("status."+v.Status, v.Status), StatusClass: strings.ToLower(v.Status),
		Hash: v.Hash, Masked: o.Masked}
	d.Parties = []Party{
		d.party(tpl.SellerName, v.SellerIN, v.SellerStatus, v.Seller, v, o),
		d.party(tpl.BuyerName, v.BuyerIN, v.BuyerStatus, v.Buyer, v, o),
	}
	if o.Masked {
		return d
	}
	d.VerifyURL, d.Currency = o.VerifyURL, v.Currency
	d.Price = Money(v.Price, v.Currency)
	if v.InitialPayment != 0 {
		d.Initial = Money(v.InitialPayment, v.Currency)
	}
	if v.DeliveryAt != nil {
		d.Delivery = Date(*v.DeliveryAt)
	}
	d.PriceHeading = t.F("inCurrency", "label", t["colPrice"], "currency", v.Currency)
	d.AmountHeading = t.F("inCurrency", "label", t["colAmount"], "currency", v.Currency)
	d.terms(v, tpl)
	d.products(v, tpl)
	var total int64
	for i, p := range v.Payments {
		d.Payments = append(d.Payments, Payment{N: i + 1, Date: Date(p.PaymentDate), Amount: Money(p.Amount, "")})
		total += p.Amount
	}
	d.PaymentsTotal = Money(total, v.Currency)
	d.witnesses(v, o)
	d.Body = signflow.FillBody(v, lang, signflow.BodyFormat{
		Money: func(minor int64) string { return Money(minor, "") },
		Value: func(val signflow.Value) string { return d.value(tpl.Field(val.TemplateFieldID), val.Value) },
	})
	for _, e := range audit {
		d.Audit = append(d.Audit, d.event(e))
	}
	return d
}

// party describes one side; on the verify page with its number masked.
func (d *Doc) party(role signflow.Text, in, status string, c *signflow.Client, v *signflow.ContractView, o Options) Party {
	t := d.T
	p := Party{Role: role.In(d.Lang), Name: signflow.PartyName(c, in), IN: in, IDLabel: IDLabel(t, in),
		Company: signflow.ClientTypeOf(in) == signflow.ClientCompany, Status: status,
		StatusText: t.Or("party."+status, status), StatusClass: strings.ToLower(status), You: in != "" && in == o.Viewer}
	if o.Masked {
		p.IN, p.Name = signflow.MaskIN(in), signflow.PartyName(c, signflow.MaskIN(in))
		return p
	}
	if c != nil {
		p.Address = c.Address
		if !p.Company {
			p.Passport = c.Passport
		}
	}
	if sig := v.Signatures[in]; sig != nil && status == signflow.PartyAccepted {
		p.Method, p.SignedAt = t.Or("method."+sig.Method, sig.Method), Time(sig.At)
	}
	return p
}

// witnesses describes the witnesses as parties. A contract made before
// witnesses signed (or a sample) has only the ids or names it was given:
// those are listed as they are.
func (d *Doc) witnesses(v *signflow.ContractView, o Options) {
	role := signflow.Text{UZ: d.T["witness.role"], RU: d.T["witness.role"], EN: d.T["witness.role"]}
	if len(v.Witnesses) == 0 {
		for _, id := range v.WitnessIDs {
			d.Witnesses = append(d.Witnesses, Party{Role: role.In(d.Lang), Name: id})
		}
		return
	}
	for _, w := range v.Witnesses {
		d.Witnesses = append(d.Witnesses, d.party(role, w.IN, w.Status, w.Client(), v, o))
	}
}

// Seller and Buyer return the two parties.
func (d *Doc) Seller() Party { return d.Parties[0] }

// Buyer is the buyer's side.
func (d *Doc) Buyer() Party { return d.Parties[1] }

// IDLabel names a party's number by the kind of party it belongs to: the
// TIN of a company, the PINFL of a person.
func IDLabel(t i18n.Dict, in string) string {
	if signflow.ClientTypeOf(in) == signflow.ClientCompany {
		return t["tin"]
	}
	return t["pinfl"]
}

// Measures of Pages' estimate: table rows, and bytes of text, on a page.
const (
	RowsPerPage = 50
	TextPerPage = 3000
)

// Pages estimates the work of laying the document out, in pages: from its
// table rows (products, payments, terms, audit events) and from the length
// of all the text it lays out, so that long names and values count as the
// pages they fill, not as one row each.
func (d *Doc) Pages() int {
	text := len(d.Body)
	for _, p := range d.Parties {
		text += len(p.Name) + len(p.Address) + len(p.Passport)
	}
	for _, t := range d.Terms {
		text += len(t.Label) + len(t.Value)
	}
	for _, p := range d.Products {
		text += len(p.Name)
		for _, x := range p.Extra {
			text += len(x.Label) + len(x.Value)
		}
	}
	for _, e := range d.Audit {
		text += len(e.Label) + len(e.Actor) + len(e.UserAgent)
	}
	rows := len(d.Products) + len(d.Payments) + len(d.Terms) + len(d.Audit)
	return 1 + rows/RowsPerPage + text/TextPerPage
}
