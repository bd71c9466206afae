package postgres

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// A read-only transaction that has read all it needs waits for its COMMIT
// only to be over: nothing it did needs the answer. Its connection is
// parked instead, still inside the transaction, and the next transaction
// to take it sends that COMMIT in its own first round trip: a read of one
// contract is then one round trip instead of two. A parked transaction
// holds its snapshot and no row lock; parked connections not taken within
// parkFor are committed and given back to the pool, and at most half the
// pool is parked, so that callers of the pool itself never wait long.
type spares struct {
	ch     chan *pgxpool.Conn
	armed  atomic.Bool  // a drain is due
	mu     sync.RWMutex // held to park, and to close
	closed bool
}

// parkFor bounds how long a parked connection waits for a taker.
const parkFor = time.Millisecond

// commitParked ends the read-only transaction of a parked connection.
const commitParked = "COMMIT"

func newSpares(maxConns int32) *spares {
	return &spares{ch: make(chan *pgxpool.Conn, max(1, maxConns/2))}
}

// take returns a parked connection, or nil.
func (sp *spares) take() *pgxpool.Conn {
	select {
	case c := <-sp.ch:
		return c
	default:
		return nil
	}
}

// park keeps conn, idle inside a read-only transaction, for the next
// taker; a connection in any other state is ended and given back.
func (sp *spares) park(conn *pgxpool.Conn) {
	if pg := conn.Conn().PgConn(); pg.IsClosed() || pg.IsBusy() || pg.TxStatus() != 'T' {
		giveBack(conn)
		return
	}
	sp.mu.RLock()
	parked := false
	if !sp.closed {
		select {
		case sp.ch <- conn:
			parked = true
		default:
		}
	}
	sp.mu.RUnlock()
	if !parked {
		giveBack(conn)
		return
	}
	if sp.armed.CompareAndSwap(false, true) {
		time.AfterFunc(parkFor, sp.drain)
	}
}

// drain commits and gives back every parked connection.
func (sp *spares) drain() {
	sp.armed.Store(false)
	for c := sp.take(); c != nil; c = sp.take() {
		giveBack(c)
	}
}

// close drains the connections and parks no more, before the pool closes.
func (sp *spares) close() {
	sp.mu.Lock()
	sp.closed = true
	sp.mu.Unlock()
	sp.drain()
}

// giveBack ends what transaction conn is in and returns it to the pool
// (which drops a connection that could not end it).
func giveBack(conn *pgxpool.Conn) {
	if conn.Conn().PgConn().TxStatus() != 'I' {
		ctx, cancel := context.WithTimeout(context.Background(), DefaultTimeout)
		conn.Exec(ctx, "ROLLBACK")
		cancel()
	}
	conn.Release()
}
