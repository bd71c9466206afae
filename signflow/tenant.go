package signflow

import "time"

// Tenants. A tenant is an owner together with its apps and keys, named by
// the owner's number. What a tenant says about a number (names, phone,
// passport, ...) is that tenant's claim, never another's: a claim reaches
// only the contracts its tenant creates. An owner's own record is the
// admin's (POST /admin/v1/owners); apps and keys never change it, and it
// stands for the owner's number in every tenant's contracts.
//
// Every rule that reads a party's details goes through holder: the record
// of a number as a tenant knows it.

// TenantClaim is one tenant's claim on a number.
type TenantClaim struct {
	Tenant string
	Client *Client
}

// holder returns the record of number in as tenant knows it: the admin's
// record when in is an owner's number (owner true), else tenant's claim;
// nil when there is neither.
func holder(tx Tx, tenant, in string) (rec *Client, owner bool, err error) {
	if rec, err = ownerRecord(tx, in); rec != nil || err != nil {
		return rec, rec != nil, err
	}
	if rec, err = tx.Claim(tenant, in); err == nil {
		return rec, false, nil
	} else if ErrorCode(err) != ENOTFOUND {
		return nil, false, err
	}
	return nil, false, nil
}

// holders returns the records of number in as every tenant knows it: the
// admin's record when in is an owner's number, else each tenant's claim,
// in tenant order.
func holders(tx Tx, in string) (owner *Client, claims []TenantClaim, err error) {
	if owner, err = ownerRecord(tx, in); owner != nil || err != nil {
		return owner, nil, err
	}
	claims, err = tx.Claims(in)
	return nil, claims, err
}

// ownerRecord is the admin's record of in, nil when in is no owner's.
func ownerRecord(tx Tx, in string) (*Client, error) {
	rec, err := tx.Owner(in)
	if ErrorCode(err) == ENOTFOUND {
		return nil, nil
	}
	return rec, err
}

// partyRecord is the record of a party of c as the contract's creator's
// tenant knows it, nil when it has none. Signing codes go to its phone,
// and every read of the contract shows it.
func partyRecord(tx Tx, c *Contract, in string) (*Client, error) {
	rec, _, err := holder(tx, c.CreatorIN, in)
	return rec, err
}

// CreateOwner stores the admin's record of an owner (POST /admin/v1/owners).
// The admin's values win: over claims that apps made on the number before
// (which never reach the owner's record), and, field by field, over an
// earlier record of the owner. The stored record is returned.
func (s *Service) CreateOwner(in *Client) (*Client, error) {
	out, _, err := s.SaveOwner(in)
	return out, err
}

// Results of SaveOwner.
const (
	OwnerCreated   = "created"
	OwnerUpdated   = "updated"
	OwnerUnchanged = "unchanged"
)

// OwnerSaved says what SaveOwner did: created the owner, updated the
// fields named in Changed, or left it as it was.
type OwnerSaved struct {
	Result  string
	Changed []string
}

// SaveOwner is CreateOwner telling what it did, for the administrator who
// may be reusing a number without knowing it.
func (s *Service) SaveOwner(in *Client) (*Client, OwnerSaved, error) {
	in.Normalize()
	if err := s.validateClient(in); err != nil {
		return nil, OwnerSaved{}, err
	}
	var out *Client
	var saved OwnerSaved
	err := s.store.Update(func(tx Tx) error {
		now := UTC(s.opt.Now())
		c, err := tx.Owner(in.IN)
		switch {
		case err == nil:
			saved = OwnerSaved{Result: OwnerUnchanged, Changed: c.SetGivenFields(in)}
			if len(saved.Changed) == 0 {
				out = c
				return nil
			}
			saved.Result = OwnerUpdated
			c.UpdatedAt = now
		case ErrorCode(err) == ENOTFOUND:
			c, saved = newClient(in, now), OwnerSaved{Result: OwnerCreated}
		default:
			return err
		}
		out = c
		return tx.PutOwner(c)
	})
	return out, saved, err
}

// RegisterClient stores the caller's tenant's claim on a client, or fills
// the empty fields of the claim it already holds (POST /v1/clients is
// idempotent per tenant; held data is never overwritten). For an owner's
// number nothing is stored: the answer is the owner as the admin
// registered it.
func (s *Service) RegisterClient(a *Access, in *Client) (*Client, error) {
	if err := a.Require(ScopeClientsWrite); err != nil {
		return nil, err
	}
	in.Normalize()
	if err := s.validateClient(in); err != nil {
		return nil, err
	}
	var out *Client
	err := s.store.Update(func(tx Tx) error {
		now := UTC(s.opt.Now())
		c, owner, err := holder(tx, a.OwnerIN, in.IN)
		switch {
		case err != nil:
			return err
		case owner:
			out = c
			return nil
		case c == nil:
			c = newClient(in, now)
		case !c.FillEmpty(in):
			out = c
			return nil
		default:
			c.UpdatedAt = now
		}
		out = c
		return tx.PutClaim(a.OwnerIN, c)
	})
	return out, err
}

func newClient(in *Client, now time.Time) *Client {
	c := new(Client)
	*c = *in
	c.ID, c.Verified, c.CreatedAt, c.UpdatedAt = NewID(), false, now, now
	return c
}

// FindClient returns the record of a number as the caller's tenant knows
// it: the owner's record for an owner's number, else the tenant's own
// claim. ENOTFOUND when it holds none, whatever other tenants hold.
func (s *Service) FindClient(a *Access, in string) (*Client, error) {
	if err := a.Require(ScopeClientsRead); err != nil {
		return nil, err
	}
	var c *Client
	err := s.store.View(func(tx Tx) (err error) { c, _, err = holder(tx, a.OwnerIN, in); return err })
	if err != nil {
		return nil, err
	}
	if c == nil {
		return nil, Errorf(ENOTFOUND, "Client not found.")
	}
	return c, nil
}

// Owner returns the admin's record of an owner; ENOTFOUND when the number
// is not an owner's.
func (s *Service) Owner(in string) (*Client, error) {
	var c *Client
	err := s.store.View(func(tx Tx) (err error) { c, err = tx.Owner(in); return err })
	if err != nil {
		return nil, err
	}
	return c, nil
}
