package postgres

import "contracts/signflow"

// receipts keeps the receipts of the contracts' ledgers. The table is made
// at open, not by a schema step: a database without it has none.
var receipts = newTable("receipts", "Receipt", []string{"contract_id", "id"}, nil)

const paymentTables = `
CREATE TABLE IF NOT EXISTS receipts (
	contract_id text COLLATE "C",
	id text COLLATE "C",
	ver bigint NOT NULL, data json NOT NULL,
	PRIMARY KEY (contract_id, id));
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
