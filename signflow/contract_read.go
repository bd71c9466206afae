package signflow

import (
	"github.com/google/uuid"
)

// ContractView is a contract with what its read responses show beside it.
// Buyer, Seller and Creator are the parties as the contract's creator's
// tenant knows them (tenant.go), nil while it holds no record of one.
type ContractView struct {
	*Contract
	Template               *Template
	Buyer, Seller, Creator *Client
	// owners marks the parties whose record is an owner's (the admin's,
	// held by the owner's own tenant), not the creator's tenant's claim.
	owners map[string]bool
}

// HeldBy returns the view as tenant may read it: the parties' details as
// the contract's version recorded them (withRecorded), and a party's phone
// only where tenant holds it — its own claims as the contract's creator,
// and its own owner's record. Another owner's admin phone is not shown.
func (v *ContractView) HeldBy(tenant string) *ContractView {
	out := *v.withRecorded()
	hide := func(c *Client) *Client {
		if c == nil || c.Phone == "" {
			return c
		}
		if v.owners[c.IN] && c.IN == tenant || !v.owners[c.IN] && v.CreatorIN == tenant {
			return c
		}
		cp := *c
		cp.Phone = ""
		return &cp
	}
	out.Buyer, out.Seller, out.Creator = hide(out.Buyer), hide(out.Seller), hide(out.Creator)
	return &out
}

// Contract returns a contract the caller may read.
func (s *Service) Contract(a *Access, id string) (*ContractView, error) {
	if err := mayRead(a, id); err != nil {
		return nil, err
	}
	var v *ContractView
	err := s.store.View(func(tx Tx) error {
		c, err := reachable(tx, a, id)
		if err != nil {
			return err
		}
		v, err = viewOf(tx, c)
		return err
	})
	if err != nil {
		return nil, err
	}
	return v.HeldBy(a.OwnerIN), nil
}

// mayRead checks what a read of contract id needs before a transaction.
func mayRead(a *Access, id string) error {
	if err := a.Require(ScopeContractsRead); err != nil {
		return err
	}
	if uuid.Validate(id) != nil {
		return Errorf(ENOTFOUND, "Contract not found.")
	}
	return nil
}

// reachable reads the contract id if the caller may read it.
func reachable(tx Tx, a *Access, id string) (*Contract, error) {
	c, err := tx.Contract(id)
	if err != nil {
		return nil, notFound(err, "Contract not found.")
	}
	return c, canReach(tx, a, c)
}

// AuditTrail returns the audit events of a contract the caller may read.
func (s *Service) AuditTrail(contractID string) ([]*AuditEvent, error) {
	var out []*AuditEvent
	err := s.store.View(func(tx Tx) (err error) { out, err = tx.AuditEvents(contractID); return err })
	return out, err
}

// ListContracts returns one page of the contracts the caller may read.
func (s *Service) ListContracts(a *Access, q ContractQuery) ([]*ContractView, int, error) {
	if err := a.Require(ScopeContractsRead); err != nil {
		return nil, 0, err
	}
	if err := q.check(); err != nil {
		return nil, 0, err
	}
	q.OwnerIN, q.AllTemplates, q.TemplateIDs, q.Counterparties = a.OwnerIN, a.AllTemplates, a.TemplateIDs, nil
	var views []*ContractView
	var total int
	err := s.store.View(func(tx Tx) (err error) {
		if a.Interface == CabinetInterface {
			tenants, all, err := phoneReach(tx, a.OwnerIN, a.Phone)
			if err != nil || !all && len(tenants) == 0 {
				return err
			}
			if !all {
				q.Counterparties = tenants
			}
		}
		views, total, err = listViews(tx, q)
		return err
	})
	for i, v := range views {
		views[i] = v.HeldBy(a.OwnerIN)
	}
	return views, total, err
}

// listViews returns the page of q, each contract with its view, and the
// number of contracts q matches.
func listViews(tx Tx, q ContractQuery) ([]*ContractView, int, error) {
	page, err := tx.ListContracts(q)
	if err != nil {
		return nil, 0, err
	}
	var views []*ContractView
	for _, c := range page.Contracts {
		v, err := viewOf(tx, c)
		if err != nil {
			return nil, 0, err
		}
		views = append(views, v)
	}
	return views, page.Total, nil
}

func viewOf(tx Tx, c *Contract) (*ContractView, error) {
	v := &ContractView{Contract: c}
	var err error
	if v.Template, err = templateOf(tx, c); err != nil {
		return nil, err
	}
	clients, owners := map[string]*Client{}, map[string]bool{}
	for _, in := range []string{c.BuyerIN, c.SellerIN, c.CreatorIN} {
		if _, ok := clients[in]; ok {
			continue
		}
		cl, owner, err := holder(tx, c.CreatorIN, in)
		if err != nil {
			return nil, err
		}
		clients[in], owners[in] = cl, owner
	}
	v.owners = owners
	v.Buyer, v.Seller, v.Creator = clients[c.BuyerIN], clients[c.SellerIN], clients[c.CreatorIN]
	return v, nil
}

func notFound(err error, msg string) error {
	if ErrorCode(err) == ENOTFOUND {
		return Errorf(ENOTFOUND, "%s", msg)
	}
	return err
}
