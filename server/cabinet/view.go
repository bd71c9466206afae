package cabinet

import (
	"strconv"
	"strings"
	"time"

	"contracts/server/pdf"
	"contracts/signflow"
)

// The page's view of contracts. The document itself comes from the PDF's
// adapter (pdf.FromContract), so the page and the PDF show the same things.

// cardView is one contract in the list.
type cardView struct {
	URL, NumberText, Title, CounterRole, Counterpart, Amount, Date string
	StatusText, StatusClass, Note                                  string
	Action                                                         bool // awaiting this party's signature
}

// docView is the contract page's document and what the party can do.
type docView struct {
	ID, NumberText, Title, DateText, StatusText, StatusClass string
	Price, Initial, Delivery                                 string
	Parties                                                  []partyView
	Terms                                                    []pdf.Value
	Products                                                 []productView
	ProductsTotal                                            string
	Payments                                                 []paymentView
	PaymentsTotal                                            string
	Body, Hash                                               string
	PDF                                                      []pdfLink

	// What the party can do: sign (and reject, or cancel when it created
	// the contract) while the contract waits for it; cancel while it waits
	// for the other party; otherwise the page only says where things stand.
	CanSign, CanCancel, Creator bool
	Flow                        string // how the party signs: otp, identity, eimzo, none
	MethodName, ReviewText      string
	StateTitle, StateText       string
	StateClass                  string // ok, bad, info
}

type partyView struct {
	Role, Name, IDLabel, IN, StatusText, StatusClass string
	You                                              bool
}

type productView struct {
	N                        int
	Name, Qty, Price, Amount string
}

type paymentView struct {
	N            int
	Date, Amount string
}

type pdfLink struct{ Lang, Short, Label, URL string }

// nbsp keeps an amount on one line.
const nbsp = "\u00a0"

func money(minor int64, currency string) string {
	return strings.ReplaceAll(pdf.FormatMoney(minor, currency), " ", nbsp)
}

func date(t time.Time) string { return t.UTC().Format("02.01.2006") }

func idLabel(t dict, in string) string {
	if len(in) == 9 {
		return t["tin"]
	}
	return t["pinfl"]
}

// flows are how the page carries out each confirmation method.
var flows = map[string]string{signflow.MethodOTP: "otp", signflow.MethodMyID: "identity",
	signflow.MethodAbleID: "identity", signflow.MethodEIMZO: "eimzo"}

// cardOf describes a contract of the list for the party in.
func cardOf(v *signflow.ContractView, in, lang string, t dict) cardView {
	role, other, otherClient := v.Template.SellerName, v.SellerIN, v.Seller
	if v.SellerIN == in {
		role, other, otherClient = v.Template.BuyerName, v.BuyerIN, v.Buyer
	}
	card := cardView{URL: "/cabinet/contracts/" + v.ID, NumberText: t.F("contractNo", "number", v.Number),
		Title: v.Template.Name.In(lang), CounterRole: role.In(lang),
		Counterpart: signflow.PartyName(otherClient, other), Amount: money(v.Price, v.Currency), Date: date(v.CreatedAt),
		StatusText: t.Or("status."+v.Status, v.Status), StatusClass: strings.ToLower(v.Status)}
	if v.Status == signflow.StatusCreated {
		card.Note, card.Action = t["awaitingOther"], false
		if v.PartyStatus(in) == signflow.PartyPending {
			card.Note, card.Action = t["awaitingYou"], true
		}
	}
	return card
}

// docOf describes a contract's page for the party in.
func (h *handler) docOf(v *signflow.ContractView, in, lang string, t dict) *docView {
	d := pdf.FromContract(v, nil, lang, "")
	doc := &docView{ID: v.ID, NumberText: t.F("contractNo", "number", v.Number), Title: d.Title,
		DateText: t.F("dated", "date", date(v.CreatedAt)), StatusText: t.Or("status."+v.Status, v.Status),
		StatusClass: strings.ToLower(v.Status), Price: money(v.Price, v.Currency), Terms: d.Values, Body: d.Body, Hash: v.Hash}
	if v.InitialPayment > 0 {
		doc.Initial = money(v.InitialPayment, v.Currency)
	}
	if v.DeliveryAt != nil {
		doc.Delivery = date(*v.DeliveryAt)
	}
	for i, side := range []struct {
		p      pdf.Party
		status string
	}{{d.Seller, v.SellerStatus}, {d.Buyer, v.BuyerStatus}} {
		doc.Parties = append(doc.Parties, partyView{Role: d.Signatures[i].Role, Name: side.p.Name, IDLabel: idLabel(t, side.p.IN),
			IN: side.p.IN, StatusText: t.Or("party."+side.status, side.status), StatusClass: strings.ToLower(side.status),
			You: side.p.IN == in})
	}
	var total int64
	for i, p := range d.Products {
		doc.Products = append(doc.Products, productView{N: i + 1, Name: p.Name,
			Qty:   strconv.FormatFloat(p.Quantity, 'f', -1, 64) + " " + t.Or("unit."+p.Unit, p.Unit),
			Price: money(p.Price, ""), Amount: money(p.Amount, "")})
		total += p.Amount
	}
	doc.ProductsTotal = money(total, v.Currency)
	total = 0
	for i, p := range d.Payments {
		doc.Payments = append(doc.Payments, paymentView{N: i + 1, Date: date(p.Date), Amount: money(p.Amount, v.Currency)})
		total += p.Amount
	}
	doc.PaymentsTotal = money(total, v.Currency)
	for _, l := range signflow.Languages {
		doc.PDF = append(doc.PDF, pdfLink{Lang: l, Short: strings.ToUpper(l), Label: t["pdf."+l],
			URL: "/cabinet/contracts/" + v.ID + "/pdf?lang=" + l})
	}
	h.actions(doc, v, in, t)
	return doc
}

// actions fills in what the party can do with the contract now.
func (h *handler) actions(doc *docView, v *signflow.ContractView, in string, t dict) {
	doc.Creator = v.CreatorIN == in
	created, pending := v.Status == signflow.StatusCreated, v.PartyStatus(in) == signflow.PartyPending
	doc.CanSign, doc.CanCancel = created && pending, created && doc.Creator
	if doc.CanSign {
		method := signflow.SignerMethod(v.Template, in)
		doc.Flow, doc.MethodName = flows[method], t.Or("method."+method, method)
		switch {
		case doc.Flow == "identity":
			doc.ReviewText = t.F("reviewIdentity", "method", doc.MethodName)
		case doc.Flow == "eimzo" && h.embedded == "":
			doc.Flow, doc.ReviewText = "none", t["eimzoOff"]
		case doc.Flow == "eimzo":
			doc.ReviewText = t["reviewEIMZO"]
		default:
			doc.ReviewText = t["reviewText"]
		}
		return
	}
	switch v.Status {
	case signflow.StatusCreated:
		doc.StateTitle, doc.StateText, doc.StateClass = t["youSignedTitle"], t["signedText"], "ok"
	case signflow.StatusActive:
		doc.StateTitle, doc.StateText, doc.StateClass = t["activeTitle"], t["activeText"], "ok"
	case signflow.StatusCompleted:
		doc.StateTitle, doc.StateText, doc.StateClass = t["status.COMPLETED"], t["completedText"], "ok"
	case signflow.StatusRejected:
		doc.StateTitle, doc.StateText, doc.StateClass = t["rejectedTitle"], t["decidedRejected"], "bad"
	case signflow.StatusCancelled:
		doc.StateTitle, doc.StateText, doc.StateClass = t["cancelledTitle"], t["decidedCancelled"], "bad"
	default:
		doc.StateTitle, doc.StateClass = doc.StatusText, "info"
	}
}
