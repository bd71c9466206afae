package signflow

import "slices"

// A contract's version is evidence: its sealed document must read the same
// however often and whenever it is made. Two things it shows can move
// without the version: the parties' details (a tenant may edit its claim
// on a number at any time) and the audit trail (a session opened or a code
// sent adds an event and changes no contract). So every change keeps the
// parties' details on the contract, and the document of a version shows
// the audit trail up to the change that made that version.

// PartyRecords are the parties' details as the contract's creator's tenant
// held them at the contract's last change: only what the contract's
// document shows of a party (its kind, names, passport and address). A
// party the tenant held no record of is nil.
type PartyRecords struct {
	Buyer  *Client `json:"buyer,omitempty"`
	Seller *Client `json:"seller,omitempty"`
}

// putChange writes a contract a change made, in the caller's transaction,
// with its parties' details as they are now.
func putChange(tx Tx, c *Contract) error {
	if err := RecordParties(tx, c); err != nil {
		return err
	}
	return tx.PutContract(c)
}

// RecordParties sets c.Parties to its parties' details as the creator's
// tenant holds them in tx: what every change keeps, and what a store's
// upgrade gives a contract last changed before they were kept.
func RecordParties(tx Tx, c *Contract) error {
	buyer, err := partyRecord(tx, c, c.BuyerIN)
	if err != nil {
		return err
	}
	seller, err := partyRecord(tx, c, c.SellerIN)
	if err != nil {
		return err
	}
	c.Parties = &PartyRecords{Buyer: documentDetails(buyer), Seller: documentDetails(seller)}
	return recordWitnesses(tx, c)
}

// documentDetails is what a contract's document shows of a client.
func documentDetails(c *Client) *Client {
	if c == nil {
		return nil
	}
	return &Client{IN: c.IN, Type: c.Type, FirstName: c.FirstName, LastName: c.LastName, MidName: c.MidName,
		LegalName: c.LegalName, Passport: c.Passport, Address: c.Address}
}

// AsRecorded returns the view with its parties as the contract's last
// change recorded them (the creator too, when it is one of them): what the
// document of this version shows. A contract last changed before details
// were kept comes back as it is, with the records the tenant holds now.
func (v *ContractView) AsRecorded() *ContractView {
	if v.Parties == nil {
		return v
	}
	out := *v
	out.Buyer, out.Seller, out.Creator = v.Parties.Buyer, v.Parties.Seller, nil
	switch v.CreatorIN {
	case v.BuyerIN:
		out.Creator = out.Buyer
	case v.SellerIN:
		out.Creator = out.Seller
	}
	return &out
}

// withRecorded returns the view with each party's details that the
// version's document shows (documentDetails) as the version recorded them,
// and the rest (id, phone, email, dates) from the record held now: what a
// read answer shows. A party the version holds no record of, or a contract
// last changed before details were kept, keeps the record held now.
func (v *ContractView) withRecorded() *ContractView {
	if v.Parties == nil {
		return v
	}
	merge := func(live, rec *Client) *Client {
		if rec == nil {
			return live
		}
		out := *rec
		if live != nil {
			out = *live
			out.IN, out.Type, out.FirstName, out.LastName, out.MidName = rec.IN, rec.Type, rec.FirstName, rec.LastName, rec.MidName
			out.LegalName, out.Passport, out.Address = rec.LegalName, rec.Passport, rec.Address
		}
		return &out
	}
	out := *v
	out.Buyer, out.Seller = merge(v.Buyer, v.Parties.Buyer), merge(v.Seller, v.Parties.Seller)
	switch v.CreatorIN {
	case v.BuyerIN:
		out.Creator = out.Buyer
	case v.SellerIN:
		out.Creator = out.Seller
	}
	return &out
}

// changeEvents are the events the state machine's changes record (record,
// outbox.go): how an event kept before versions were noted is known as one.
var changeEvents = []string{EventCreated, EventSigned, EventActive, EventRejected, EventCancelled, AuditCompleted}

// RecordedTrail is the part of a contract's audit trail (in the order it
// was written) that the document of version shows: every event up to and
// including those of the change that made the version, without the
// audit-only events that followed it (a session opened, a code sent) and
// anything of a later change. events is not modified.
func RecordedTrail(events []*AuditEvent, version int64) []*AuditEvent {
	end := 0
	for i, e := range events {
		if e.Version > version {
			break
		}
		// Events kept before versions were noted are known by their type.
		if e.Version > 0 || slices.Contains(changeEvents, e.Type) {
			end = i + 1
		}
	}
	return events[:end:end]
}
