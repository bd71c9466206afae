package storage_test

import (
	"bytes"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"contracts/signflow"
	"contracts/storage"
)

// stateReader is the settle's read of a row without its body.
type stateReader interface {
	DeliveryState(id string) (*signflow.Delivery, error)
}

// A settle reads the row without its body and writes it back: the body
// stays as it was, the row is the row read in full but for the body, and
// the lane's next row leads it and is claimed.
func TestSettleWithoutBodyKeepsBodyAndLane(t *testing.T) {
	db := openDB(t, filepath.Join(t.TempDir(), "contracts.db"))
	at := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	contract := signflow.NewID()
	var rows []*signflow.Delivery
	if err := db.Update(func(tx signflow.Tx) error {
		for i := range 3 {
			d := &signflow.Delivery{ID: signflow.NewID(), Event: signflow.EventCreated, ContractID: contract, Target: "app:a",
				URL: "https://example.com/hook", Body: []byte(`{"n":` + string(rune('0'+i)) + `}`), Status: signflow.DeliveryPending,
				Attempts: []signflow.Attempt{}, NextAt: at, CreatedAt: at}
			rows = append(rows, d)
			if err := tx.AddDelivery(d); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	claim := func(want string) {
		t.Helper()
		b, err := db.ClaimDeliveries(signflow.DeliveryClaim{Claimer: "t", Now: at, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		if want == "" && len(b.Rows) == 0 {
			return
		}
		if len(b.Rows) != 1 || b.Rows[0].ID != want {
			t.Fatalf("claimed %d rows (%v), want the one row %s", len(b.Rows), b.Rows, want)
		}
	}
	settle := func(id, status string) {
		t.Helper()
		if err := db.Update(func(tx signflow.Tx) error {
			full, err := tx.Delivery(id)
			if err != nil {
				return err
			}
			d, err := tx.(stateReader).DeliveryState(id)
			if err != nil {
				return err
			}
			if d.Body != nil {
				t.Errorf("DeliveryState read a body")
			}
			full.Body = nil
			if !reflect.DeepEqual(d, full) {
				t.Errorf("DeliveryState %+v, Delivery %+v", d, full)
			}
			d.Status = status
			d.Attempts = append(d.Attempts, signflow.Attempt{At: at, StatusCode: 204})
			return tx.PutDelivery(d)
		}); err != nil {
			t.Fatal(err)
		}
	}
	claim(rows[0].ID)
	settle(rows[0].ID, signflow.DeliveryDelivered)
	claim(rows[1].ID)
	settle(rows[1].ID, signflow.DeliveryFailed)
	claim(rows[2].ID)
	settle(rows[2].ID, signflow.DeliveryDelivered)
	claim("")
	if err := db.View(func(tx signflow.Tx) error {
		for _, r := range rows {
			d, err := tx.Delivery(r.ID)
			if err != nil {
				return err
			}
			if !bytes.Equal(d.Body, r.Body) {
				t.Errorf("row %s: body %q after the settle, want %q", r.ID, d.Body, r.Body)
			}
		}
		pending, err := tx.Deliveries(signflow.DeliveryFilter{Status: signflow.DeliveryPending})
		if len(pending) != 0 {
			t.Errorf("%d rows PENDING after every settle", len(pending))
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkSettle is the write of attempt results, 64 rows a transaction
// as the pool's writer has them: each row read without its body where the
// store can, marked DELIVERED and written back.
//
//	go test -run '^$' -bench Settle -benchmem ./storage/
func BenchmarkSettle(b *testing.B) {
	db, err := storage.Open(filepath.Join(b.TempDir(), "contracts.db"), storage.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	at := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	body := bytes.Repeat([]byte("x"), 600)
	const perTx = 64
	n := b.N + perTx
	ids := make([]string, 0, n)
	for written := 0; written < n; written += 1000 {
		if err := db.Update(func(tx signflow.Tx) error {
			for range min(1000, n-written) {
				d := &signflow.Delivery{ID: signflow.NewID(), Event: signflow.EventCreated, ContractID: signflow.NewID(), Target: "app:a",
					URL: "https://example.com/hook", Body: body, Status: signflow.DeliveryPending, Attempts: []signflow.Attempt{},
					NextAt: at, CreatedAt: at}
				ids = append(ids, d.ID)
				if err := tx.AddDelivery(d); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i += perTx {
		if err := db.Update(func(tx signflow.Tx) error {
			for _, id := range ids[i:min(i+perTx, b.N)] {
				var d *signflow.Delivery
				var err error
				if s, ok := tx.(stateReader); ok {
					d, err = s.DeliveryState(id)
				} else {
					d, err = tx.Delivery(id)
				}
				if err != nil {
					return err
				}
				d.Status = signflow.DeliveryDelivered
				d.Attempts = append(d.Attempts, signflow.Attempt{At: at, StatusCode: 204})
				if err := tx.PutDelivery(d); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			b.Fatal(err)
		}
	}
}
