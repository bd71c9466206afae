package postgres

import (
	"encoding/json"
	"time"

	"contracts/signflow"
)

// The payment tables are made at open, not by a schema step: a database
// without them has no payments. receipts keeps the ledgers' receipts,
// provider_txs the providers' transactions, merchants the owners' accounts
// with the providers.
var (
	receipts    = newTable("receipts", "Receipt", []string{"contract_id", "id"}, nil)
	providerTxs = newTable("provider_txs", "Transaction", []string{"provider", "id"}, []string{"owner_in", "contract_id", "created_ns"})
	merchants   = newTable("merchants", "Merchant", []string{"owner_in"}, []string{"payme_key_hash", "click_service_id"})
)

const paymentTables = `
CREATE TABLE IF NOT EXISTS receipts (
	contract_id text COLLATE "C",
	id text COLLATE "C",
	ver bigint NOT NULL, data json NOT NULL,
	PRIMARY KEY (contract_id, id));
CREATE TABLE IF NOT EXISTS provider_txs (
	provider text COLLATE "C",
	id text COLLATE "C",
	owner_in text COLLATE "C" NOT NULL,
	contract_id text COLLATE "C" NOT NULL,
	created_ns bigint NOT NULL,
	ver bigint NOT NULL, data json NOT NULL,
	PRIMARY KEY (provider, id));
CREATE INDEX IF NOT EXISTS provider_txs_owner ON provider_txs (provider, owner_in, created_ns);
CREATE INDEX IF NOT EXISTS provider_txs_contract ON provider_txs (contract_id, provider, created_ns);
CREATE TABLE IF NOT EXISTS merchants (
	owner_in text COLLATE "C" PRIMARY KEY,
	payme_key_hash bytea UNIQUE,
	click_service_id text COLLATE "C" UNIQUE,
	ver bigint NOT NULL, data json NOT NULL);
`

func (t *tx) PutReceipt(r *signflow.Receipt) error {
	return t.write(receipts, []any{r.ContractID, r.ID}, nil, r)
}

func (t *tx) Receipts(contractID string) ([]*signflow.Receipt, error) {
	out := []*signflow.Receipt{}
	if !validText(contractID) {
		return out, nil
	}
	l, err := list[signflow.Receipt](t, "SELECT data FROM receipts WHERE contract_id = $1 ORDER BY id", contractID)
	if err != nil {
		return nil, err
	}
	return append(out, l...), nil
}

func (t *tx) ProviderTx(provider, id string) (*signflow.ProviderTx, error) {
	v := new(signflow.ProviderTx)
	return v, t.read(providerTxs, []any{provider, id}, v)
}

func (t *tx) PutProviderTx(p *signflow.ProviderTx) error {
	return t.write(providerTxs, []any{p.Provider, p.ID}, []any{p.OwnerIN, p.ContractID, p.CreatedAt.UnixNano()}, p)
}

func (t *tx) ContractProviderTxs(provider, contractID string) ([]*signflow.ProviderTx, error) {
	out := []*signflow.ProviderTx{}
	if !validText(provider) || !validText(contractID) {
		return out, nil
	}
	l, err := list[signflow.ProviderTx](t, `SELECT data FROM provider_txs WHERE contract_id = $1 AND provider = $2
		ORDER BY created_ns, id`, contractID, provider)
	return append(out, l...), err
}

func (t *tx) ProviderTxsCreated(provider, ownerIN string, from, to time.Time) ([]*signflow.ProviderTx, error) {
	out := []*signflow.ProviderTx{}
	if !validText(provider) || !validText(ownerIN) {
		return out, nil
	}
	l, err := list[signflow.ProviderTx](t, `SELECT data FROM provider_txs WHERE provider = $1 AND owner_in = $2
		AND created_ns BETWEEN $3 AND $4 ORDER BY created_ns, id`, provider, ownerIN, max(from.UnixNano(), 0), to.UnixNano())
	return append(out, l...), err
}

func (t *tx) Merchant(ownerIN string) (*signflow.Merchant, error) {
	v := new(signflow.Merchant)
	return v, t.read(merchants, []any{ownerIN}, v)
}

// merchantWhere reads the merchant a unique column names.
func (t *tx) merchantWhere(col string, val any) (*signflow.Merchant, error) {
	var (
		owner string
		ver   int64
		data  []byte
	)
	if err := t.queryRow([]any{&owner, &ver, &data}, "SELECT owner_in, ver, data FROM merchants WHERE "+col+" = $1", val); err != nil {
		return nil, notFound(err, "Merchant")
	}
	t.saw(merchants, []any{owner}, ver)
	v := new(signflow.Merchant)
	return v, json.Unmarshal(data, v)
}

func (t *tx) MerchantByPaymeKey(hash []byte) (*signflow.Merchant, error) {
	return t.merchantWhere("payme_key_hash", hash)
}

func (t *tx) MerchantByClickService(serviceID string) (*signflow.Merchant, error) {
	if !validText(serviceID) {
		return nil, signflow.Errorf(signflow.ENOTFOUND, "Merchant not found.")
	}
	return t.merchantWhere("click_service_id", serviceID)
}

func (t *tx) PutMerchant(m *signflow.Merchant) error {
	var hash []byte
	var service *string
	if m.Payme != nil {
		hash = m.Payme.KeyHash
	}
	if m.Click != nil {
		service = &m.Click.ServiceID
	}
	return t.write(merchants, []any{m.OwnerIN}, []any{hash, service}, m)
}

func (t *tx) ContractByNumber(number string) (*signflow.Contract, error) {
	if !validText(number) {
		return nil, signflow.Errorf(signflow.ENOTFOUND, "Contract not found.")
	}
	var id string
	if err := t.queryRow([]any{&id}, "SELECT id FROM contracts WHERE number = $1", number); err != nil {
		return nil, notFound(err, "Contract")
	}
	return t.Contract(id)
}
