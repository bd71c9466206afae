package storage

import (
	"errors"
	"fmt"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
)

// batcher gathers concurrent Updates into shared write transactions, as
// bbolt's Batch does, but as a group commit: the first call waits the
// batch delay, and the calls that arrive while a batch commits make up
// the next one, which starts as soon as the writer is free if it is full
// (fullBatch), else once the delay has passed since its first call
// arrived. bbolt's Batch cuts a new batch every delay whatever the writer
// is doing, so while a commit waits on the disk the batches behind it
// queue on the writer lock in small pieces, each paying its own commit and
// two syncs: the writer falls behind, and every caller waits the longer.
type batcher struct {
	mu      sync.Mutex
	calls   []batchCall
	running bool      // a writer goroutine is waiting out the delay or committing
	first   time.Time // when calls[0] arrived
	// gathering is set while the writer waits for a small batch to grow;
	// the call that fills it up wakes the writer through full.
	gathering bool
	full      chan struct{}
	counts    writerCounts // for WriterStats
}

// fullBatch is the batch that commits without waiting out the delay. A
// batch gathered during a commit under a steady trickle of writes (creates
// among many reads) holds one or two calls, and each commit writes a leaf
// and branch path per bucket it touches, meta and freelist whatever the
// batch's size: it waits, as the first batch does, until the delay since
// its first call has passed or it reaches this size.
const fullBatch = 16

type batchCall struct {
	fn  func(*bolt.Tx) error
	err chan error
}

// errSolo tells a caller that its function failed in a batch, which went
// on without it: it runs again in a transaction of its own.
var errSolo = errors.New("storage: run again alone")

// batch runs fn in a write transaction shared with concurrent callers;
// fn may run more than once, and its error is returned when it fails.
func (db *DB) batch(fn func(*bolt.Tx) error) error {
	errc := make(chan error, 1)
	b := &db.batcher
	b.mu.Lock()
	b.calls = append(b.calls, batchCall{fn, errc})
	if len(b.calls) == 1 {
		b.first = time.Now()
	} else if b.gathering && len(b.calls) == fullBatch {
		b.gathering = false
		b.full <- struct{}{}
	}
	start := !b.running
	b.running = true
	b.mu.Unlock()
	if start {
		if d := db.bolt.MaxBatchDelay; d > 0 {
			time.AfterFunc(d, db.writeBatches)
		} else {
			go db.writeBatches()
		}
	}
	err := <-errc
	if err == errSolo {
		err = db.bolt.Update(func(btx *bolt.Tx) error { return db.endWrite(btx, fn(btx)) })
	}
	return err
}

// writeBatches commits the gathered calls, batch after batch, until none
// are left.
func (db *DB) writeBatches() {
	b := &db.batcher
	for {
		b.mu.Lock()
		n := min(len(b.calls), max(db.bolt.MaxBatchSize, 1))
		if n == 0 {
			b.running = false
			b.mu.Unlock()
			return
		}
		if d := db.bolt.MaxBatchDelay; n < fullBatch && d > 0 {
			if wait := d - time.Since(b.first); wait > 0 {
				b.gatherFor(wait)
				n = min(len(b.calls), max(db.bolt.MaxBatchSize, 1))
			}
		}
		calls := b.calls[:n:n]
		b.calls = append([]batchCall(nil), b.calls[n:]...)
		b.mu.Unlock()
		db.writeBatch(calls, time.Now())
	}
}

// gatherFor waits, without b.mu (which it holds when called and when it
// returns), until wait has passed or the batch is full.
func (b *batcher) gatherFor(wait time.Duration) {
	if b.full == nil {
		b.full = make(chan struct{}, 1)
	}
	b.gathering = true
	b.mu.Unlock()
	t := time.NewTimer(wait)
	select {
	case <-b.full:
		t.Stop()
	case <-t.C:
	}
	b.mu.Lock()
	b.gathering = false
	select { // a fill signalled as the timer fired
	case <-b.full:
	default:
	}
}

// writeBatch runs the calls in one transaction, begun at start. A call
// whose function fails is taken out and told to run alone, and the rest
// run again.
func (db *DB) writeBatch(calls []batchCall, start time.Time) {
	for len(calls) > 0 {
		failed := -1
		db.batcher.counts.commits.Add(1)
		err := db.bolt.Update(func(btx *bolt.Tx) error {
			for i, c := range calls {
				if err := safelyCall(c.fn, btx); err != nil {
					failed = i
					return db.endWrite(btx, err)
				}
			}
			return db.endWrite(btx, nil)
		})
		if failed >= 0 {
			calls[failed].err <- errSolo
			calls = append(calls[:failed:failed], calls[failed+1:]...)
			continue
		}
		// Counted before the callers hear back: a caller that reads the
		// counts next finds its write in them.
		db.batcher.counts.writes.Add(uint64(len(calls)))
		db.batcher.counts.busy.Add(int64(time.Since(start)))
		for _, c := range calls {
			c.err <- err
		}
		return
	}
	db.batcher.counts.busy.Add(int64(time.Since(start))) // every call failed, each to run alone
}

// safelyCall turns a panic of fn into an error, so that the batch goes on;
// the caller's solo run panics again in its own goroutine.
func safelyCall(fn func(*bolt.Tx) error, btx *bolt.Tx) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return fn(btx)
}
