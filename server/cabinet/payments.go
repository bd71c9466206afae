package cabinet

import (
	"contracts/server/document"
	"contracts/signflow"
)

// ledgerView is a contract's ledger on its page, and for the buyer of an
// ACTIVE contract with a balance, links to pay through the providers the
// seller takes payments with.
type ledgerView struct {
	*document.Ledger
	PayPayme, PayClick string
}

// ledgerOf reads the ledger of a contract in force, as the party reads it.
func (h *handler) ledgerOf(s *signflow.CabinetSession, v *signflow.ContractView, t dict) (*ledgerView, error) {
	if v.ActivatedAt() == nil {
		return nil, nil
	}
	a := s.Access()
	l, err := h.svc.Ledger(a, v.ID)
	if err != nil {
		return nil, err
	}
	out := &ledgerView{Ledger: document.LedgerOf(l, t)}
	if s.IN != v.BuyerIN || v.Status != signflow.StatusActive || l.Balance == 0 || v.Currency != "UZS" {
		return out, nil
	}
	for _, p := range []struct {
		provider string
		url      *string
	}{{signflow.ProviderPayme, &out.PayPayme}, {signflow.ProviderClick, &out.PayClick}} {
		link, err := h.svc.PayLink(a, v.ID, signflow.PayLinkInput{Provider: p.provider})
		switch signflow.ErrorCode(err) {
		case "":
			*p.url = link
		case signflow.EINVALID: // the seller takes no payments through it
		default:
			return nil, err
		}
	}
	return out, nil
}
