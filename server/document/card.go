package document

import (
	"strings"

	"contracts/signflow"
)

// Card is a contract in a list, as the party Viewer reads it: the
// other party, the amount, the date and the status.
type Card struct {
	ID, NumberText, Title, Amount, Date string
	// CounterRole and Counterpart name the other party.
	CounterRole, Counterpart        string
	Status, StatusText, StatusClass string
	// AwaitsViewer is a CREATED contract the viewer has yet to sign.
	AwaitsViewer bool
}

// CardOf describes a contract for a list of the party viewer's contracts.
func CardOf(v *signflow.ContractView, viewer, lang string) Card {
	lang = Lang(lang)
	t := Words(lang)
	tpl := v.Template
	if tpl == nil {
		tpl = &signflow.Template{}
	}
	role, other, client := tpl.SellerName, v.SellerIN, v.Seller
	if v.SellerIN == viewer {
		role, other, client = tpl.BuyerName, v.BuyerIN, v.Buyer
	}
	return Card{ID: v.ID, NumberText: t.F("contractNo", "number", v.Number), Title: tpl.Name.In(lang),
		Amount: Money(v.Price, v.Currency), Date: Date(v.CreatedAt), CounterRole: role.In(lang),
		Counterpart: signflow.PartyName(client, other), Status: v.Status, StatusText: t.Or("status."+v.Status, v.Status),
		StatusClass:  strings.ToLower(v.Status),
		AwaitsViewer: v.Status == signflow.StatusCreated && v.PartyStatus(viewer) == signflow.PartyPending}
}
