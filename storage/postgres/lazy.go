package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// querier is what a tx sends its statements through: a pgx.Tx, or a
// lazyTx.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults
}

// lazyTx is a transaction on one connection whose BEGIN goes out in the
// same round trip as its first statement, and which costs nothing more
// when no statement is sent: a read of one contract is then one round
// trip for its statements and one for COMMIT, instead of three.
type lazyTx struct {
	conn  *pgxpool.Conn
	begin string // "BEGIN ISOLATION LEVEL ..."
	begun bool
	// credVer, when set, receives the credentials version, read after
	// BEGIN in the same round trip.
	credVer *int64
	// pending says that the connection is still in a parked read-only
	// transaction, which the first round trip commits before BEGIN;
	// park, that this read-only transaction is to be parked in turn.
	pending, park bool
}

// readCredVer reads the credentials version (signflow.Shared).
const readCredVer = "SELECT n FROM credentials_version"

// batch prepends BEGIN to b's statements the first time.
func (l *lazyTx) batch(ctx context.Context, b *pgx.Batch) (pgx.BatchResults, error) {
	if l.begun {
		return l.conn.SendBatch(ctx, b), nil
	}
	l.begun = true
	var first []*pgx.QueuedQuery
	if l.pending {
		first = append(first, &pgx.QueuedQuery{SQL: commitParked})
	}
	first = append(first, &pgx.QueuedQuery{SQL: l.begin})
	if l.credVer != nil {
		first = append(first, &pgx.QueuedQuery{SQL: readCredVer})
	}
	all := &pgx.Batch{QueuedQueries: append(first, b.QueuedQueries...)}
	br := l.conn.SendBatch(ctx, all)
	var err error
	if l.pending {
		_, err = br.Exec()
		l.pending = false
	}
	if err == nil {
		_, err = br.Exec()
	}
	if err == nil && l.credVer != nil {
		err = br.QueryRow().Scan(l.credVer)
	}
	if err != nil {
		br.Close()
		return nil, err
	}
	return br, nil
}

func (l *lazyTx) SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults {
	br, err := l.batch(ctx, b)
	if err != nil {
		return failedBatch{err: err}
	}
	return br
}

func (l *lazyTx) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	if l.begun {
		return l.conn.Query(ctx, sql, args...)
	}
	var b pgx.Batch
	b.Queue(sql, args...)
	br, err := l.batch(ctx, &b)
	if err != nil {
		return nil, err
	}
	rows, err := br.Query()
	if err != nil {
		br.Close()
		return nil, err
	}
	return batchRows{rows, br}, nil
}

func (l *lazyTx) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	rows, err := l.Query(ctx, sql, args...)
	if err != nil {
		return errRow{err}
	}
	return firstRow{rows}
}

// alone runs a one-row read before the transaction begins, as a statement
// of its own (its own snapshot), in one round trip with the COMMIT of a
// parked connection's transaction; the transaction is still to begin.
func (l *lazyTx) alone(ctx context.Context, sql string, args []any, dest ...any) error {
	if l.begun {
		return errBegun
	}
	if !l.pending {
		return l.conn.QueryRow(ctx, sql, args...).Scan(dest...) // fewer writes than a batch
	}
	var b pgx.Batch
	b.Queue(commitParked)
	b.Queue(sql, args...).QueryRow(func(r pgx.Row) error { return r.Scan(dest...) })
	l.pending = false
	return l.conn.SendBatch(ctx, &b).Close()
}

// errBegun refuses a statement of its own inside the transaction.
var errBegun = errors.New("postgres: the transaction has begun")

// end commits or rolls back what was begun.
func (l *lazyTx) end(ctx context.Context, commit bool) error {
	if !l.begun {
		return nil
	}
	l.begun = false
	if commit {
		_, err := l.conn.Exec(ctx, "COMMIT")
		return err
	}
	_, err := l.conn.Exec(ctx, "ROLLBACK")
	return err
}

// batchRows closes the batch of its first statement with itself.
type batchRows struct {
	pgx.Rows
	br pgx.BatchResults
}

func (r batchRows) Close() {
	r.Rows.Close()
	r.br.Close()
}

// firstRow is pgx.Row over rows: the first row, ErrNoRows without one.
type firstRow struct{ rows pgx.Rows }

func (r firstRow) Scan(dest ...any) error {
	defer r.rows.Close()
	if !r.rows.Next() {
		if err := r.rows.Err(); err != nil {
			return err
		}
		return pgx.ErrNoRows
	}
	if err := r.rows.Scan(dest...); err != nil {
		return err
	}
	r.rows.Close()
	return r.rows.Err()
}

type errRow struct{ err error }

func (r errRow) Scan(...any) error { return r.err }

// failedBatch answers every result of a batch that could not be sent.
type failedBatch struct {
	pgx.BatchResults // for the methods a tx never calls
	err              error
}

func (f failedBatch) Exec() (pgconn.CommandTag, error) { return pgconn.CommandTag{}, f.err }
func (f failedBatch) Query() (pgx.Rows, error)         { return nil, f.err }
func (f failedBatch) QueryRow() pgx.Row                { return errRow{f.err} }
func (f failedBatch) Close() error                     { return f.err }
