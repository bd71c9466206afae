package storage

import (
	"fmt"
	"os"

	bolt "go.etcd.io/bbolt"
)

// migrations[i] moves the schema from version i to i+1. Append only.
var migrations = []func(*bolt.Tx) error{
	createBuckets,
	createCabinetBuckets,
	createContractCounts,
	moveClientsToTenants,
	createContractAll,
	createDeliveryClaimIndexes,
	recordContractParties,
	splitDeliveryBodies,
	createPairCounts,
	createTemplateVersions,
	indexLaneHeads,
}

// CurrentSchema is the schema version this build writes.
func CurrentSchema() uint64 { return uint64(len(migrations)) }

// allBuckets are the buckets of schema 1.
var allBuckets = [][]byte{bucketMeta, bucketClients, bucketClientNames, bucketTemplates, bucketApps, bucketKeys,
	bucketKeyHashes, bucketKeyOwners, bucketContracts, bucketContractNumbers, bucketContractParty, bucketContractPair,
	bucketSessions, bucketSessionTokens, bucketSessionExpiry, bucketAudit, bucketDeliveries, bucketDeliveryQueue,
	bucketDeliveryContract}

func createBuckets(btx *bolt.Tx) error {
	for _, name := range allBuckets {
		if _, err := btx.CreateBucketIfNotExists(name); err != nil {
			return err
		}
	}
	return nil
}

func (db *DB) migrate() error {
	var from uint64
	var hasData bool // a file at schema 0 with buckets predates versioning
	if err := db.bolt.View(func(btx *bolt.Tx) error {
		from = schemaOf(btx)
		k, _ := btx.Cursor().First()
		hasData = k != nil
		return nil
	}); err != nil {
		return err
	}
	to := CurrentSchema()
	if from > to {
		return fmt.Errorf("%s has schema version %d, newer than this build's %d: upgrade contracts", db.path, from, to)
	}
	if from == to {
		return nil
	}
	if from > 0 || hasData {
		if err := db.snapshot(fmt.Sprintf("%s.pre-v%d.bak", db.path, to)); err != nil {
			return fmt.Errorf("snapshot before migration: %w", err)
		}
	}
	return db.bolt.Update(func(btx *bolt.Tx) error {
		for v := from; v < to; v++ {
			if err := migrations[v](btx); err != nil {
				return fmt.Errorf("migration to schema %d: %w", v+1, err)
			}
		}
		b, err := btx.CreateBucketIfNotExists(bucketMeta)
		if err != nil {
			return err
		}
		return b.Put(keySchema, seq8(to))
	})
}

func (db *DB) snapshot(path string) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := db.Backup(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
