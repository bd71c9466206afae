package storage_test

import (
	"encoding/binary"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"contracts/signflow"
	"contracts/storage"

	bolt "go.etcd.io/bbolt"
)

// A file of schema 10 has claim indexes keyed by due time first, with
// every PENDING row due, and a queue of them: the upgrade makes the
// indexes again, target first and with only each lane's first row due,
// drops the queue, and claims follow the lanes.
func TestUpgradeIndexesLaneHeads(t *testing.T) {
	path := filepath.Join(t.TempDir(), "contracts.db")
	at := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	db, err := storage.Open(path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var rows []*signflow.Delivery
	for _, r := range []struct {
		target, contract string
		due              time.Time
	}{{"app:a", "c1", at}, {"app:a", "c1", at.Add(-time.Hour)}, {"key:b", "c1", at.Add(-time.Minute)}, {"app:a", "c2", at}} {
		rows = append(rows, &signflow.Delivery{ID: signflow.NewID(), Event: signflow.EventCreated, ContractID: r.contract, Target: r.target,
			URL: "https://example.com/hook", Body: []byte(`{}`), Status: signflow.DeliveryPending, Attempts: []signflow.Attempt{},
			NextAt: r.due, CreatedAt: at})
	}
	if err := db.Update(func(tx signflow.Tx) error {
		for _, d := range rows {
			if err := tx.AddDelivery(d); err != nil {
				return err
			}
		}
		rows[3].Status = signflow.DeliveryDelivered
		return tx.PutDelivery(rows[3])
	}); err != nil {
		t.Fatal(err)
	}
	db.Close()

	// Back to schema 10's indexes, as that build wrote them.
	b, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Update(func(btx *bolt.Tx) error {
		for _, name := range []string{"delivery_due", "delivery_lanes"} {
			if err := btx.DeleteBucket([]byte(name)); err != nil {
				return err
			}
		}
		due, _ := btx.CreateBucket([]byte("delivery_due"))
		lanes, _ := btx.CreateBucket([]byte("delivery_lanes"))
		queue, _ := btx.CreateBucket([]byte("delivery_queue"))
		for _, d := range rows[:3] {
			if err := queue.Put(binary.BigEndian.AppendUint64(nil, d.Seq), []byte(d.ID)); err != nil {
				return err
			}
			k := binary.BigEndian.AppendUint64(nil, uint64(d.NextAt.UnixNano()))
			k = binary.BigEndian.AppendUint64(k, d.Seq)
			if err := due.Put(k, []byte(d.Target+"\x00"+d.ContractID+"\x00"+d.ID)); err != nil {
				return err
			}
			if err := lanes.Put(binary.BigEndian.AppendUint64([]byte(d.Target+"\x00"+d.ContractID+"\x00"), d.Seq), []byte(d.ID)); err != nil {
				return err
			}
		}
		return btx.Bucket([]byte("meta")).Put([]byte("schema"), binary.BigEndian.AppendUint64(nil, 10))
	}); err != nil {
		t.Fatal(err)
	}
	b.Close()

	db = openDB(t, path)
	if v, err := db.SchemaVersion(); err != nil || v != storage.CurrentSchema() {
		t.Fatalf("schema %d (%v)", v, err)
	}
	if err := db.Bolt().View(func(btx *bolt.Tx) error {
		if btx.Bucket([]byte("delivery_queue")) != nil {
			t.Error("delivery_queue is left after the upgrade")
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	claim := func(now time.Time) []string {
		t.Helper()
		batch, err := db.ClaimDeliveries(signflow.DeliveryClaim{Claimer: "t", Now: now, Lease: time.Minute, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, d := range batch.Rows {
			ids = append(ids, d.ID)
		}
		return ids
	}
	if got, want := claim(at), []string{rows[2].ID, rows[0].ID}; !slices.Equal(got, want) {
		t.Fatalf("after the upgrade: %v, want the lanes' first rows %v", got, want)
	}
	if err := db.Update(func(tx signflow.Tx) error {
		d, err := tx.Delivery(rows[0].ID)
		if err != nil {
			return err
		}
		d.Status = signflow.DeliveryDelivered
		return tx.PutDelivery(d)
	}); err != nil {
		t.Fatal(err)
	}
	if got := claim(at); !slices.Equal(got, []string{rows[1].ID}) {
		t.Fatalf("after the lane's first row was delivered: %v, want its second", got)
	}
}
