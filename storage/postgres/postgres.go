// Package postgres implements signflow.Store on PostgreSQL, for several
// appliance processes sharing one database. It gives what the bbolt store
// gives — a change, its audit events, its counts and its outbox rows in
// one transaction; lists and searches from indexes — and what sharing
// needs: records written under optimistic versions, outbox claims with
// FOR UPDATE SKIP LOCKED, advisory locks and a credentials version.
//
// Tables (schema.go has them whole). Every record table holds the record
// as JSON in data, its version in ver, and beside them the columns that
// lookups, lists and claims use:
//
//	schema_version      the schema's version (one row)
//	meta                name -> value the appliance keeps about itself
//	credentials_version n, moved on by every change of an app, a key or an owner's record (one row)
//	templates, apps     id
//	template_versions   id, version: every version of each template (schema 3)
//	api_keys            id, hash (unique), owner_in
//	owners              client_in: the admin's record of an owner
//	owner_names         word, client_in: lower-case name words of owners
//	claims              client_in, tenant: a tenant's claim on a number
//	claim_names         tenant, word, client_in: name words of each tenant's claims
//	contracts           id, seq (sequence contract_seq), number, status, template_id, parties
//	contract_parties    party_in, seq -> other_in, status, template_id, contract_id: one row per party
//	contract_counts     party_in, template_id, status, shard -> n; '' stands for any
//	contract_pair_counts party_in, other_in, template_id, status, shard -> n (schema 2)
//	contract_stats      key, shard -> n: "s<status>" and "d<day created>" of every contract
//	stamps              key -> token: the seals' time-stamp tokens
//	files               name -> data: the generated seal and the ACME cache (files.go)
//	sessions            id, token_hash, status, expires_ns
//	audit               seq, contract_id
//	deliveries          id, seq, contract_id, target, status, next_ns, avail_ns, claimed_by
//	cabinet_logins      client_in, purge_ns
//	cabinet_sessions    token_hash, expires_ns
//	requests            caller, key, expires_ns: idempotency keys (requests.go; made at open)
//	timers              kind, subject, due_ns: deadlines and reminders (timers.go; made at open)
//	receipts            contract_id, id: the ledgers' receipts (made at open, payments.go)
//	provider_txs        provider, id, owner_in, contract_id, created_ns: Payme's and Click's transactions (made at open)
//	merchants           owner_in, payme_key_hash, click_service_id: owners' provider accounts (made at open)
//
// Times that are compared (expiry, purge, due) are unix nanoseconds, as
// exact as the records' own times.
//
// Write transactions run at READ COMMITTED. Each record a transaction
// reads carries its version; writing it back is conditional on that
// version (or, for a record read as absent, on its still being absent),
// and a record changed meanwhile makes the transaction roll back and run
// again: signflow.Store allows Update to run fn more than once. So two
// processes that sign one contract at once are serialised by the
// contract's row, and the second sees the first's signature. When many
// write at once, writers share transactions (group.go). Counts are
// added to atomically, spread over shards so that concurrent writers of
// one party seldom wait for each other. Read transactions run at
// REPEATABLE READ, so that a list's page and total agree.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"contracts/signflow"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Store is a PostgreSQL database of one or more appliance processes.
type Store struct {
	pool *pgxpool.Pool
	opt  Options
	// deliveryAdded is called after a transaction that added a delivery commits.
	deliveryAdded atomic.Pointer[func()]
	creds         credCache
	tpls          tplCache
	claims        claimCache
	spares        *spares
	group         group
	runners       int // write transactions in flight before writers share them (group.go)
	memos         *memoCache
}

// Options tune the connection pool.
type Options struct {
	MaxConns int32 // default pgxpool's: 4 or the number of CPUs, whichever is more
	// Timeout bounds each transaction and each statement outside one, from
	// the wait for a connection to the commit, so that a stuck database
	// fails a request instead of holding it; required (data.postgres.timeout).
	Timeout time.Duration
	tracer  pgx.QueryTracer // the tests' count of statements (export_test.go)
	runners int             // the tests' bound on write transactions in flight (export_test.go)
}

// timeout bounds one transaction or statement.
func (s *Store) timeout(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, s.opt.Timeout)
}

// Open connects to the database at url (a libpq URL or key=value string),
// creates or migrates its schema, and returns the store.
func Open(ctx context.Context, url string, opt Options) (*Store, error) {
	if opt.Timeout <= 0 {
		return nil, fmt.Errorf("postgres: Options.Timeout must be positive (data.postgres.timeout)")
	}
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("postgres url: %w", err)
	}
	if opt.MaxConns > 0 {
		cfg.MaxConns = opt.MaxConns
	}
	if opt.tracer != nil {
		cfg.ConnConfig.Tracer = opt.tracer
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	s := &Store{pool: pool, opt: opt, spares: newSpares(cfg.MaxConns, opt.Timeout), memos: newMemoCache(memoBytes),
		runners: int(min(cfg.MaxConns, groupRunners))}
	if opt.runners > 0 {
		s.runners = opt.runners
	}
	if err := s.migrate(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	return s, nil
}

// Close closes the store's connections.
func (s *Store) Close() error {
	s.spares.close()
	s.pool.Close()
	return nil
}

// OnDeliveryAdded sets fn to be called after every transaction of this
// process that added webhook deliveries to the outbox commits.
func (s *Store) OnDeliveryAdded(fn func()) { s.deliveryAdded.Store(&fn) }

// maxAttempts bounds how often Update runs fn when other transactions keep
// changing what it read.
const maxAttempts = 50

// updateAlone runs fn in a write transaction of its own, again when a
// record fn read was changed by another transaction before this one could
// commit.
func (s *Store) updateAlone(fn func(signflow.Tx) error, shard int16) error {
	for attempt := 1; ; attempt++ {
		err := s.update(shard, fn)
		if err == nil || !retryable(err) {
			return err
		}
		if attempt == maxAttempts {
			return fmt.Errorf("postgres: gave up after %d attempts: %w", attempt, err)
		}
		// A short random pause lets the other writer finish.
		time.Sleep(time.Duration(rand.Int64N(int64(min(attempt, 10)) * int64(time.Millisecond))))
	}
}

// update runs fn in a write transaction that adds to the counts of shard
// (group.go), or of its first contract's when noShard.
func (s *Store) update(shard int16, fn func(signflow.Tx) error) error {
	ctx, cancel := s.timeout(context.Background())
	defer cancel()
	l, release, err := s.lazy(ctx, "BEGIN ISOLATION LEVEL READ COMMITTED")
	if err != nil {
		return err
	}
	defer release()
	t := newTx(ctx, l, true)
	t.creds, l.credVer, t.tpls, t.shard, t.claimsKept = &s.creds, &t.credVer, &s.tpls, shard, &s.claims
	if err := fn(t); err != nil {
		// A conflict seen by the transaction wins over what fn made of it.
		if t.failed != nil {
			return t.failed
		}
		return err
	}
	if err := t.commit(l); err != nil {
		return err
	}
	if t.addedDelivery {
		if fn := s.deliveryAdded.Load(); fn != nil {
			(*fn)()
		}
	}
	return nil
}

// View runs fn in a read-only transaction over one snapshot.
func (s *Store) View(fn func(signflow.Tx) error) error { return s.view(nil, fn) }

// view is View, with setup, when set, applied to the transaction first.
func (s *Store) view(setup func(*tx), fn func(signflow.Tx) error) error {
	ctx, cancel := s.timeout(context.Background())
	defer cancel()
	l, release, err := s.lazy(ctx, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
	if err != nil {
		return err
	}
	defer release()
	// Whatever fn makes of what it read, the transaction wrote nothing:
	// the next taker of the connection commits it (spare.go).
	l.park = true
	t := newTx(ctx, l, false)
	t.creds, t.memos, t.tpls, t.claimsKept = &s.creds, s.memos, &s.tpls, &s.claims
	if setup != nil {
		setup(t)
	}
	if err := fn(t); err != nil {
		return err
	}
	return t.failed
}

// lazy takes a connection for a transaction that begins with its first
// statement; release rolls back what was not committed and gives the
// connection back (the pool drops one left inside a transaction).
//
// The connection may be a parked one (spare.go), whose read-only
// transaction the first round trip commits; one that sent nothing is
// parked again as it was, as is one whose read-only transaction is over.
func (s *Store) lazy(ctx context.Context, begin string) (*lazyTx, func(), error) {
	conn, pending, err := s.spares.acquire(ctx, s.pool)
	if err != nil {
		return nil, nil, err
	}
	l := &lazyTx{conn: conn, begin: begin, pending: pending}
	return l, func() {
		if l.park || l.pending && !l.begun {
			s.spares.park(l.conn)
			return
		}
		l.end(ctx, false)
		s.spares.release(l.conn)
	}, nil
}

// errConflict says that a record read by the transaction changed before
// the transaction could write it.
var errConflict = errors.New("postgres: a record changed under the transaction")

// retryable reports whether running the transaction again may succeed.
func retryable(err error) bool {
	if errors.Is(err, errConflict) {
		return true
	}
	var pe *pgconn.PgError
	// serialization_failure, deadlock_detected
	return errors.As(err, &pe) && (pe.Code == "40001" || pe.Code == "40P01")
}

var (
	_ signflow.Store  = (*Store)(nil)
	_ signflow.Outbox = (*Store)(nil)
	_ signflow.Shared = (*Store)(nil)
	_ signflow.Tx     = (*tx)(nil)
)
