package signflow

import "time"

type timeT = time.Time

// Events of the spec's table, sent as webhooks and kept in the audit trail.
const (
	EventCreated         = "CONTRACT_CREATED"
	EventSigned          = "CONTRACT_SIGNED"
	EventActive          = "CONTRACT_ACTIVE"
	EventRejected        = "CONTRACT_REJECTED"
	EventCancelled       = "CONTRACT_CANCELLED"
	EventPaymentAccepted = "PAYMENT_ACCEPTED"
)

// WebhookEvents lists the events an app may choose.
var WebhookEvents = []string{EventCreated, EventSigned, EventActive, EventRejected, EventCancelled, EventPaymentAccepted}

// Audit-only events: they change no contract and send no webhook.
const (
	AuditCompleted     = "CONTRACT_COMPLETED"
	AuditSessionOpened = "SESSION_OPENED"
	AuditCodeSent      = "OTP_SENT"
	AuditCodeWrong     = "OTP_WRONG"
	AuditSessionClosed = "SESSION_CLOSED"
)

// The state machine. Each method checks the transition, applies it, bumps
// the version and returns the events it causes, in order.

// Sign records the signature of a party or a witness: its status becomes
// ACCEPTED, and the contract ACTIVE when both parties and every witness
// have signed.
func (c *Contract) Sign(in string, sig Signature, now time.Time) ([]string, error) {
	w := c.Witness(in)
	if !c.HasParty(in) && w == nil {
		return nil, Errorf(EINVALID, "The signer is not a party of this contract.")
	}
	if c.Status != StatusCreated {
		return nil, Errorf(EINVALID, "The contract is %s and can no longer be signed.", c.Status)
	}
	if c.PartyStatus(in) != PartyPending {
		return nil, Errorf(EINVALID, "This party has already signed.")
	}
	// Between the deadline and the sweep that cancels the contract.
	if c.SignBy != nil && !now.Before(*c.SignBy) {
		return nil, Errorf(EINVALID, "The deadline to sign this contract has passed.")
	}
	if w != nil {
		w.Status = PartyAccepted
	} else {
		c.setPartyStatus(in, PartyAccepted)
	}
	if c.Signatures == nil {
		c.Signatures = map[string]*Signature{}
	}
	sig.Hash = c.Hash
	c.Signatures[in] = &sig
	events := []string{EventSigned}
	if c.allSigned() {
		c.Status = StatusActive
		events = append(events, EventActive)
	}
	c.touch(now)
	return events, nil
}

// ErrWitnessRejects refuses a witness's rejection.
var ErrWitnessRejects = &Error{Code: EINVALID, Message: "A witness cannot reject the contract."}

// Reject records a refusal by a party. A refusal by the creator's own party
// is a cancel. A witness attests a signing and has no say in it.
func (c *Contract) Reject(in string, now time.Time) ([]string, error) {
	if c.Witness(in) != nil {
		return nil, ErrWitnessRejects
	}
	if !c.HasParty(in) {
		return nil, Errorf(EINVALID, "The signer is not a party of this contract.")
	}
	if c.Status != StatusCreated {
		return nil, Errorf(EINVALID, "The contract is %s and can no longer be rejected.", c.Status)
	}
	if c.PartyStatus(in) != PartyPending {
		return nil, Errorf(EINVALID, "This party has already signed.")
	}
	if in == c.CreatorIN {
		return c.cancel(now), nil
	}
	c.setPartyStatus(in, PartyRejected)
	c.Status = StatusRejected
	c.touch(now)
	return []string{EventRejected}, nil
}

// Cancel is the creator withdrawing a contract that is not yet in force.
func (c *Contract) Cancel(in string, now time.Time) ([]string, error) {
	if in != c.CreatorIN {
		return nil, Errorf(EFORBIDDEN, "Only the creator can cancel the contract.")
	}
	if c.Status != StatusCreated {
		return nil, Errorf(EINVALID, "The contract is %s; only a CREATED contract can be cancelled.", c.Status)
	}
	return c.cancel(now), nil
}

func (c *Contract) cancel(now time.Time) []string {
	c.setPartyStatus(c.CreatorIN, PartyCancelled)
	c.Status = StatusCancelled
	c.touch(now)
	return []string{EventCancelled}
}

// Complete marks an ACTIVE contract as fulfilled, by its creator.
func (c *Contract) Complete(in string, now time.Time) ([]string, error) {
	if in != c.CreatorIN {
		return nil, Errorf(EFORBIDDEN, "Only the creator can complete the contract.")
	}
	if c.Status != StatusActive {
		return nil, Errorf(EINVALID, "The contract is %s; only an ACTIVE contract can be completed.", c.Status)
	}
	c.Status = StatusCompleted
	c.touch(now)
	return []string{AuditCompleted}, nil
}

// completePaid marks an ACTIVE contract fulfilled by its last payment
// (its template's completeWhenPaid); the caller touches it with the receipt.
func (c *Contract) completePaid() []string {
	c.Status = StatusCompleted
	return []string{AuditCompleted}
}

func (c *Contract) touch(now time.Time) {
	c.UpdatedAt = UTC(now)
	c.Version++
}
