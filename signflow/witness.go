package signflow

import "github.com/google/uuid"

// Witness is a signer the contract's witnessIds name: a client record the
// creator's tenant holds (its own claim or an owner's record). Its names
// are kept as of the contract's last change, like the parties' details,
// so that every read of a version shows the same; its signature is in
// Contract.Signatures under its number, beside the parties'.
type Witness struct {
	ID        string `json:"id"`
	IN        string `json:"in"`
	Type      string `json:"type"`
	FirstName string `json:"firstName,omitempty"`
	LastName  string `json:"lastName,omitempty"`
	MidName   string `json:"midName,omitempty"`
	LegalName string `json:"legalName,omitempty"`
	Status    string `json:"status"`
}

// Client is the witness as a record: what the pages and the PDF name.
func (w *Witness) Client() *Client {
	return &Client{ID: w.ID, IN: w.IN, Type: w.Type, FirstName: w.FirstName, LastName: w.LastName, MidName: w.MidName, LegalName: w.LegalName}
}

func (w *Witness) setDetails(c *Client) {
	w.Type, w.FirstName, w.LastName, w.MidName, w.LegalName = c.Type, c.FirstName, c.LastName, c.MidName, c.LegalName
}

// Witness returns the witness with the number, nil when in is none.
func (c *Contract) Witness(in string) *Witness {
	for i := range c.Witnesses {
		if in != "" && c.Witnesses[i].IN == in {
			return &c.Witnesses[i]
		}
	}
	return nil
}

// HasSigner reports whether in signs the contract: a party or a witness.
func (c *Contract) HasSigner(in string) bool { return c.HasParty(in) || c.Witness(in) != nil }

// allSigned: both parties and every witness have accepted.
func (c *Contract) allSigned() bool {
	if c.BuyerStatus != PartyAccepted || c.SellerStatus != PartyAccepted {
		return false
	}
	for _, w := range c.Witnesses {
		if w.Status != PartyAccepted {
			return false
		}
	}
	return true
}

// resolveWitnesses turns the request's witness ids into the witnesses of
// c: each id must be a record the creator's tenant holds for a number that
// is not a party, and appear once. Errors name the id.
func resolveWitnesses(tx Tx, tenant string, c *Contract, ids []string) error {
	seen := map[string]bool{}
	for _, id := range ids {
		if uuid.Validate(id) != nil {
			return Errorf(EINVALID, "witnessIds: %q is not a UUID", id)
		}
		if seen[id] {
			return Errorf(EINVALID, "witnessIds: %q is given twice", id)
		}
		seen[id] = true
		rec, err := heldByID(tx, tenant, id)
		if err != nil {
			return err
		}
		if rec == nil {
			return Errorf(EINVALID, "witnessIds: %q is not a client of this tenant; register it through POST /v1/clients first", id)
		}
		if c.HasParty(rec.IN) {
			return Errorf(EINVALID, "witnessIds: %q is a party of this contract and cannot be its witness", id)
		}
		w := Witness{ID: rec.ID, IN: rec.IN, Status: PartyPending}
		w.setDetails(rec)
		c.Witnesses = append(c.Witnesses, w)
	}
	return nil
}

// heldByID is the record with the id that tenant holds (holder), nil when
// the id is no record of the tenant's: another tenant's claim, or a claim
// that an owner's record now stands for, is not the tenant's.
func heldByID(tx Tx, tenant, id string) (*Client, error) {
	in, err := tx.ClientIN(tenant, id)
	if ErrorCode(err) == ENOTFOUND {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	rec, _, err := holder(tx, tenant, in)
	if err != nil || rec == nil || rec.ID != id {
		return nil, err
	}
	return rec, nil
}

// recordWitnesses refreshes the witnesses' names as the creator's tenant
// holds them now (RecordParties); a record gone keeps the last names.
func recordWitnesses(tx Tx, c *Contract) error {
	for i := range c.Witnesses {
		rec, err := partyRecord(tx, c, c.Witnesses[i].IN)
		if err != nil {
			return err
		}
		if rec != nil {
			c.Witnesses[i].setDetails(rec)
		}
	}
	return nil
}
