package cabinet

import (
	"strings"

	"contracts/server/document"
	"contracts/signflow"
)

// The page's view of contracts: the document itself is the contract's
// document (server/document), as the signing page and the PDF show it;
// the page adds what the party can do with it.

// cardView is one contract in the list.
type cardView struct {
	document.Card
	URL, Note string
}

// docView is the contract page's document and what the party can do.
type docView struct {
	*document.Doc
	PDF []pdfLink

	// What the party can do: sign (and reject, or cancel when it created
	// the contract) while the contract waits for it; cancel while it waits
	// for the other party; otherwise the page only says where things stand.
	CanSign, CanCancel, Creator bool
	Witness                     bool   // the party is a witness: it signs, and cannot reject
	Flow                        string // how the party signs: otp, identity, eimzo, none
	MethodName, ReviewText      string
	StateTitle, StateText       string
	StateClass                  string // ok, bad, info
}

type pdfLink struct{ Lang, Short, Label, URL string }

// flows are how the page carries out each confirmation method.
var flows = map[string]string{signflow.MethodOTP: "otp", signflow.MethodMyID: "identity",
	signflow.MethodAbleID: "identity", signflow.MethodEIMZO: "eimzo"}

// cardOf describes a contract of the list for the party in.
func cardOf(v *signflow.ContractView, in, lang string, t dict) cardView {
	card := cardView{Card: document.CardOf(v, in, lang), URL: "/cabinet/contracts/" + v.ID}
	if v.Status == signflow.StatusCreated {
		card.Note = t["awaitingOther"]
		if card.AwaitsViewer {
			card.Note = t["awaitingYou"]
		}
	}
	return card
}

// docOf describes a contract's page for the party in.
func (h *handler) docOf(v *signflow.ContractView, audit []*signflow.AuditEvent, in, lang string, t dict) *docView {
	doc := &docView{Doc: document.New(v.AsRecorded(), audit, lang, document.Options{Viewer: in})}
	for _, l := range signflow.Languages {
		doc.PDF = append(doc.PDF, pdfLink{Lang: l, Short: strings.ToUpper(l), Label: t["pdf."+l],
			URL: "/cabinet/contracts/" + v.ID + "/pdf?lang=" + l})
	}
	h.actions(doc, v, in, t)
	return doc
}

// actions fills in what the party can do with the contract now.
func (h *handler) actions(doc *docView, v *signflow.ContractView, in string, t dict) {
	doc.Creator, doc.Witness = v.CreatorIN == in, v.Witness(in) != nil
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
		if len(v.Witnesses) > 0 {
			doc.StateText = t["witness.signedText"]
		}
	case signflow.StatusActive:
		doc.StateTitle, doc.StateText, doc.StateClass = t["activeTitle"], t["activeText"], "ok"
	case signflow.StatusCompleted:
		doc.StateTitle, doc.StateText, doc.StateClass = doc.StatusText, t["completedText"], "ok"
	case signflow.StatusRejected:
		doc.StateTitle, doc.StateText, doc.StateClass = t["rejectedTitle"], t["decidedRejected"], "bad"
	case signflow.StatusCancelled:
		doc.StateTitle, doc.StateText, doc.StateClass = t["cancelledTitle"], t["decidedCancelled"], "bad"
	default:
		doc.StateTitle, doc.StateClass = doc.StatusText, "info"
	}
}
