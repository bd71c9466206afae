package postgres_test

import (
	"fmt"
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
	"contracts/storage/postgres/pgtest"
)

// TestCountsReadInTheirTransaction holds the counts, which a transaction
// sends with its commit, to what it wrote: a list's total and the stats
// read after a create in the same transaction count that create.
func TestCountsReadInTheirTransaction(t *testing.T) {
	w := fixture.NewStandardOn(t, pgtest.Open(t))
	made := w.Contract(t)
	fixture.Must(t, func() error {
		return w.Store.Update(func(tx signflow.Tx) error {
			c, err := tx.Contract(made.ID)
			if err != nil {
				return err
			}
			if c.Seq, err = tx.NextContractSeq(); err != nil {
				return err
			}
			c.ID, c.Number = signflow.NewID(), fmt.Sprintf("2026-%06d", c.Seq)
			if err := tx.PutContract(c); err != nil {
				return err
			}
			page, err := tx.ListContracts(signflow.ContractQuery{OwnerIN: c.BuyerIN, AllTemplates: true, Size: 10})
			if err != nil {
				return err
			}
			if page.Total != 2 || len(page.Contracts) != 2 {
				t.Errorf("list total %d of %d contracts; want 2 of 2", page.Total, len(page.Contracts))
			}
			stats, err := tx.ContractStats("2000-01-01")
			if err != nil {
				return err
			}
			if n := stats.ByStatus[c.Status]; n != 2 {
				t.Errorf("stats count %d %s contracts; want 2", n, c.Status)
			}
			return nil
		})
	})
}

// TestReadRidesTheWritesRoundTrip holds a read after queued writes to one
// round trip with them, and to what they wrote.
func TestReadRidesTheWritesRoundTrip(t *testing.T) {
	w, _, c := tracedWorld(t)
	id := w.Template.ID
	trips, _, sql := c.count(func() {
		fixture.Must(t, func() error {
			return w.Store.Update(func(tx signflow.Tx) error {
				tpl, err := tx.Template(id)
				if err != nil {
					return err
				}
				tpl.Name.EN = "Written, then read"
				if err := tx.PutTemplate(tpl); err != nil {
					return err
				}
				if tpl, err = tx.Template(id); err != nil {
					return err
				}
				if tpl.Name.EN != "Written, then read" {
					t.Errorf("read %q after the write", tpl.Name.EN)
				}
				return nil
			})
		})
	})
	// The first read, the writes with the second, the COMMIT.
	if trips != 3 {
		t.Errorf("%d round trips; want 3:\n%s", trips, sql)
	}
}
