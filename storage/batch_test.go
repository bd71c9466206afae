package storage

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"contracts/signflow"
)

func openBatchDB(t *testing.T, delay time.Duration) *DB {
	t.Helper()
	db, err := Open(filepath.Join(t.TempDir(), "contracts.db"), Options{BatchDelay: delay})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// putMeta is an Update's function that writes name and notes the write
// transaction's id in *id.
func putMeta(name string, id *uint64) func(signflow.Tx) error {
	return func(st signflow.Tx) error {
		t := st.(*tx)
		*id = uint64(t.b.ID())
		return t.b.Bucket(bucketMeta).Put([]byte(name), []byte("v"))
	}
}

// holdWriter starts an Update of fn whose first run holds the writer
// until release is called (a batch may run fn again), so that the calls
// made meanwhile queue for the next batch; done gets the Update's outcome.
func holdWriter(db *DB, fn func(signflow.Tx) error) (release func(), done <-chan error) {
	entered, hold := make(chan struct{}), make(chan struct{})
	var once sync.Once
	out := make(chan error, 1)
	go func() {
		out <- db.Update(func(st signflow.Tx) error {
			once.Do(func() { close(entered); <-hold })
			return fn(st)
		})
	}()
	<-entered
	return func() { close(hold) }, out
}

// writeBehindHeld holds the writer with a write of "first", queues n
// writes of "k<i>" behind it, lets it go and waits for them all; it
// returns the write transaction ids of the first and of each of the n.
// then, when not nil, runs in each of the n's goroutines as its Update
// returns.
func writeBehindHeld(t *testing.T, db *DB, n int, then func()) (first uint64, ids []uint64) {
	t.Helper()
	release, done := holdWriter(db, putMeta("first", &first))
	ids = make([]uint64, n)
	errs := make(chan error, n)
	for i := range n {
		go func() {
			err := db.Update(putMeta(fmt.Sprint("k", i), &ids[i]))
			if then != nil {
				then()
			}
			errs <- err
		}()
	}
	waitQueued(t, db, n)
	release()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	for range n {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	return first, ids
}

// waitQueued waits until n calls wait for the writer.
func waitQueued(t *testing.T, db *DB, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		db.batcher.mu.Lock()
		got := len(db.batcher.calls)
		db.batcher.mu.Unlock()
		if got == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d calls wait for the writer, want %d", got, n)
		}
		runtime.Gosched()
	}
}

// The Updates that arrive while a batch commits make up one next batch,
// which starts when the writer is free, even with no batch delay: they
// do not each pay a commit of their own.
func TestUpdatesWhileCommittingShareTheNextCommit(t *testing.T) {
	db := openBatchDB(t, 0)
	const n = 10
	first, ids := writeBehindHeld(t, db, n, nil)
	for i, id := range ids {
		if id != ids[0] || id <= first {
			t.Fatalf("write transactions: first %d, the others %v (call %d)", first, ids, i)
		}
	}
	var got int
	if err := db.View(func(st signflow.Tx) error {
		return st.(*tx).b.Bucket(bucketMeta).ForEach(func(k, v []byte) error {
			if string(v) == "v" {
				got++
			}
			return nil
		})
	}); err != nil {
		t.Fatal(err)
	}
	if got != n+1 {
		t.Fatalf("%d writes committed, want %d", got, n+1)
	}
}

// A function that fails or panics in a batch gets its own outcome, its
// writes are not kept, and the others in the batch commit.
func TestABatchGoesOnWithoutAFailedCall(t *testing.T) {
	db := openBatchDB(t, 0)
	var first uint64
	release, _ := holdWriter(db, putMeta("first", &first))
	refused := errors.New("refused")
	var ids [4]uint64
	var wg sync.WaitGroup
	outcome := make([]any, 4)
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if p := recover(); p != nil {
					outcome[i] = p
				}
			}()
			outcome[i] = db.Update(func(st signflow.Tx) error {
				if err := putMeta(fmt.Sprint("k", i), &ids[i])(st); err != nil {
					return err
				}
				switch i {
				case 1:
					return refused
				case 2:
					panic("broken")
				}
				return nil
			})
		}()
	}
	waitQueued(t, db, 4)
	release()
	wg.Wait()
	if outcome[0] != nil || outcome[3] != nil {
		t.Fatalf("the good calls: %v, %v", outcome[0], outcome[3])
	}
	if outcome[1] != refused {
		t.Fatalf("the failing call got %v", outcome[1])
	}
	if outcome[2] != "broken" {
		t.Fatalf("the panicking call got %v", outcome[2])
	}
	if ids[0] != ids[3] {
		t.Fatalf("the good calls committed apart: %v", ids)
	}
	if err := db.View(func(st signflow.Tx) error {
		b := st.(*tx).b.Bucket(bucketMeta)
		for i, want := range []bool{true, false, false, true} {
			if got := b.Get([]byte(fmt.Sprint("k", i))) != nil; got != want {
				t.Errorf("k%d kept: %v, want %v", i, got, want)
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// A batch gathered during a commit that is not full waits for more calls
// (up to the batch delay since its first arrived), and the call that fills
// it starts the commit at once.
func TestSmallBatchWaitsToFill(t *testing.T) {
	db := openBatchDB(t, 0)
	var first uint64
	release, done := holdWriter(db, putMeta("first", &first))
	// Read by the writer only after release: longer than the test may run.
	db.bolt.MaxBatchDelay = time.Hour
	ids := make([]uint64, fullBatch)
	errs := make(chan error, fullBatch)
	update := func(i int) { errs <- db.Update(putMeta(fmt.Sprint("k", i), &ids[i])) }
	go update(0)
	go update(1)
	waitQueued(t, db, 2)
	release()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for gathering := false; !gathering; runtime.Gosched() {
		db.batcher.mu.Lock()
		gathering = db.batcher.gathering
		db.batcher.mu.Unlock()
		if time.Now().After(deadline) {
			t.Fatal("the writer does not wait for the batch to fill")
		}
	}
	for i := 2; i < fullBatch; i++ {
		go update(i)
	}
	for range fullBatch {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	for _, id := range ids {
		if id != ids[0] || id <= first {
			t.Fatalf("write transactions: first %d, the batch's %v", first, ids)
		}
	}
}
