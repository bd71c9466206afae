package storage

import (
	"bytes"

	"contracts/signflow"
)

// bucketContractWitnesses indexes the contracts that name each witness:
// <witness in> 0x00 <seq8> -> contract id. Like stamps, it is made by the
// first contract with witnesses, not by a migration: a file without it
// has none, and an older build still opens the file.
var bucketContractWitnesses = []byte("contract_witnesses")

// putWitnesses indexes c under its witnesses; they never change after
// creation, so a rewrite puts the same keys.
func (t *tx) putWitnesses(c *signflow.Contract) error {
	if len(c.Witnesses) == 0 {
		return nil
	}
	b, err := t.b.CreateBucketIfNotExists(bucketContractWitnesses)
	if err != nil {
		return err
	}
	for _, w := range c.Witnesses {
		if err := b.Put(join([]byte(w.IN), seq8(c.Seq)), []byte(c.ID)); err != nil {
			return err
		}
	}
	return nil
}

func (t *tx) WitnessContracts(in string, limit int) ([]string, error) {
	b := t.b.Bucket(bucketContractWitnesses)
	if b == nil || in == "" {
		return nil, nil
	}
	prefix := join([]byte(in), nil)
	var out []string
	c := b.Cursor()
	k, v := c.Seek(append(bytes.Clone(prefix), 0xff))
	if k == nil {
		k, v = c.Last()
	} else {
		k, v = c.Prev()
	}
	for ; k != nil && bytes.HasPrefix(k, prefix) && len(out) < limit; k, v = c.Prev() {
		out = append(out, string(v))
	}
	return out, nil
}
