package postgres_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"contracts/signflow"
	"contracts/storage/postgres"
)

const rowsBuyer, rowsSeller = "31234567890123", "41234567890123"

// rowsPurpose has what an array's text form quotes or escapes.
const rowsPurpose = `"quoted", \\back\\slash {braces} NULL, o\u2018zbek 😀`

// createRows is a writer that stores a new contract as a create does
// (number, contract, audit event, outbox row) and notes its id in ids[i];
// number, when set, is the contract's number instead of its own. With
// readBack it reads its audit in the transaction.
func createRows(ids []string, i int, number string, readBack bool) func(signflow.Tx) error {
	return func(tx signflow.Tx) error {
		seq, err := tx.NextContractSeq()
		if err != nil {
			return err
		}
		now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
		id := fmt.Sprintf("rows-%d-%d", i, seq)
		if number == "" {
			number = fmt.Sprintf("2026-%06d", seq)
		}
		c := &signflow.Contract{ID: id, Seq: seq, Number: number, Status: signflow.StatusCreated, TemplateID: "tpl",
			BuyerIN: rowsBuyer, SellerIN: rowsSeller, Purpose: rowsPurpose, CreatedAt: now, UpdatedAt: now, Version: 1}
		if err := tx.PutContract(c); err != nil {
			return err
		}
		if err := tx.AddAudit(&signflow.AuditEvent{ID: id + "-e", ContractID: id, Type: signflow.EventCreated, At: now}); err != nil {
			return err
		}
		if err := tx.AddDelivery(&signflow.Delivery{ID: id + "-d", ContractID: id, Target: "app:rows", Status: signflow.DeliveryPending,
			Attempts: []signflow.Attempt{}, NextAt: now, CreatedAt: now}); err != nil {
			return err
		}
		ids[i] = id
		if !readBack {
			return nil
		}
		// A read in the transaction sees the rows written before it.
		events, err := tx.AuditEvents(id)
		if err != nil {
			return err
		}
		if len(events) != 1 {
			return fmt.Errorf("%s: %d audit events read back in its transaction; want 1", id, len(events))
		}
		return nil
	}
}

// rowsOf counts the rows stored of the contracts whose ids are like
// pattern: contract, party, audit and outbox rows.
func rowsOf(t *testing.T, s *postgres.Store, pattern string) [4]int {
	t.Helper()
	var n [4]int
	for i, table := range []string{"contracts WHERE id", "contract_parties WHERE contract_id", "audit WHERE contract_id", "deliveries WHERE contract_id"} {
		if err := postgres.Pool(s).QueryRow(t.Context(), "SELECT count(*) FROM "+table+" LIKE $1", pattern).Scan(&n[i]); err != nil {
			t.Fatal(err)
		}
	}
	return n
}

// stored reports whether the contract id is stored, read through the
// store, with its two party rows, audit event and outbox row.
func stored(t *testing.T, s *postgres.Store, id string) bool {
	t.Helper()
	err := s.View(func(tx signflow.Tx) error {
		c, err := tx.Contract(id)
		if err == nil && c.Purpose != rowsPurpose {
			t.Errorf("%s: purpose %q; want %q", id, c.Purpose, rowsPurpose)
		}
		return err
	})
	if err != nil && signflow.ErrorCode(err) != signflow.ENOTFOUND {
		t.Fatal(err)
	}
	n := rowsOf(t, s, id)
	if want := [4]int{1, 2, 1, 1}; (err == nil) != (n == want) {
		t.Fatalf("%s: read %v, rows stored %v; want %v", id, err, n, want)
	}
	return err == nil
}

// TestGroupWritesEachTableOnce: the creates of a shared transaction write
// their contracts, party rows, audit events and outbox rows in one
// statement per table, every row stored, the outbox rows numbered in the
// order the writers ran.
func TestGroupWritesEachTableOnce(t *testing.T) {
	s, c := groupStore(t)
	ids := make([]string, 5)
	var fns []func(signflow.Tx) error
	for i := range ids {
		fns = append(fns, createRows(ids, i, "", false))
	}
	_, _, sql := c.count(func() {
		for _, err := range grouped(t, s, fns) {
			if err != nil {
				t.Fatal(err)
			}
		}
	})
	for _, table := range []string{"contracts", "contract_parties", "audit", "deliveries"} {
		if n := strings.Count(sql, "INSERT INTO "+table+" "); n != 1 {
			t.Errorf("%d inserts into %s for a group of %d; want 1:\n%s", n, table, len(fns), sql)
		}
	}
	for _, id := range ids {
		if !stored(t, s, id) {
			t.Errorf("%s was not stored", id)
		}
	}
	var order []string
	if err := s.View(func(tx signflow.Tx) error {
		ds, err := tx.Deliveries(signflow.DeliveryFilter{Status: signflow.DeliveryPending, Limit: 10})
		for _, d := range ds {
			order = append(order, d.ContractID)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	// The writers ran in the order of their numbers.
	seqOf := func(id string) (n int) { fmt.Sscanf(id[strings.LastIndexByte(id, '-')+1:], "%d", &n); return n }
	for i := 1; i < len(order); i++ {
		if seqOf(order[i]) < seqOf(order[i-1]) {
			t.Fatalf("outbox rows in the order %v; want the order the writers ran", order)
		}
	}
}

// TestGroupRowsOfAFailedCreate: a create whose row the database refuses
// (a number taken) fails alone; the other creates of its group are stored
// with all their rows, and nothing of the failed one is.
func TestGroupRowsOfAFailedCreate(t *testing.T) {
	s, _ := groupStore(t)
	taken := make([]string, 1)
	if err := s.Update(createRows(taken, 0, "2026-TAKEN", false)); err != nil {
		t.Fatal(err)
	}
	ids := make([]string, 5)
	var fns []func(signflow.Tx) error
	for i := range ids {
		number := ""
		if i == 2 {
			number = "2026-TAKEN"
		}
		fns = append(fns, createRows(ids, i, number, false))
	}
	errs := grouped(t, s, fns)
	for i, err := range errs {
		if (err != nil) != (i == 2) {
			t.Fatalf("outcomes %v; want an error for the third writer only", errs)
		}
	}
	for i, id := range ids {
		if i != 2 && !stored(t, s, id) {
			t.Errorf("%s, of the group of a failed create, was not stored", id)
		}
	}
	// The failed writer's id is that of its last run, which it never
	// noted: look for any of its rows.
	if n := rowsOf(t, s, "rows-2-%"); n != [4]int{} {
		t.Fatalf("rows of the failed create stored: %v", n)
	}
}

// TestRowsReadInTheirTransaction: a read after new rows are written, in
// their transaction, sees them, and the rows written after it are stored.
func TestRowsReadInTheirTransaction(t *testing.T) {
	s, _ := groupStore(t)
	ids := make([]string, 3)
	if err := s.Update(func(tx signflow.Tx) error {
		for i := range ids {
			if err := createRows(ids, i, "", true)(tx); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		if !stored(t, s, id) {
			t.Errorf("%s was not stored", id)
		}
	}
}
