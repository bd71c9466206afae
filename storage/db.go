// Package storage keeps every entity of the appliance in one bbolt file and
// implements signflow.Store over it.
//
// The bucket layout — buckets, keys, values, indexes — is drawn once, in
// docs/ARCHITECTURE.md ("The bucket tree"): a new bucket is drawn there
// too, and TestBucketTree checks that a new file holds exactly the buckets
// drawn. Bucket names are the package-level variables below and beside
// their users (tenants.go, counts.go, cabinet.go).
package storage

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"contracts/signflow"

	bolt "go.etcd.io/bbolt"
)

var (
	bucketMeta             = []byte("meta")
	bucketTemplates        = []byte("templates")
	bucketApps             = []byte("apps")
	bucketKeys             = []byte("keys")
	bucketKeyHashes        = []byte("key_hashes")
	bucketKeyOwners        = []byte("key_owners")
	bucketContracts        = []byte("contracts")
	bucketContractNumbers  = []byte("contract_numbers")
	bucketContractParty    = []byte("contract_party")
	bucketContractPair     = []byte("contract_pair")
	bucketSessions         = []byte("sessions")
	bucketSessionTokens    = []byte("session_tokens")
	bucketSessionExpiry    = []byte("session_expiry")
	bucketAudit            = []byte("audit")
	bucketDeliveries       = []byte("deliveries")
	bucketDeliveryQueue    = []byte("delivery_queue")
	bucketDeliveryContract = []byte("delivery_contract")

	keySchema = []byte("schema")
)

// DB is the bbolt file of one appliance.
type DB struct {
	bolt *bolt.DB
	path string
	// deliveryAdded is called after a transaction that added a delivery commits.
	deliveryAdded atomic.Pointer[func()]
	// cache keeps decoded hot records beside their bytes (cache.go).
	cache *recordCache
	// memos keeps what readers derived from contracts, and written the
	// latest writes of contracts, by which a memo is known to hold
	// without a transaction (memo.go).
	memos   *memoCache
	written contractWrites
	// stable notes the writes that end what the cache knows of the
	// rarely written buckets (cache.go).
	stable stableWrites
	// claims are the outbox rows handed out to senders (outbox.go).
	claims claims
	// queued counts the keys of delivery_queue as committed (outbox.go).
	queued atomic.Int64
	// lastWrite is the id of the latest write transaction known to have
	// committed through this DB (memo.go).
	lastWrite atomic.Uint64
	// batcher gathers Updates into shared transactions (batch.go).
	batcher batcher
	// write is the tx of the write transaction under way, shared by its
	// Update functions; only the writer holding bbolt's lock touches it
	// (write_state.go).
	write *tx
	// prepared holds the creates' records encoded before their write, by
	// contract (contract_prepare.go).
	prepared preparedRecords
}

// Options tune how the file is opened.
type Options struct {
	Timeout    time.Duration // wait for the file lock; default 1s
	BatchDelay time.Duration // a write's wait for others while no commit is under way (data.batchDelay, batch.go); 0: none
	ReadOnly   bool
}

// Open opens (creating if needed) the database at path and runs pending
// migrations, first writing a snapshot of the old file beside it.
func Open(path string, opt Options) (*DB, error) {
	if opt.Timeout == 0 {
		opt.Timeout = time.Second
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("create data directory: %w", err)
	}
	b, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: opt.Timeout, ReadOnly: opt.ReadOnly})
	if errors.Is(err, bolt.ErrTimeout) {
		return nil, fmt.Errorf("another process is using %s (is another contracts process running?)", path)
	} else if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	b.MaxBatchDelay = opt.BatchDelay // read by the group commit (batch.go)
	db := &DB{bolt: b, path: path, cache: newRecordCache(cacheBytes), memos: newMemoCache(memoBytes), claims: claims{rows: map[uint64]heldRow{}}}
	if !opt.ReadOnly {
		if err := db.migrate(); err != nil {
			b.Close()
			return nil, err
		}
	}
	if err := db.countQueued(); err != nil {
		b.Close()
		return nil, err
	}
	return db, nil
}

// OnDeliveryAdded sets fn to be called after every committed transaction
// that added webhook deliveries to the outbox (the delivery pool's wake-up).
func (db *DB) OnDeliveryAdded(fn func()) { db.deliveryAdded.Store(&fn) }

// Close closes the file.
func (db *DB) Close() error { return db.bolt.Close() }

// Path is the file's path.
func (db *DB) Path() string { return db.path }

// Bolt exposes the underlying handle for benchmarks that compare against it.
func (db *DB) Bolt() *bolt.DB { return db.bolt }

// Update runs fn in a batched write transaction; fn may run more than once.
func (db *DB) Update(fn func(signflow.Tx) error) error {
	return db.batch(func(btx *bolt.Tx) error { return fn(db.writeTx(btx)) })
}

// View runs fn in a read transaction. Records it reads may share their
// pointers, maps and slices with other readers (see recordCache): do not
// modify those in place.
func (db *DB) View(fn func(signflow.Tx) error) error {
	return db.bolt.View(func(btx *bolt.Tx) error { return fn(&tx{b: btx, db: db}) })
}

// Backup writes a consistent snapshot of the whole file to w while writers
// go on, and returns its size.
func (db *DB) Backup(w io.Writer) (int64, error) {
	var n int64
	err := db.bolt.View(func(btx *bolt.Tx) (err error) { n, err = btx.WriteTo(w); return err })
	return n, err
}

// SchemaVersion reads the stored schema version.
func (db *DB) SchemaVersion() (uint64, error) {
	var v uint64
	err := db.bolt.View(func(btx *bolt.Tx) error { v = schemaOf(btx); return nil })
	return v, err
}

func schemaOf(btx *bolt.Tx) uint64 {
	if b := btx.Bucket(bucketMeta); b != nil {
		if v := b.Get(keySchema); len(v) == 8 {
			return binary.BigEndian.Uint64(v)
		}
	}
	return 0
}

func seq8(n uint64) []byte {
	b := make([]byte, 8)
	binary.BigEndian.PutUint64(b, n)
	return b
}

// Meta reads a value the appliance keeps about itself; "" when absent.
func (db *DB) Meta(name string) (string, error) {
	var v string
	err := db.bolt.View(func(btx *bolt.Tx) error { v = string(btx.Bucket(bucketMeta).Get([]byte(name))); return nil })
	return v, err
}

// SetMeta stores a value the appliance keeps about itself.
func (db *DB) SetMeta(name, value string) error {
	return db.bolt.Update(func(btx *bolt.Tx) error {
		db.noteCommit(btx)
		return btx.Bucket(bucketMeta).Put([]byte(name), []byte(value))
	})
}
