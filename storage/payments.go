package storage

import (
	"bytes"
	"encoding/json"
	"time"

	"contracts/signflow"

	bolt "go.etcd.io/bbolt"
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

// The providers' transactions and the owners' merchant accounts, made by
// their first write like receipts:
//
//	provider_txs       <provider> 0x00 <provider's id> -> ProviderTx
//	provider_tx_index  'c' <contract id> 0x00 <provider> 0x00 <created ns8> <id> -> nil
//	                   't' <provider> 0x00 <owner in> 0x00 <created ns8> <id> -> nil
//	merchants          <owner in> -> Merchant
//	merchant_index     'p' <sha256 of the Payme key> | 'c' <Click service id> -> owner in
var (
	bucketProviderTxs     = []byte("provider_txs")
	bucketProviderTxIndex = []byte("provider_tx_index")
	bucketMerchants       = []byte("merchants")
	bucketMerchantIndex   = []byte("merchant_index")
)

// lazyBucket is a bucket made by its first write; nil when absent.
func (t *tx) lazyBucket(name []byte) (*bolt.Bucket, error) {
	if t.b.Writable() {
		return t.b.CreateBucketIfNotExists(name)
	}
	return t.b.Bucket(name), nil
}

func (t *tx) ProviderTx(provider, id string) (*signflow.ProviderTx, error) {
	v := new(signflow.ProviderTx)
	b := t.b.Bucket(bucketProviderTxs)
	if b == nil {
		return nil, signflow.Errorf(signflow.ENOTFOUND, "Transaction not found.")
	}
	data := b.Get(join([]byte(provider), []byte(id)))
	if data == nil {
		return nil, signflow.Errorf(signflow.ENOTFOUND, "Transaction not found.")
	}
	return v, json.Unmarshal(data, v)
}

func (t *tx) PutProviderTx(p *signflow.ProviderTx) error {
	data, err := json.Marshal(p)
	if err != nil {
		return err
	}
	b, err := t.lazyBucket(bucketProviderTxs)
	if err != nil {
		return err
	}
	ix, err := t.lazyBucket(bucketProviderTxIndex)
	if err != nil {
		return err
	}
	at := seq8(uint64(p.CreatedAt.UnixNano()))
	byContract := append(append([]byte{'c'}, join([]byte(p.ContractID), []byte(p.Provider), at)...), p.ID...)
	byOwner := append(append([]byte{'t'}, join([]byte(p.Provider), []byte(p.OwnerIN), at)...), p.ID...)
	if err := ix.Put(byContract, nil); err != nil {
		return err
	}
	if err := ix.Put(byOwner, nil); err != nil {
		return err
	}
	return b.Put(join([]byte(p.Provider), []byte(p.ID)), data)
}

// providerTxsFrom reads the transactions of the index keys under prefix
// from seek on, until last says a key's time is past the end.
func (t *tx) providerTxsFrom(provider string, prefix []byte, seek []byte, last func(at []byte) bool) ([]*signflow.ProviderTx, error) {
	out := []*signflow.ProviderTx{}
	ix := t.b.Bucket(bucketProviderTxIndex)
	if ix == nil {
		return out, nil
	}
	c := ix.Cursor()
	for k, _ := c.Seek(seek); k != nil && bytes.HasPrefix(k, prefix) && len(k) >= len(prefix)+8; k, _ = c.Next() {
		if last != nil && last(k[len(prefix):len(prefix)+8]) {
			break
		}
		p, err := t.ProviderTx(provider, string(k[len(prefix)+8:]))
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

func (t *tx) ContractProviderTxs(provider, contractID string) ([]*signflow.ProviderTx, error) {
	prefix := append([]byte{'c'}, join([]byte(contractID), []byte(provider), nil)...)
	return t.providerTxsFrom(provider, prefix, prefix, nil)
}

func (t *tx) ProviderTxsCreated(provider, ownerIN string, from, to time.Time) ([]*signflow.ProviderTx, error) {
	prefix := append([]byte{'t'}, join([]byte(provider), []byte(ownerIN), nil)...)
	if from.Before(time.Unix(0, 0)) {
		from = time.Unix(0, 0)
	}
	end := seq8(uint64(to.UnixNano()))
	return t.providerTxsFrom(provider, prefix, append(bytes.Clone(prefix), seq8(uint64(from.UnixNano()))...),
		func(at []byte) bool { return bytes.Compare(at, end) > 0 })
}

func (t *tx) Merchant(ownerIN string) (*signflow.Merchant, error) {
	b := t.b.Bucket(bucketMerchants)
	if b == nil {
		return nil, signflow.Errorf(signflow.ENOTFOUND, "Merchant not found.")
	}
	data := b.Get([]byte(ownerIN))
	if data == nil {
		return nil, signflow.Errorf(signflow.ENOTFOUND, "Merchant not found.")
	}
	m := new(signflow.Merchant)
	return m, json.Unmarshal(data, m)
}

func (t *tx) merchantBy(key []byte) (*signflow.Merchant, error) {
	ix := t.b.Bucket(bucketMerchantIndex)
	if ix == nil {
		return nil, signflow.Errorf(signflow.ENOTFOUND, "Merchant not found.")
	}
	owner := ix.Get(key)
	if owner == nil {
		return nil, signflow.Errorf(signflow.ENOTFOUND, "Merchant not found.")
	}
	return t.Merchant(string(owner))
}

func (t *tx) MerchantByPaymeKey(hash []byte) (*signflow.Merchant, error) {
	return t.merchantBy(append([]byte{'p'}, hash...))
}

func (t *tx) MerchantByClickService(serviceID string) (*signflow.Merchant, error) {
	return t.merchantBy(append([]byte{'c'}, serviceID...))
}

// merchantKeys are the index keys of a merchant record.
func merchantKeys(m *signflow.Merchant) [][]byte {
	var out [][]byte
	if m.Payme != nil {
		out = append(out, append([]byte{'p'}, m.Payme.KeyHash...))
	}
	if m.Click != nil {
		out = append(out, append([]byte{'c'}, m.Click.ServiceID...))
	}
	return out
}

// PutMerchant writes the record and moves its index entries: the old
// record's go, the new one's come.
func (t *tx) PutMerchant(m *signflow.Merchant) error {
	data, err := json.Marshal(m)
	if err != nil {
		return err
	}
	b, err := t.lazyBucket(bucketMerchants)
	if err != nil {
		return err
	}
	ix, err := t.lazyBucket(bucketMerchantIndex)
	if err != nil {
		return err
	}
	if old, err := t.Merchant(m.OwnerIN); err == nil {
		for _, k := range merchantKeys(old) {
			if err := ix.Delete(k); err != nil {
				return err
			}
		}
	}
	for _, k := range merchantKeys(m) {
		if err := ix.Put(k, []byte(m.OwnerIN)); err != nil {
			return err
		}
	}
	return b.Put([]byte(m.OwnerIN), data)
}

func (t *tx) ContractByNumber(number string) (*signflow.Contract, error) {
	id := t.bucket(bucketContractNumbers).Get([]byte(number))
	if id == nil {
		return nil, signflow.Errorf(signflow.ENOTFOUND, "Contract not found.")
	}
	return t.Contract(string(id))
}
