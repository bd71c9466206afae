package storage

import (
	"fmt"
	"testing"

	"contracts/signflow"

	bolt "go.etcd.io/bbolt"
)

// Keys that grow with time fill their pages: appending audit events, in
// small transactions as creates do, leaves the audit bucket's leaf pages
// nearly full, not half empty.
func TestAppendedBucketsFillTheirPages(t *testing.T) {
	db := openCacheDB(t)
	for i := range 300 {
		err := db.Update(func(tx signflow.Tx) error {
			for j := range 10 {
				id := fmt.Sprintf("01a20000-0000-7000-8000-%012d", i*10+j)
				if err := tx.AddAudit(&signflow.AuditEvent{ID: id, ContractID: id, Type: signflow.EventCreated, IP: "127.0.0.1"}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	var s bolt.BucketStats
	if err := db.bolt.View(func(btx *bolt.Tx) error { s = btx.Bucket(bucketAudit).Stats(); return nil }); err != nil {
		t.Fatal(err)
	}
	if fill := float64(s.LeafInuse) / float64(s.LeafAlloc); s.LeafPageN < 10 || fill < 0.85 {
		t.Fatalf("%d leaf pages %.0f%% full, want them at least 85%% full", s.LeafPageN, 100*fill)
	}
}

// The party and pair indexes are runs that grow at their ends side by
// side: contracts of one owner with three customers in turn, written in
// small transactions as creates are, leave their leaf pages nearly full.
func TestPartyIndexesFillTheirPages(t *testing.T) {
	db := openCacheDB(t)
	customers := []string{"31234567890123", "30000000000001", "39999999999999"}
	for i := range 300 {
		err := db.Update(func(tx signflow.Tx) error {
			for j := range 10 {
				seq, err := tx.NextContractSeq()
				if err != nil {
					return err
				}
				c := &signflow.Contract{ID: fmt.Sprintf("01a20000-0000-7000-8000-%012d", seq), Number: fmt.Sprintf("2026-%06d", seq), Seq: seq,
					BuyerIN: customers[(i*10+j)%3], SellerIN: "301234567", Status: signflow.StatusCreated, TemplateID: "01a20000-0000-7000-8000-000000000000"}
				if err := tx.PutContract(c); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range [][]byte{bucketContractParty, bucketContractPair} {
		var s bolt.BucketStats
		if err := db.bolt.View(func(btx *bolt.Tx) error { s = btx.Bucket(name).Stats(); return nil }); err != nil {
			t.Fatal(err)
		}
		if fill := float64(s.LeafInuse) / float64(s.LeafAlloc); s.LeafPageN < 10 || fill < 0.85 {
			t.Errorf("%s: %d leaf pages %.0f%% full, want them at least 85%% full", name, s.LeafPageN, 100*fill)
		}
	}
}
