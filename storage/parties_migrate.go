package storage

import (
	"bytes"
	"encoding/json"

	"contracts/signflow"

	bolt "go.etcd.io/bbolt"
)

// Schema 7 gives every contract last changed before changes kept their
// parties' details (Contract.Parties) the details its creator's tenant
// holds at the upgrade: what its reads and its document showed until then,
// now kept on the contract as later changes keep them. A contract that has
// them is left as it is.

// partiesBatch is how many contracts the upgrade reads before it writes
// them: a cursor is not moved across the writes of its bucket.
const partiesBatch = 256

func recordContractParties(btx *bolt.Tx) error {
	t := &tx{b: btx}
	contracts := btx.Bucket(bucketContracts)
	var last []byte // the last key read
	for {
		var todo []*signflow.Contract
		cur := contracts.Cursor()
		k, v := cur.First()
		if last != nil {
			if k, v = cur.Seek(last); bytes.Equal(k, last) {
				k, v = cur.Next()
			}
		}
		for ; k != nil && len(todo) < partiesBatch; k, v = cur.Next() {
			last = bytes.Clone(k)
			c := new(signflow.Contract)
			if err := json.Unmarshal(v, c); err != nil {
				return err
			}
			if c.Parties == nil {
				todo = append(todo, c)
			}
		}
		for _, c := range todo {
			if err := signflow.RecordParties(t, c); err != nil {
				return err
			}
			if err := t.put(bucketContracts, []byte(c.ID), c); err != nil {
				return err
			}
		}
		if k == nil {
			return nil
		}
	}
}
