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
// parkFor are committed and given back to the pool. Transactions take
// connections through slots, one per connection of the pool, so that one
// waiting for a connection takes a parked one as soon as it is parked.
type spares struct {
	ch     chan parked
	slots  chan struct{} // one held per connection out of the pool, parked or not
	armed  atomic.Bool   // a drain is due
	mu     sync.RWMutex  // held to park, and to close
	closed bool
	wait   time.Duration // bounds the ROLLBACK of a connection given back (Options.Timeout)
}

// parkFor bounds how long a parked connection waits for a taker.
const parkFor = time.Millisecond

// commitParked ends the read-only transaction of a parked connection.
const commitParked = "COMMIT"

func newSpares(maxConns int32, wait time.Duration) *spares {
	return &spares{ch: make(chan parked, maxConns), slots: make(chan struct{}, maxConns), wait: wait}
}

// parked is a parked connection and when it was parked.
type parked struct {
	conn *pgxpool.Conn
	at   time.Time
}

// acquire returns a parked connection (pending: its read-only
// transaction is still open), or one from the pool.
func (sp *spares) acquire(ctx context.Context, pool *pgxpool.Pool) (conn *pgxpool.Conn, pending bool, err error) {
	if c := sp.take(); c != nil {
		return c, true, nil
	}
	select {
	case p := <-sp.ch:
		return p.conn, true, nil
	case sp.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, false, ctx.Err()
	}
	if conn, err = pool.Acquire(ctx); err != nil {
		<-sp.slots
	}
	return conn, false, err
}

// release gives a connection from acquire back to the pool.
func (sp *spares) release(conn *pgxpool.Conn) {
	conn.Release()
	<-sp.slots
}

// take returns a parked connection, or nil.
func (sp *spares) take() *pgxpool.Conn {
	select {
	case p := <-sp.ch:
		return p.conn
	default:
		return nil
	}
}

// park keeps conn, idle inside a read-only transaction, for the next
// taker; a connection in any other state is ended and given back.
func (sp *spares) park(conn *pgxpool.Conn) {
	if pg := conn.Conn().PgConn(); pg.IsClosed() || pg.IsBusy() || pg.TxStatus() != 'T' {
		sp.giveBack(conn)
		return
	}
	sp.put(parked{conn, time.Now()})
}

// put parks p, or gives it back when the store is closed or the parked
// are as many as the pool's connections.
func (sp *spares) put(p parked) {
	sp.mu.RLock()
	ok := false
	if !sp.closed {
		select {
		case sp.ch <- p:
			ok = true
		default:
		}
	}
	sp.mu.RUnlock()
	if !ok {
		sp.giveBack(p.conn)
		return
	}
	if sp.armed.CompareAndSwap(false, true) {
		time.AfterFunc(parkFor, sp.drain)
	}
}

// drain commits and gives back the connections parked for parkFor;
// those parked since are left to their takers, or to the next drain.
func (sp *spares) drain() {
	sp.armed.Store(false)
	for {
		var p parked
		select {
		case p = <-sp.ch:
		default:
			return
		}
		if time.Since(p.at) < parkFor {
			sp.put(p)
			return
		}
		sp.giveBack(p.conn)
	}
}

// close drains the connections and parks no more, before the pool closes.
func (sp *spares) close() {
	sp.mu.Lock()
	sp.closed = true
	sp.mu.Unlock()
	for c := sp.take(); c != nil; c = sp.take() {
		sp.giveBack(c)
	}
}

// giveBack ends what transaction conn is in and returns it to the pool
// (which drops a connection that could not end it).
func (sp *spares) giveBack(conn *pgxpool.Conn) {
	if conn.Conn().PgConn().TxStatus() != 'I' {
		ctx, cancel := context.WithTimeout(context.Background(), sp.wait)
		conn.Exec(ctx, "ROLLBACK")
		cancel()
	}
	sp.release(conn)
}
