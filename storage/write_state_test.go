package storage

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"contracts/signflow"
)

// The counts and stats of the contracts written by one batch are added up
// and written at its end: a function reading them in the batch sees every
// write before it (its own included), a function that fails leaves none of
// its changes, and after the commit they match a count of the contracts.
func TestCountsAddedUpOverABatch(t *testing.T) {
	db := openBatchDB(t, 0)
	const owner, tpl = "301234567", "01a20000-0000-7000-8000-000000000000"
	buyers := []string{"31234567890123", "41234567890123"}
	contract := func(i int, status string) *signflow.Contract {
		return &signflow.Contract{ID: fmt.Sprintf("01a20000-0000-7000-8000-%012d", i), Number: fmt.Sprintf("2026-%06d", i), Seq: uint64(i),
			BuyerIN: buyers[i%2], SellerIN: owner, Status: status, TemplateID: tpl, BuyerStatus: signflow.PartyPending, SellerStatus: signflow.PartyPending}
	}
	count := func(st signflow.Tx, statuses ...string) int {
		p, err := st.ListContracts(signflow.ContractQuery{OwnerIN: owner, AllTemplates: true, Statuses: statuses, Size: 1})
		if err != nil {
			t.Error(err)
		}
		return p.Total
	}
	release, first := holdWriter(db, func(st signflow.Tx) error { return st.PutContract(contract(1, signflow.StatusCreated)) })

	refused := errors.New("refused")
	ids := make([]uint64, 8)
	errs := make([]error, 8)
	var seen [2]int // the reader's totals before and after its own write
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = db.Update(func(st signflow.Tx) error {
				ids[i] = uint64(st.(*tx).b.ID())
				switch i {
				case 0: // contract 1 moves on
					return st.PutContract(contract(1, signflow.StatusActive))
				case 1: // written, then refused: nothing of it stays
					if err := st.PutContract(contract(90, signflow.StatusCreated)); err != nil {
						return err
					}
					return refused
				case 2:
					seen[0] = count(st)
					err := st.PutContract(contract(10+i, signflow.StatusCreated))
					seen[1] = count(st)
					return err
				}
				return st.PutContract(contract(10+i, signflow.StatusCreated))
			})
		}()
	}
	waitQueued(t, db, 8)
	release()
	wg.Wait()
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	for i, err := range errs {
		if want := error(nil); i == 1 {
			want = refused
			if err != want {
				t.Fatalf("call %d: %v, want %v", i, err, want)
			}
		} else if err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	if ids[0] != ids[2] || ids[0] != ids[7] {
		t.Fatalf("the calls committed apart: %v", ids)
	}
	if seen[1] != seen[0]+1 {
		t.Fatalf("in the batch, a create moved the total from %d to %d", seen[0], seen[1])
	}
	if err := db.View(func(st signflow.Tx) error {
		if got := count(st); got != 7 {
			t.Errorf("total %d, want 7", got)
		}
		if got := count(st, signflow.StatusCreated); got != 6 {
			t.Errorf("created %d, want 6", got)
		}
		if got := count(st, signflow.StatusActive); got != 1 {
			t.Errorf("active %d, want 1", got)
		}
		p, err := st.ListContracts(signflow.ContractQuery{OwnerIN: owner, AllTemplates: true, Counterparties: buyers[:1], Size: 100})
		if err != nil {
			return err
		}
		if p.Total != len(p.Contracts) || p.Total != 3 {
			t.Errorf("with %s: total %d, listed %d, want 3", buyers[0], p.Total, len(p.Contracts))
		}
		stats, err := st.ContractStats("")
		if err != nil {
			return err
		}
		if stats.ByStatus[signflow.StatusCreated] != 6 || stats.ByStatus[signflow.StatusActive] != 1 {
			t.Errorf("stats by status %v", stats.ByStatus)
		}
		if _, err := st.Contract(contract(90, "").ID); signflow.ErrorCode(err) != signflow.ENOTFOUND {
			t.Errorf("the refused call's contract: %v", err)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// A bucket that one function of a batch finds missing and a later one
// makes is found by the functions after it: the functions share their
// open buckets, but not the absence of one.
func TestBatchSeesABucketMadeInIt(t *testing.T) {
	db := openBatchDB(t, 0)
	later := []byte("made_later")
	release, _ := holdWriter(db, func(signflow.Tx) error { return nil })
	found := make([]bool, 3)
	errs := make(chan error, 3)
	steps := []func(*tx) error{
		func(t *tx) error { found[0] = t.bucket(later) != nil; return nil },
		func(t *tx) error { _, err := t.b.CreateBucketIfNotExists(later); return err },
		func(t *tx) error { found[2] = t.bucket(later) != nil; return nil },
	}
	for i, step := range steps {
		go func() { errs <- db.Update(func(st signflow.Tx) error { return step(st.(*tx)) }) }()
		waitQueued(t, db, i+1)
	}
	release()
	for range steps {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if found[0] || !found[2] {
		t.Fatalf("the bucket found before it was made: %v, after: %v", found[0], found[2])
	}
}
