package postgres

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"contracts/signflow"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// tx implements signflow.Tx over one PostgreSQL transaction. Writes whose
// answer nobody waits for are queued and sent together, in one round trip,
// before the next read and before the commit.
type tx struct {
	ctx      context.Context
	pg       querier
	writable bool
	// seen holds, in a write transaction, the version of each record read:
	// 0 when it was read as absent, -1 once written without a read.
	seen map[string]int64
	// status holds the status of each contract read or written, for its counts.
	status map[string]string
	// newSeqs are the contract numbers this transaction took; seqsAhead
	// how many a shared transaction takes at its first need (one per
	// writer), and seqs those taken and not yet given.
	newSeqs   map[uint64]bool
	seqsAhead int
	seqs      []int64
	// shared says that writers share the transaction (group.go): a claim
	// one read is kept for the others, in ahead.
	shared bool
	batch  pgx.Batch
	checks []func(pgconn.CommandTag) error
	// rows are new rows waiting for their table's one INSERT (rows.go).
	rows []rowSet
	// failed is the first error of a statement; the transaction cannot commit.
	failed        error
	addedDelivery bool
	// ahead holds records read ahead with a contract (prefetch.go), and
	// claimsRead the numbers whose every claim is in it.
	ahead      map[string]prefetched
	claimsRead map[string]bool
	// creds is the store's cache of credentials (credcache.go); credVer
	// the credentials version at the transaction's start, -1 unknown, and
	// credWritten whether the transaction changed an app or a key.
	creds       *credCache
	credVer     int64
	credWritten bool
	// tpls is the store's cache of templates (tplcache.go), and
	// tplWritten whether the transaction wrote a template.
	tpls       *tplCache
	tplWritten bool
	// claimsKept is the store's cache of claims (claimcache.go), and
	// confirmedClaims those of it a write's trusts confirmed.
	claimsKept      *claimCache
	confirmedClaims map[string]keptClaim
	// trusted, in a create's read-only transaction (trust.go), receives
	// what it took from the caches unread; trustCred is the credentials
	// version it may take so, -1 none.
	trusted   **trust
	trustCred int64
	// counts, pairs and stats are the count changes not yet queued
	// (contracts.go), all of them in shard.
	counts countDeltas
	pairs  pairDeltas
	stats  statDeltas
	shard  int16
	// memos is the store's (memo.go), in a read-only transaction; early
	// a contract's row read by Memo, for Contract; derived the contract
	// read last, and reads the statements sent.
	memos   *memoCache
	early   *contractRow
	derived derivation
	reads   int
}

func newTx(ctx context.Context, pg querier, writable bool) *tx {
	return &tx{ctx: ctx, pg: pg, writable: writable, seen: map[string]int64{}, status: map[string]string{}, credVer: -1, shard: noShard}
}

// errReadOnly refuses a write in View, as bbolt does.
var errReadOnly = errors.New("postgres: a write in a read-only transaction")

// mayWrite refuses a write in a read-only transaction, which then cannot
// commit either.
func (t *tx) mayWrite() error {
	if !t.writable {
		t.fail(errReadOnly)
		return errReadOnly
	}
	return nil
}

// queue adds a write to the next round trip; check, when set, judges its outcome.
func (t *tx) queue(check func(pgconn.CommandTag) error, sql string, args ...any) {
	if t.mayWrite() != nil {
		return
	}
	t.queueRows()
	t.batch.Queue(sql, args...)
	t.checks = append(t.checks, check)
}

// flush sends the queued writes.
func (t *tx) flush() error {
	if t.failed != nil {
		return t.failed
	}
	t.queueRows()
	if t.batch.Len() == 0 {
		return nil
	}
	batch, checks := t.batch, t.checks
	t.batch, t.checks = pgx.Batch{}, nil
	br := t.pg.SendBatch(t.ctx, &batch)
	err := t.judge(br, checks)
	if e := br.Close(); e != nil && err == nil {
		err = e
	}
	if err != nil {
		t.failed = err
	}
	return err
}

// judge reads the outcomes of the queued writes at the head of br.
func (t *tx) judge(br pgx.BatchResults, checks []func(pgconn.CommandTag) error) error {
	var err error
	for _, check := range checks {
		tag, e := br.Exec()
		if e == nil && check != nil {
			e = check(tag)
		}
		if e != nil && err == nil {
			err = e
		}
	}
	return err
}

// commit sends the queued writes and the COMMIT. When no queued write
// waits for a check of its outcome, the COMMIT goes in the writes' round
// trip: a write that fails makes the server skip it, and release rolls
// back. A checked write (a conflict shows as no row changed) is judged
// before a separate COMMIT.
func (t *tx) commit(l *lazyTx) error {
	if t.failed != nil {
		return t.failed
	}
	t.queueCounts() // with the rows waiting
	if t.batch.Len() == 0 || slices.ContainsFunc(t.checks, func(c func(pgconn.CommandTag) error) bool { return c != nil }) {
		if err := t.flush(); err != nil {
			return err
		}
		return l.end(t.ctx, true)
	}
	t.batch.Queue("COMMIT")
	t.checks = append(t.checks, nil)
	if err := t.flush(); err != nil {
		return err
	}
	l.begun = false
	return nil
}

// query runs a read after the queued writes, in their round trip.
func (t *tx) query(sql string, args ...any) (pgx.Rows, error) {
	if t.failed != nil {
		return nil, t.failed
	}
	t.reads++
	t.queueRows()
	if t.batch.Len() == 0 {
		rows, err := t.pg.Query(t.ctx, sql, args...)
		if err != nil {
			t.fail(err)
		}
		return rows, err
	}
	batch, checks := t.batch, t.checks
	t.batch, t.checks = pgx.Batch{}, nil
	batch.Queue(sql, args...)
	br := t.pg.SendBatch(t.ctx, &batch)
	if err := t.judge(br, checks); err != nil {
		br.Close()
		t.fail(err)
		return nil, err
	}
	rows, err := br.Query()
	if err != nil {
		br.Close()
		t.fail(err)
		return nil, err
	}
	return batchRows{rows, br}, nil
}

// queryRow runs a one-row read after the queued writes and scans it.
func (t *tx) queryRow(dest []any, sql string, args ...any) error {
	rows, err := t.query(sql, args...)
	if err != nil {
		return err
	}
	err = firstRow{rows}.Scan(dest...)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		t.fail(err)
	}
	return err
}

func (t *tx) fail(err error) {
	if t.failed == nil {
		t.failed = err
	}
}

// oneRow is the check of a conditional write: no row means that the
// record changed since it was read.
func oneRow(tag pgconn.CommandTag) error {
	if tag.RowsAffected() != 1 {
		return errConflict
	}
	return nil
}

// table describes a table of records kept as JSON under a key.
type table struct {
	name string
	what string   // for "... not found."
	keys []string // primary key columns
	cols []string // columns kept beside data, from the record

	get, insert, upsert, update string
}

// newTable builds the statements of a table.
func newTable(name, what string, keys, cols []string) *table {
	t := &table{name: name, what: what, keys: keys, cols: cols}
	var where []string
	for i, k := range keys {
		where = append(where, fmt.Sprintf("%s = $%d", k, i+1))
	}
	all := append(append(append([]string{}, keys...), cols...), "data")
	var params, sets []string
	for i, c := range all {
		params = append(params, fmt.Sprintf("$%d", i+1))
		if i >= len(keys) {
			sets = append(sets, fmt.Sprintf("%s = $%d", c, i+1))
		}
	}
	t.get = fmt.Sprintf("SELECT ver, data FROM %s WHERE %s", name, strings.Join(where, " AND "))
	t.insert = fmt.Sprintf("INSERT INTO %s (%s, ver) VALUES (%s, 1) ON CONFLICT (%s) DO NOTHING",
		name, strings.Join(all, ", "), strings.Join(params, ", "), strings.Join(keys, ", "))
	var excluded []string
	for _, c := range all[len(keys):] {
		excluded = append(excluded, fmt.Sprintf("%s = EXCLUDED.%s", c, c))
	}
	t.upsert = fmt.Sprintf("INSERT INTO %s (%s, ver) VALUES (%s, 1) ON CONFLICT (%s) DO UPDATE SET %s, ver = %s.ver + 1",
		name, strings.Join(all, ", "), strings.Join(params, ", "), strings.Join(keys, ", "), strings.Join(excluded, ", "), name)
	t.update = fmt.Sprintf("UPDATE %s SET %s, ver = ver + 1 WHERE %s AND ver = $%d",
		name, strings.Join(sets, ", "), strings.Join(where, " AND "), len(all)+1)
	return t
}

// seenKey names a record in tx.seen.
func (tb *table) seenKey(key []any) string {
	var b strings.Builder
	n := len(tb.name)
	for _, k := range key {
		s, _ := k.(string)
		n += 1 + max(len(s), 20)
	}
	b.Grow(n)
	b.WriteString(tb.name)
	for _, k := range key {
		b.WriteByte(0)
		if s, ok := k.(string); ok {
			b.WriteString(s)
		} else {
			fmt.Fprint(&b, k)
		}
	}
	return b.String()
}

// key1 and key2 are seenKey of one key and of two, each in one allocation.
func (tb *table) key1(a string) string    { return tb.name + "\x00" + a }
func (tb *table) key2(a, b string) string { return tb.name + "\x00" + a + "\x00" + b }

// read decodes the record under key into v, or returns ENOTFOUND.
func (t *tx) read(tb *table, key []any, v any) error {
	for _, k := range key {
		if s, ok := k.(string); ok && !validText(s) {
			return signflow.Errorf(signflow.ENOTFOUND, "%s not found.", tb.what)
		}
	}
	if p, ok := t.aheadOf(tb, key); ok {
		t.saw(tb, key, p.ver)
		if p.data == nil {
			return signflow.Errorf(signflow.ENOTFOUND, "%s not found.", tb.what)
		}
		return json.Unmarshal(p.data, v)
	}
	var ver int64
	var data []byte
	err := t.queryRow([]any{&ver, &data}, tb.get, key...)
	if errors.Is(err, pgx.ErrNoRows) {
		t.saw(tb, key, 0)
		return signflow.Errorf(signflow.ENOTFOUND, "%s not found.", tb.what)
	} else if err != nil {
		return err
	}
	t.saw(tb, key, ver)
	t.keepClaim(tb, key, ver, data)
	return json.Unmarshal(data, v)
}

// keepClaim keeps a claim read in a shared transaction for the next
// writers' reads of it (the customer of each create), until the
// transaction writes a claim (forgetAhead). Every writer of a group
// waited for it to begin, so the row as first read is one each could
// have read alone; a write of it is checked against its version as ever.
func (t *tx) keepClaim(tb *table, key []any, ver int64, data []byte) {
	if !t.shared || tb != claims {
		return
	}
	if t.ahead == nil {
		t.ahead = map[string]prefetched{}
	}
	t.ahead[tb.seenKey(key)] = prefetched{ver, bytes.Clone(data)}
}

// saw notes the version of a record read by a write transaction.
func (t *tx) saw(tb *table, key []any, ver int64) {
	if t.writable {
		t.seen[tb.seenKey(key)] = ver
	}
}

// sawKey is saw of the record whose seenKey is sk.
func (t *tx) sawKey(sk string, ver int64) {
	if t.writable {
		t.seen[sk] = ver
	}
}

// write queues the record's write: an update of the version read, an
// insert where it was read as absent, else an upsert.
func (t *tx) write(tb *table, key, cols []any, v any) error {
	if err := t.mayWrite(); err != nil {
		return err
	}
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	args := append(append(append([]any{}, key...), cols...), data)
	t.forgetAhead(tb)
	sk := tb.seenKey(key)
	switch ver, read := t.seen[sk]; {
	case !read || ver < 0:
		t.queue(nil, tb.upsert, args...)
		t.seen[sk] = -1
	case ver == 0:
		t.queue(oneRow, tb.insert, args...)
		t.seen[sk] = 1
	default:
		t.queue(oneRow, tb.update, append(args, ver)...)
		t.seen[sk] = ver + 1
	}
	return nil
}

// validText reports whether PostgreSQL can hold s as text: UTF-8 without
// NUL. Keys that are not cannot name any record.
func validText(s string) bool { return utf8.ValidString(s) && !strings.ContainsRune(s, 0) }
