package postgres_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"contracts/signflow"
	"contracts/storage/postgres"
	"contracts/storage/postgres/pgtest"
)

// TestTransactionsInFlightShareNoCountRow: write transactions in flight
// at once add to count rows of shards of their own, whatever their
// contracts' numbers (here all of one shard by number), so that none waits
// for another's lock on a count row; the counts add up.
func TestTransactionsInFlightShareNoCountRow(t *testing.T) {
	const writers = 4
	s, err := postgres.Open(context.Background(), pgtest.NewDatabase(t), postgres.WithRunners(pgtest.Options(), writers))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	var inside sync.WaitGroup
	inside.Add(writers)
	all := make(chan struct{})
	go func() { inside.Wait(); close(all) }()
	errs := make(chan error, writers)
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	for i := range writers {
		go func() {
			errs <- s.Update(func(tx signflow.Tx) error {
				seq := uint64(8 * (i + 1))
				c := &signflow.Contract{ID: fmt.Sprint("shard-", i), Seq: seq, Number: fmt.Sprintf("2026-%06d", seq), Status: signflow.StatusCreated,
					TemplateID: "tpl", BuyerIN: rowsBuyer, SellerIN: rowsSeller, CreatedAt: now, UpdatedAt: now, Version: 1}
				if err := tx.PutContract(c); err != nil {
					return err
				}
				// Commit only once every writer is in flight.
				inside.Done()
				select {
				case <-all:
					return nil
				case <-time.After(10 * time.Second):
					return fmt.Errorf("writer %d: the %d writers were never in flight at once", i, writers)
				}
			})
		}()
	}
	for range writers {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	var shards, sum int
	if err := postgres.Pool(s).QueryRow(t.Context(), `SELECT count(DISTINCT shard), sum(n) FROM contract_counts
		WHERE party_in = $1 AND template_id = '*' AND status = '*'`, rowsBuyer).Scan(&shards, &sum); err != nil {
		t.Fatal(err)
	}
	if shards != writers || sum != writers {
		t.Fatalf("%d contracts counted in %d shards; want %d in %d", sum, shards, writers, writers)
	}
}
