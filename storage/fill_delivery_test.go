package storage

import (
	"fmt"
	"testing"
	"time"

	"contracts/signflow"

	bolt "go.etcd.io/bbolt"
)

// Delivery ids are time-ordered: rows, bodies and the contract index,
// written in small transactions as creates do and then settled (each row
// grown by its attempt), leave their leaf pages mostly full.
func TestDeliveryBucketsFillTheirPages(t *testing.T) {
	db := openCacheDB(t)
	at := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	body := make([]byte, 600)
	var ids []string
	for i := range 200 {
		var batch []string
		err := db.Update(func(tx signflow.Tx) error {
			batch = batch[:0]
			for j := range 8 {
				id := fmt.Sprintf("01a20000-0000-7000-8000-%012d", i*8+j)
				d := &signflow.Delivery{ID: id, Event: signflow.EventCreated, ContractID: id, Target: "key:k", URL: "https://example.com/hook",
					Body: body, Status: signflow.DeliveryPending, Attempts: []signflow.Attempt{}, NextAt: at, CreatedAt: at}
				if err := tx.AddDelivery(d); err != nil {
					return err
				}
				batch = append(batch, id)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, batch...)
	}
	for i := 0; i < len(ids); i += 16 {
		err := db.Update(func(w signflow.Tx) error {
			for _, id := range ids[i:min(i+16, len(ids))] {
				d, err := w.(*tx).DeliveryState(id)
				if err != nil {
					return err
				}
				d.Status = signflow.DeliveryDelivered
				d.Attempts = append(d.Attempts, signflow.Attempt{At: at, StatusCode: 204, DurationMs: 3})
				if err := w.PutDelivery(d); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range [][]byte{bucketDeliveries, bucketDeliveryBodies, bucketDeliveryContract} {
		var s bolt.BucketStats
		if err := db.bolt.View(func(btx *bolt.Tx) error { s = btx.Bucket(name).Stats(); return nil }); err != nil {
			t.Fatal(err)
		}
		if fill := float64(s.LeafInuse) / float64(s.LeafAlloc); s.LeafPageN < 4 || fill < 0.75 {
			t.Errorf("%s: %d leaf pages %.0f%% full, want them at least 75%% full", name, s.LeafPageN, 100*fill)
		}
	}
}
