package storagetest

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"contracts/signflow"
)

var t0 = time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)

// outbox opens a store that must hand out its outbox.
func outbox(t *testing.T, e Engine) (signflow.Store, signflow.Outbox) {
	t.Helper()
	db := e.Open(t)
	o, ok := db.(signflow.Outbox)
	if !ok {
		t.Fatal("the store has no claim operation")
	}
	return db, o
}

// addRows writes outbox rows (target, contract, due time) and returns their ids.
func addRows(t *testing.T, db signflow.Store, rows ...row) []string {
	t.Helper()
	ids := make([]string, len(rows))
	must(t, db.Update(func(tx signflow.Tx) error {
		for i, r := range rows {
			ids[i] = signflow.NewID()
			d := &signflow.Delivery{ID: ids[i], Event: signflow.EventCreated, ContractID: r.contract, Target: r.target,
				URL: "https://example.com/hook", Body: []byte(`{"n":` + fmt.Sprint(i) + `}`), Status: signflow.DeliveryPending,
				Attempts: []signflow.Attempt{}, NextAt: r.due, CreatedAt: t0}
			if err := tx.AddDelivery(d); err != nil {
				return err
			}
		}
		return nil
	}))
	return ids
}

type row struct {
	target, contract string
	due              time.Time
}

func claim(t *testing.T, o signflow.Outbox, who string, at time.Time, limit int) (*signflow.DeliveryBatch, []string) {
	t.Helper()
	b, err := o.ClaimDeliveries(signflow.DeliveryClaim{Claimer: who, Now: at, Lease: time.Minute, Limit: limit})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, d := range b.Rows {
		ids = append(ids, d.ID)
	}
	return b, ids
}

// settle writes a row back as the pool does after an attempt: delivered,
// or due again at next.
func settle(t *testing.T, db signflow.Store, id string, next time.Time) {
	t.Helper()
	must(t, db.Update(func(tx signflow.Tx) error {
		d, err := tx.Delivery(id)
		if err != nil {
			return err
		}
		d.Attempts = append(d.Attempts, signflow.Attempt{At: next})
		if next.IsZero() {
			d.Status = signflow.DeliveryDelivered
		} else {
			d.NextAt = next
		}
		return tx.PutDelivery(d)
	}))
}

// A claim gives out, oldest due first, only the rows that are due and
// first of their target and contract; the rest wait for the row before
// them to be settled, and a retried row keeps its followers waiting.
func testClaimsFollowLanes(t *testing.T, e Engine) {
	db, o := outbox(t, e)
	ids := addRows(t, db,
		row{"app:a", "c1", t0}, row{"app:a", "c1", t0.Add(-time.Hour)}, row{"app:a", "c1", t0}, // one lane: r0, r1, r2
		row{"app:a", "c2", t0.Add(10 * time.Second)}, // not due yet
		row{"key:k", "c1", t0.Add(-time.Second)},     // another target, same contract
	)
	b, got := claim(t, o, "A", t0, 10)
	if want := []string{ids[4], ids[0]}; !slices.Equal(got, want) {
		t.Fatalf("first claim %v, want the two lane heads %v, oldest due first", got, want)
	}
	if !b.NextAt.Equal(t0.Add(10*time.Second)) || b.Pending != 5 {
		t.Fatalf("next at %v (want %v), %d pending (want 5)", b.NextAt, t0.Add(10*time.Second), b.Pending)
	}
	if _, got := claim(t, o, "B", t0, 10); len(got) != 0 {
		t.Fatalf("rows given twice or out of order: %v", got)
	}
	settle(t, db, ids[0], time.Time{})
	if _, got := claim(t, o, "B", t0, 10); !slices.Equal(got, []string{ids[1]}) {
		t.Fatalf("after the head was delivered: %v, want the lane's next row", got)
	}
	settle(t, db, ids[1], t0.Add(2*time.Second)) // a retry in two seconds
	b, got = claim(t, o, "B", t0.Add(time.Second), 10)
	if len(got) != 0 || !b.NextAt.Equal(t0.Add(2*time.Second)) {
		t.Fatalf("while the retry waits: %v, next at %v", got, b.NextAt)
	}
	if _, got := claim(t, o, "A", t0.Add(2*time.Second), 1); !slices.Equal(got, []string{ids[1]}) {
		t.Fatalf("at the retry's time: %v", got)
	}
	if _, got := claim(t, o, "A", t0.Add(10*time.Second), 10); !slices.Equal(got, []string{ids[3]}) {
		t.Fatalf("at the later row's time: %v", got)
	}
	settle(t, db, ids[1], time.Time{})
	if _, got := claim(t, o, "A", t0.Add(10*time.Second), 10); !slices.Equal(got, []string{ids[2]}) {
		t.Fatalf("last row of the lane: %v", got)
	}
}

// A claim lasts its lease: a claimer that never settles (a process that
// died) holds its rows until then, and releasing gives them back at once.
func testClaimsLeaseAndRelease(t *testing.T, e Engine) {
	db, o := outbox(t, e)
	peer, _ := e.peer(t, db).(signflow.Outbox)
	ids := addRows(t, db, row{"app:a", "c1", t0}, row{"app:b", "c1", t0})
	if _, got := claim(t, o, "dead", t0, 1); !slices.Equal(got, ids[:1]) {
		t.Fatalf("claim %v", got)
	}
	b, got := claim(t, peer, "alive", t0.Add(59*time.Second), 5)
	if !slices.Equal(got, ids[1:]) || !b.NextAt.Equal(t0.Add(time.Minute)) {
		t.Fatalf("within the lease: %v, next at %v (want the lease's end)", got, b.NextAt)
	}
	if _, got := claim(t, peer, "alive", t0.Add(time.Minute), 5); !slices.Equal(got, ids[:1]) {
		t.Fatalf("at the lease's end: %v, want the dead claimer's row", got)
	}
	must(t, o.ReleaseDeliveries("dead")) // holds nothing any more: no effect
	if _, got := claim(t, o, "third", t0.Add(time.Minute), 5); len(got) != 0 {
		t.Fatalf("the release of a claimer that holds nothing gave out %v", got)
	}
	must(t, peer.ReleaseDeliveries("alive"))
	if _, got := claim(t, o, "third", t0.Add(time.Minute), 5); len(got) != 2 {
		t.Fatalf("after the release: %v, want both rows at once", got)
	}
	// The rows are still PENDING and unchanged by the claims.
	var list []*signflow.Delivery
	must(t, db.View(func(tx signflow.Tx) (err error) { list, err = tx.PendingDeliveries(0, 10); return err }))
	if len(list) != 2 || list[0].ID != ids[0] || len(list[0].Attempts) != 0 || !list[0].NextAt.Equal(t0) {
		t.Fatalf("pending rows after the claims: %+v", list)
	}
}

// Claimers working at once, through two handles where the engine has them,
// while rows keep coming, are given every row exactly once, each target's
// rows of a contract in order.
func testClaimsGiveEachRowOnce(t *testing.T, e Engine) {
	db, _ := outbox(t, e)
	stores := []signflow.Store{db, e.peer(t, db)}
	var (
		mu      sync.Mutex
		index   = map[string]int{} // row number by id
		given   = map[string]int{}
		order   = map[string][]uint64{} // by lane, the sequence numbers in the order given
		written bool
	)
	var wg sync.WaitGroup
	wg.Go(func() {
		for batch := 0; batch < 12; batch++ {
			var rows []row
			for i := batch * 10; i < batch*10+10; i++ {
				rows = append(rows, row{fmt.Sprintf("app:%d", i%3), fmt.Sprintf("c%d", i%8), t0})
			}
			ids := addRows(t, stores[batch%2], rows...)
			mu.Lock()
			for i, id := range ids {
				index[id] = batch*10 + i
			}
			mu.Unlock()
		}
		mu.Lock()
		written = true
		mu.Unlock()
	})
	for c := 0; c < 4; c++ {
		wg.Go(func() {
			s := stores[c%2]
			o := s.(signflow.Outbox)
			for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); {
				mu.Lock()
				done := written
				mu.Unlock()
				b, err := o.ClaimDeliveries(signflow.DeliveryClaim{Claimer: fmt.Sprint("claimer", c), Now: t0, Lease: time.Hour, Limit: 7})
				if err != nil {
					t.Error(err)
					return
				}
				if len(b.Rows) == 0 {
					if done && b.Pending == 0 {
						return
					}
					time.Sleep(time.Millisecond) // the others hold the rest, or more rows come: let them write
					continue
				}
				mu.Lock()
				for _, d := range b.Rows {
					given[d.ID]++
					lane := d.Target + " " + d.ContractID
					order[lane] = append(order[lane], d.Seq)
				}
				mu.Unlock()
				for _, d := range b.Rows {
					settle(t, s, d.ID, time.Time{})
				}
			}
			t.Errorf("claimer %d gave up with rows pending", c)
		})
	}
	wg.Wait()
	if len(index) != 120 {
		t.Fatalf("%d rows written", len(index))
	}
	for id, i := range index {
		if given[id] != 1 {
			t.Errorf("row %d given %d times", i, given[id])
		}
	}
	for lane, list := range order {
		if !slices.IsSorted(list) {
			t.Errorf("lane %s given out of order: %v", lane, list)
		}
	}
}
