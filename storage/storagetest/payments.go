package storagetest

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"contracts/internal/fixture"
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

// testProviderTxs: a provider's transaction by its id (absent: ENOTFOUND),
// rewritten in place, a contract's in creation order, an owner's created
// within a range with both ends included, and providers apart.
func testProviderTxs(t *testing.T, e Engine) {
	s := e.Open(t)
	peer := e.peer(t, s)
	at := time.Date(2026, 11, 22, 9, 0, 0, 123_000_000, time.UTC)
	c1, c2 := signflow.NewID(), signflow.NewID()
	put := func(st signflow.Store, p *signflow.ProviderTx) {
		t.Helper()
		must(t, st.Update(func(tx signflow.Tx) error { return tx.PutProviderTx(p) }))
	}
	txs := []*signflow.ProviderTx{
		{Provider: signflow.ProviderPayme, ID: "b", OwnerIN: "301234567", ContractID: c1, Amount: 100, State: 1, CreatedAt: at.Add(time.Millisecond)},
		{Provider: signflow.ProviderPayme, ID: "a", OwnerIN: "301234567", ContractID: c1, Amount: 200, State: 1, CreatedAt: at},
		{Provider: signflow.ProviderPayme, ID: "c", OwnerIN: "301234567", ContractID: c2, Amount: 300, State: 1, CreatedAt: at.Add(time.Hour)},
		{Provider: signflow.ProviderPayme, ID: "d", OwnerIN: "309876543", ContractID: c2, Amount: 400, State: 1, CreatedAt: at},
		{Provider: signflow.ProviderClick, ID: "a", OwnerIN: "301234567", ContractID: c1, Amount: 500, State: 1, CreatedAt: at},
	}
	for _, p := range txs {
		put(s, p)
	}
	var got *signflow.ProviderTx
	must(t, peer.View(func(tx signflow.Tx) (err error) { got, err = tx.ProviderTx(signflow.ProviderPayme, "a"); return err }))
	if got.Amount != 200 || !got.CreatedAt.Equal(at) {
		t.Fatalf("read back %+v", got)
	}
	err := s.View(func(tx signflow.Tx) error { _, err := tx.ProviderTx(signflow.ProviderPayme, "zz"); return err })
	if signflow.ErrorCode(err) != signflow.ENOTFOUND {
		t.Fatalf("an absent transaction: %v", err)
	}
	performed := *got
	performed.State = 2
	put(peer, &performed)
	ids := func(list []*signflow.ProviderTx) string {
		var out []string
		for _, p := range list {
			out = append(out, fmt.Sprint(p.ID, p.State))
		}
		return strings.Join(out, " ")
	}
	var list []*signflow.ProviderTx
	must(t, s.View(func(tx signflow.Tx) (err error) {
		list, err = tx.ContractProviderTxs(signflow.ProviderPayme, c1)
		return err
	}))
	if ids(list) != "a2 b1" {
		t.Fatalf("contract's transactions: %s", ids(list))
	}
	must(t, s.View(func(tx signflow.Tx) (err error) {
		list, err = tx.ProviderTxsCreated(signflow.ProviderPayme, "301234567", at, at.Add(time.Hour))
		return err
	}))
	if ids(list) != "a2 b1 c1" {
		t.Fatalf("created within the range, ends included: %s", ids(list))
	}
	must(t, s.View(func(tx signflow.Tx) (err error) {
		list, err = tx.ProviderTxsCreated(signflow.ProviderPayme, "301234567", at.Add(time.Millisecond), at.Add(time.Hour-time.Millisecond))
		return err
	}))
	if ids(list) != "b1" {
		t.Fatalf("created within the narrower range: %s", ids(list))
	}
}

// testMerchants: an owner's accounts, found by the Payme key's hash and
// by the Click service; replacing them moves what finds them; contracts
// by number.
func testMerchants(t *testing.T, e Engine) {
	w := fixture.NewStandardOn(t, e.Open(t))
	c := w.Contract(t)
	m := &signflow.Merchant{OwnerIN: fixture.OwnerIN, Payme: &signflow.PaymeAccount{MerchantID: "m", KeyHash: signflow.PaymeKeyHash("k1"), KeyEnc: []byte{1}},
		Click: &signflow.ClickAccount{ServiceID: "10", MerchantID: "20", SecretEnc: []byte{2}}}
	must(t, w.Store.Update(func(tx signflow.Tx) error { return tx.PutMerchant(m) }))
	find := func(hash []byte, service string) (byKey, byService string) {
		t.Helper()
		must(t, w.Store.View(func(tx signflow.Tx) error {
			if got, err := tx.MerchantByPaymeKey(hash); err == nil {
				byKey = got.OwnerIN
			} else if signflow.ErrorCode(err) != signflow.ENOTFOUND {
				return err
			}
			if got, err := tx.MerchantByClickService(service); err == nil {
				byService = got.OwnerIN
			} else if signflow.ErrorCode(err) != signflow.ENOTFOUND {
				return err
			}
			return nil
		}))
		return
	}
	if k, sv := find(signflow.PaymeKeyHash("k1"), "10"); k != fixture.OwnerIN || sv != fixture.OwnerIN {
		t.Fatalf("found by key %q, by service %q", k, sv)
	}
	must(t, w.Store.Update(func(tx signflow.Tx) error {
		got, err := tx.Merchant(fixture.OwnerIN)
		if err != nil {
			return err
		}
		got.Payme.KeyHash, got.Click = signflow.PaymeKeyHash("k2"), nil
		return tx.PutMerchant(got)
	}))
	if k, sv := find(signflow.PaymeKeyHash("k1"), "10"); k != "" || sv != "" {
		t.Fatalf("the replaced key or service still finds the owner: %q %q", k, sv)
	}
	if k, _ := find(signflow.PaymeKeyHash("k2"), ""); k != fixture.OwnerIN {
		t.Fatalf("the new key finds %q", k)
	}
	var got *signflow.Contract
	must(t, w.Store.View(func(tx signflow.Tx) (err error) { got, err = tx.ContractByNumber(c.Number); return err }))
	if got.ID != c.ID {
		t.Fatalf("contract by number: %s", got.ID)
	}
	err := w.Store.View(func(tx signflow.Tx) error { _, err := tx.ContractByNumber("2026-999999"); return err })
	if signflow.ErrorCode(err) != signflow.ENOTFOUND {
		t.Fatalf("an unknown number: %v", err)
	}
}
