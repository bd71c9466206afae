package signflow

import (
	"slices"
	"time"
)

// Store runs functions in transactions. Update may run fn more than once
// (batched writes), so fn must have no effects outside the Tx.
type Store interface {
	Update(fn func(Tx) error) error
	View(fn func(Tx) error) error
}

// contractPreparer is a Store that encodes, before a create's write, the
// part of the new contract's record the write leaves as it is (on bbolt,
// whose batched write runs its functions one after another). The write
// puts c before ReleaseContract is called, and changes none of c's fields
// but Seq, Number, Hash, Parties and Witnesses in between.
type contractPreparer interface {
	PrepareContract(c *Contract)
	ReleaseContract(c *Contract)
}

// Tx is one transaction over every entity. Getters return ENOTFOUND when
// the record is absent. Put methods keep secondary indexes in step.
type Tx interface {
	// Owner is the admin's record of an owner; PutOwner writes it.
	Owner(in string) (*Client, error)
	PutOwner(c *Client) error
	// Owners lists every owner's record, in any order.
	Owners() ([]*Client, error)
	// Claim is what tenant (an owner's number) says about the number;
	// PutClaim writes it. Claims lists every tenant's claim on the number.
	Claim(tenant, in string) (*Client, error)
	PutClaim(tenant string, c *Client) error
	Claims(in string) ([]TenantClaim, error)
	// ClientIN is the number of the owner's record, or of tenant's claim,
	// whose id is id; ENOTFOUND when there is none. It may scan.
	ClientIN(tenant, id string) (string, error)

	// Template is the newest version of the template; TemplateVersion
	// one version of it (ENOTFOUND if it has none such) and
	// TemplateVersions all of them, oldest first. PutTemplate writes t as
	// the newest version and as its version t.Version.
	Template(id string) (*Template, error)
	TemplateVersion(id string, version int) (*Template, error)
	TemplateVersions(id string) ([]*Template, error)
	Templates() ([]*Template, error)
	PutTemplate(t *Template) error

	App(id string) (*App, error)
	PutApp(a *App) error
	// Apps lists every app, in any order.
	Apps() ([]*App, error)

	Key(id string) (*APIKey, error)
	KeyByHash(hash []byte) (*APIKey, error)
	KeysByOwner(in string) ([]*APIKey, error)
	PutKey(k *APIKey) error
	// Keys lists every API key, in any order.
	Keys() ([]*APIKey, error)

	Contract(id string) (*Contract, error)
	PutContract(c *Contract) error
	// NextContractSeq returns the next value of the contract sequence, which
	// orders contracts by creation and numbers them.
	NextContractSeq() (uint64, error)
	ListContracts(q ContractQuery) (*ContractPage, error)
	// WitnessContracts returns the ids of up to limit contracts that name
	// in as a witness, newest first.
	WitnessContracts(in string, limit int) ([]string, error)
	// ContractStats counts every contract by status, and the contracts
	// created on each UTC day from since ("2006-01-02") on, from counts
	// kept with each contract write, without reading the contracts.
	ContractStats(since string) (*ContractStats, error)

	Session(id string) (*SignSession, error)
	SessionByToken(hash []byte) (*SignSession, error)
	PutSession(s *SignSession) error
	ExpiredSessions(before time.Time, limit int) ([]*SignSession, error)

	CabinetLogin(in string) (*CabinetLogin, error)
	PutCabinetLogin(l *CabinetLogin) error
	CabinetSession(tokenHash []byte) (*CabinetSession, error)
	PutCabinetSession(s *CabinetSession) error
	DeleteCabinetSession(tokenHash []byte) error
	// PurgeCabinet deletes up to limit login records and cabinet sessions
	// whose PurgeAt or ExpiresAt is before the time, and says how many.
	PurgeCabinet(before time.Time, limit int) (int, error)

	// Timer returns the timer of kind and subject; PutTimer sets one,
	// replacing the one set before; DeleteTimer removes it, if any.
	Timer(kind, subject string) (*Timer, error)
	PutTimer(t *Timer) error
	DeleteTimer(kind, subject string) error
	// DueTimers returns up to limit timers whose At is before the time,
	// soonest first.
	DueTimers(before time.Time, limit int) ([]*Timer, error)
	// PutReceipt writes a receipt; Receipts lists a contract's receipts
	// in the order they were made (ids are time-ordered).
	PutReceipt(r *Receipt) error
	Receipts(contractID string) ([]*Receipt, error)
	// ProviderTx reads a provider's transaction by the provider's id;
	// ContractProviderTxs lists a contract's, and ProviderTxsCreated an
	// owner's created from one time to another (both included), in the
	// order they were created.
	ProviderTx(provider, id string) (*ProviderTx, error)
	PutProviderTx(p *ProviderTx) error
	ContractProviderTxs(provider, contractID string) ([]*ProviderTx, error)
	ProviderTxsCreated(provider, ownerIN string, from, to time.Time) ([]*ProviderTx, error)
	// ContractByNumber reads the contract with the number.
	ContractByNumber(number string) (*Contract, error)
	// Merchant is an owner's accounts with the providers; the others find
	// it by its Payme key's SHA-256 and by its Click service id.
	Merchant(ownerIN string) (*Merchant, error)
	MerchantByPaymeKey(hash []byte) (*Merchant, error)
	MerchantByClickService(serviceID string) (*Merchant, error)
	PutMerchant(m *Merchant) error

	AddAudit(e *AuditEvent) error
	AuditEvents(contractID string) ([]*AuditEvent, error)

	AddDelivery(d *Delivery) error
	Delivery(id string) (*Delivery, error)
	PutDelivery(d *Delivery) error
	Deliveries(f DeliveryFilter) ([]*Delivery, error)
	// PendingDeliveries returns up to limit PENDING deliveries whose Seq is
	// above afterSeq, in outbox order.
	PendingDeliveries(afterSeq uint64, limit int) ([]*Delivery, error)
}

// ContractQuery selects contracts in which OwnerIN takes part, newest first.
// Search matches names as OwnerIN's tenant knows them (owners' records and
// its own claims).
type ContractQuery struct {
	OwnerIN string
	// AllOwners selects every contract, whoever takes part (the
	// administrator); OwnerIN and Counterparties are then unused, and
	// Search matches names as any tenant knows them.
	AllOwners bool
	// Counterparties, when not nil, keeps only the contracts whose other
	// party is one of these numbers.
	Counterparties []string
	Statuses       []string
	TemplateID     string
	AllTemplates   bool
	TemplateIDs    []string
	Search         string
	Page, Size     int
}

// ContractPage is one page of a contract list.
type ContractPage struct {
	Contracts []*Contract
	Total     int
}

// TemplateScope lists the templates whose contracts q keeps: nil for
// every template, an empty list for none (a filter outside the caller's
// templates).
func (q *ContractQuery) TemplateScope() []string {
	switch {
	case q.TemplateID != "" && !q.AllTemplates && !slices.Contains(q.TemplateIDs, q.TemplateID):
		return []string{}
	case q.TemplateID != "":
		return []string{q.TemplateID}
	case q.AllTemplates:
		return nil
	}
	return append([]string{}, slices.Compact(slices.Sorted(slices.Values(q.TemplateIDs)))...)
}

// DeliveryFilter narrows the delivery log; empty fields match all.
type DeliveryFilter struct {
	ContractID string
	Status     string
	Limit      int
}
