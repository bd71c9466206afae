package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"contracts/signflow"
	"contracts/storage/postgres"
	"contracts/storage/postgres/pgtest"
)

// groupStore is a store of one write transaction in flight, whose
// statements c counts.
func groupStore(t *testing.T) (*postgres.Store, *counter) {
	return groupStoreOn(t, pgtest.NewDatabase(t))
}

// groupStoreOn is groupStore on the database at url (which a second
// node may open too).
func groupStoreOn(t *testing.T, url string) (*postgres.Store, *counter) {
	c := &counter{}
	s, err := postgres.Open(context.Background(), url, postgres.WithRunners(postgres.WithTracer(pgtest.Options(), c), 1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, c
}

// errPanic marks the error of a writer whose Update panicked in its own
// goroutine.
var errPanic = errors.New("panic")

// grouped runs fns as concurrent writers that wait while another holds
// the store's one transaction, so that they share the next, and returns
// each one's error.
func grouped(t *testing.T, s *postgres.Store, fns []func(signflow.Tx) error) []error {
	t.Helper()
	release, first, holding := make(chan struct{}), make(chan error, 1), make(chan struct{})
	go func() {
		first <- s.Update(func(signflow.Tx) error {
			select {
			case <-holding:
			default:
				close(holding)
			}
			<-release
			return nil
		})
	}()
	<-holding
	errs := make([]chan error, len(fns))
	for i, fn := range fns {
		errs[i] = make(chan error, 1)
		go func() {
			defer func() {
				if r := recover(); r != nil {
					errs[i] <- fmt.Errorf("%w: %v", errPanic, r)
				}
			}()
			errs[i] <- s.Update(fn)
		}()
	}
	for deadline := time.Now().Add(10 * time.Second); postgres.Waiting(s) < len(fns); runtime.Gosched() {
		if time.Now().After(deadline) {
			t.Fatalf("%d writers waiting; want %d", postgres.Waiting(s), len(fns))
		}
	}
	close(release)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	out := make([]error, len(fns))
	for i := range errs {
		out[i] = <-errs[i]
	}
	return out
}

func putApp(id string) func(signflow.Tx) error {
	return func(tx signflow.Tx) error { return tx.PutApp(&signflow.App{ID: id, Name: id}) }
}

func appStored(t *testing.T, s signflow.Store, id string) bool {
	t.Helper()
	err := s.View(func(tx signflow.Tx) error { _, err := tx.App(id); return err })
	if err != nil && signflow.ErrorCode(err) != signflow.ENOTFOUND {
		t.Fatal(err)
	}
	return err == nil
}

// TestGroupSharesTransaction holds writers that wait to one transaction:
// one transaction for all of them, and each one's write stored.
func TestGroupSharesTransaction(t *testing.T) {
	s, c := groupStore(t)
	var fns []func(signflow.Tx) error
	for i := range 5 {
		fns = append(fns, putApp(fmt.Sprint("app-", i)))
	}
	var errs []error
	_, _, sql := c.count(func() { errs = grouped(t, s, fns) })
	for i, err := range errs {
		if err != nil {
			t.Errorf("writer %d: %v", i, err)
		}
	}
	if n := strings.Count(sql, "BEGIN ISOLATION LEVEL READ COMMITTED"); n != 1 {
		t.Errorf("%d write transactions for five writers waiting; want 1:\n%s", n, sql)
	}
	for i := range 5 {
		if !appStored(t, s, fmt.Sprint("app-", i)) {
			t.Errorf("app-%d was not stored", i)
		}
	}
}

// TestGroupKeepsEachOutcome holds a shared transaction to each writer's
// own outcome: a writer whose fn fails gets its error and stores nothing,
// one whose fn panics gets the panic in its own goroutine, the others
// store theirs; of two writers whose writes cannot both commit
// (one key hash), exactly one does.
func TestGroupKeepsEachOutcome(t *testing.T) {
	s, _ := groupStore(t)
	refused := errors.New("refused")
	putKey := func(id string) func(signflow.Tx) error {
		return func(tx signflow.Tx) error {
			return tx.PutKey(&signflow.APIKey{ID: id, OwnerIN: "12345678901234", Hash: []byte("one hash")})
		}
	}
	errs := grouped(t, s, []func(signflow.Tx) error{
		putApp("kept-1"),
		func(tx signflow.Tx) error {
			if err := putApp("refused")(tx); err != nil {
				return err
			}
			return refused
		},
		putApp("kept-2"),
		putKey("key-1"),
		putKey("key-2"),
		func(tx signflow.Tx) error {
			if err := putApp("panicked")(tx); err != nil {
				return err
			}
			panic("fn")
		},
	})
	if errs[0] != nil || errs[2] != nil || !errors.Is(errs[1], refused) || !errors.Is(errs[5], errPanic) {
		t.Fatalf("outcomes %v, %v; want nil, refused, nil and a panic", errs[:3], errs[5])
	}
	if (errs[3] == nil) == (errs[4] == nil) {
		t.Fatalf("keys of one hash: %v, %v; want exactly one stored", errs[3], errs[4])
	}
	if appStored(t, s, "panicked") {
		t.Fatal("the app of a writer that panicked was stored")
	}
	if !appStored(t, s, "kept-1") || !appStored(t, s, "kept-2") || appStored(t, s, "refused") {
		t.Fatal("the apps stored are not those of the writers that succeeded")
	}
}
