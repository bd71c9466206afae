package postgres_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"
	"contracts/storage/postgres"
	"contracts/storage/postgres/pgtest"
)

// TestParkedReadSeesLaterCommits: a read that takes the connection of a
// parked read sees what another node committed since, and the parked
// connections go back to the pool when nobody takes them.
func TestParkedReadSeesLaterCommits(t *testing.T) {
	store := pgtest.Open(t)
	w := fixture.NewStandardOn(t, store)
	other := pgtest.Peer(t, store)
	c := w.Contract(t)
	read := func() *signflow.Contract {
		t.Helper()
		var got *signflow.Contract
		fixture.Must(t, func() error {
			return store.View(func(tx signflow.Tx) (err error) { got, err = tx.Contract(c.ID); return err })
		})
		return got
	}
	for i := range 20 {
		if got := read(); got.Price != c.Price+int64(i) {
			t.Fatalf("read price %d after %d changes on another node; want %d", got.Price, i, c.Price+int64(i))
		}
		fixture.Must(t, func() error {
			return other.Update(func(tx signflow.Tx) error {
				now, err := tx.Contract(c.ID)
				if err != nil {
					return err
				}
				now.Price++
				return tx.PutContract(now)
			})
		})
	}
	// The credentials version read on a parked connection is the latest.
	for range 5 {
		read()
		before, err := store.CredentialsVersion()
		if err != nil {
			t.Fatal(err)
		}
		read()
		fixture.MustCredential(t, signflow.NewService(other, w.Options).CreateKey, &signflow.CredentialInput{Name: "Later",
			OwnerIN: fixture.OwnerIN, Scopes: []string{signflow.ScopeContractsRead}, AllTemplates: true})
		if after, err := store.CredentialsVersion(); err != nil || after <= before {
			t.Fatalf("credentials version %d after a key was made on another node; was %d (%v)", after, before, err)
		}
	}
	pool := postgres.Pool(store)
	deadline := time.Now().Add(10 * time.Second)
	for pool.Stat().AcquiredConns() != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d connections still out of the pool after the reads", pool.Stat().AcquiredConns())
		}
		time.Sleep(time.Millisecond)
	}
}

// TestCloseGivesBackParkedConnections: closing a store whose connections
// were parked a moment ago returns at once.
func TestCloseGivesBackParkedConnections(t *testing.T) {
	url := pgtest.NewDatabase(t)
	for range 20 {
		s, err := postgres.Open(context.Background(), url, postgres.Options{MaxConns: 4, Timeout: pgtest.Options().Timeout})
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				s.View(func(tx signflow.Tx) error { _, err := tx.Owners(); return err })
			})
		}
		wg.Wait()
		closed := make(chan struct{})
		go func() { s.Close(); close(closed) }()
		select {
		case <-closed:
		case <-time.After(10 * time.Second):
			t.Fatal("Close did not return with parked connections")
		}
	}
}
