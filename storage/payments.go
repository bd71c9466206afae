package storage

import (
	"bytes"
	"encoding/json"

	"contracts/signflow"
)

// bucketReceipts keeps the receipts of the contracts' ledgers:
// <contract id> 0x00 <receipt id> -> Receipt. Receipt ids are time-ordered,
// so a contract's receipts read in the order they were made. It is made by
// the first receipt, not by a migration: a file without it has none, and
// an older build still opens the file.
var bucketReceipts = []byte("receipts")

func (t *tx) PutReceipt(r *signflow.Receipt) error {
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	b, err := t.b.CreateBucketIfNotExists(bucketReceipts)
	if err != nil {
		return err
	}
	return b.Put(join([]byte(r.ContractID), []byte(r.ID)), data)
}

func (t *tx) Receipts(contractID string) ([]*signflow.Receipt, error) {
	out := []*signflow.Receipt{}
	b := t.b.Bucket(bucketReceipts)
	if b == nil {
		return out, nil
	}
	prefix := join([]byte(contractID), nil)
	c := b.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		r := new(signflow.Receipt)
		if err := json.Unmarshal(v, r); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}
