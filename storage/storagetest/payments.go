package storagetest

import (
	"errors"
	"testing"
	"time"

	"contracts/signflow"

	"github.com/google/uuid"
)

// newOrderedID is a time-ordered id, as the service gives receipts.
func newOrderedID(tb testing.TB) string {
	tb.Helper()
	id, err := uuid.NewV7()
	must(tb, err)
	return id.String()
}

// testReceipts: none for a contract at first, a contract's receipts in
// the order they were made and no other contract's, a receipt rewritten
// in place (cancelled), seen by another process, and a rolled back write
// leaving nothing.
func testReceipts(t *testing.T, e Engine) {
	s := e.Open(t)
	peer := e.peer(t, s)
	contract, other := signflow.NewID(), signflow.NewID()
	at := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	receipts := func(st signflow.Store, id string) []*signflow.Receipt {
		t.Helper()
		var out []*signflow.Receipt
		must(t, st.View(func(tx signflow.Tx) (err error) { out, err = tx.Receipts(id); return err }))
		return out
	}
	if got := receipts(s, contract); got == nil || len(got) != 0 {
		t.Fatalf("a new store holds receipts: %v", got)
	}
	var made []*signflow.Receipt
	for i, amount := range []int64{300, 100, 200} {
		r := &signflow.Receipt{ID: newOrderedID(t), ContractID: contract, Amount: amount, PaidAt: at.Add(-time.Duration(i) * time.Hour),
			Method: signflow.PayCash, Reference: "r", RecordedBy: "301234567", CreatedAt: at}
		made = append(made, r)
		must(t, s.Update(func(tx signflow.Tx) error { return tx.PutReceipt(r) }))
	}
	must(t, s.Update(func(tx signflow.Tx) error {
		return tx.PutReceipt(&signflow.Receipt{ID: newOrderedID(t), ContractID: other, Amount: 5, PaidAt: at, Method: signflow.PayBank})
	}))
	got := receipts(peer, contract)
	if len(got) != 3 || got[0].ID != made[0].ID || got[1].Amount != 100 || got[2].ID != made[2].ID || !got[2].PaidAt.Equal(made[2].PaidAt) {
		t.Fatalf("receipts read back out of order or wrong: %+v", got)
	}
	cancelled := *made[1]
	cancelled.CancelledAt = &at
	must(t, peer.Update(func(tx signflow.Tx) error { return tx.PutReceipt(&cancelled) }))
	got = receipts(s, contract)
	if len(got) != 3 || got[1].CancelledAt == nil || got[1].Counts() {
		t.Fatalf("the rewritten receipt reads %+v", got[1])
	}
	boom := errors.New("boom")
	err := s.Update(func(tx signflow.Tx) error {
		if err := tx.PutReceipt(&signflow.Receipt{ID: newOrderedID(t), ContractID: contract, Amount: 1, PaidAt: at}); err != nil {
			return err
		}
		if in, err := tx.Receipts(contract); err != nil || len(in) != 4 {
			t.Errorf("inside the writer: %d receipts, %v", len(in), err)
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("update: %v", err)
	}
	if got := receipts(s, contract); len(got) != 3 {
		t.Fatalf("a rolled back receipt stayed: %d", len(got))
	}
	if got := receipts(s, "no such contract"); len(got) != 0 {
		t.Fatalf("an unknown contract has %d receipts", len(got))
	}
}
