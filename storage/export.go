package storage

import (
	"bytes"
	"encoding/json"
	"slices"

	"contracts/signflow"

	bolt "go.etcd.io/bbolt"
)

// Kinds of record that Export gives, by the bucket that holds them. The
// other buckets are indexes and counts, which a store rebuilds from these.
var exportBuckets = [][]byte{bucketMeta, bucketOwners, bucketClaims, bucketTemplateVersions, bucketTemplates, bucketApps, bucketKeys,
	bucketContracts, bucketSessions, bucketAudit, bucketDeliveries, bucketCabinetLogins, bucketCabinetSessions, bucketStamps, bucketTimers,
	bucketReceipts, bucketProviderTxs, bucketMerchants}

// ExportCounts counts the records Export gives, by bucket name.
func (db *DB) ExportCounts() (map[string]int, error) {
	out := map[string]int{}
	err := db.bolt.View(func(btx *bolt.Tx) error {
		for _, name := range exportBuckets {
			n := 0
			if b := btx.Bucket(name); b != nil {
				b.ForEach(func(k, _ []byte) error {
					if !bytes.Equal(name, bucketMeta) || !bytes.Equal(k, keySchema) {
						n++
					}
					return nil
				})
			}
			out[string(name)] = n
		}
		return nil
	})
	return out, err
}

// Export calls visit with every record of the file, bucket by bucket, in
// one read transaction: its bucket name, key and value (JSON, but for
// meta's values and stamps' tokens). Deliveries come in outbox order, and
// each contract's audit events in the order they were added; the schema
// version stays behind. key and value are valid during the call only.
func (db *DB) Export(visit func(bucket string, key, value []byte) error) error {
	return db.bolt.View(func(btx *bolt.Tx) error {
		for _, name := range exportBuckets {
			b := btx.Bucket(name)
			if b == nil {
				continue
			}
			var err error
			switch {
			case bytes.Equal(name, bucketDeliveries):
				err = exportDeliveries(&tx{b: btx}, visit)
			default:
				err = b.ForEach(func(k, v []byte) error {
					if bytes.Equal(name, bucketMeta) && bytes.Equal(k, keySchema) {
						return nil
					}
					return visit(string(name), k, v)
				})
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// exportDeliveries gives the deliveries by their sequence numbers, which
// order the outbox (the bucket is keyed by id), each with its body.
func exportDeliveries(t *tx, visit func(bucket string, key, value []byte) error) error {
	b := t.bucket(bucketDeliveries)
	type entry struct {
		seq uint64
		id  []byte
	}
	var order []entry
	err := b.ForEach(func(k, v []byte) error {
		var d signflow.Delivery
		if err := decodeDelivery(v, &d); err != nil {
			return err
		}
		order = append(order, entry{d.Seq, k})
		return nil
	})
	if err != nil {
		return err
	}
	slices.SortFunc(order, func(a, b entry) int {
		switch {
		case a.seq < b.seq:
			return -1
		case a.seq > b.seq:
			return 1
		}
		return 0
	})
	for _, e := range order {
		d, err := t.Delivery(string(e.id))
		if err != nil {
			return err
		}
		data, err := json.Marshal(d)
		if err != nil {
			return err
		}
		if err := visit(string(bucketDeliveries), e.id, data); err != nil {
			return err
		}
	}
	return nil
}
