package storage_test

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"contracts/signflow"
	"contracts/storage"
)

// BenchmarkClaimBehindABacklog is one claim while a busy target at its
// bound has a backlog due before the one row of another target: the
// claim's cost should not grow with the backlog.
//
//	go test -run '^$' -bench ClaimBehindABacklog -benchmem ./storage/
func BenchmarkClaimBehindABacklog(b *testing.B) {
	for _, backlog := range []int{100, 10000} {
		b.Run(fmt.Sprint("backlog=", backlog), func(b *testing.B) {
			db, err := storage.Open(filepath.Join(b.TempDir(), "contracts.db"), storage.Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			at := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
			row := func(target string, due time.Time) *signflow.Delivery {
				return &signflow.Delivery{ID: signflow.NewID(), Event: signflow.EventCreated, ContractID: signflow.NewID(), Target: target,
					URL: "https://example.com/hook", Body: []byte(`{}`), Status: signflow.DeliveryPending, Attempts: []signflow.Attempt{},
					NextAt: due, CreatedAt: at}
			}
			for written := 0; written < backlog; written += 1000 {
				if err := db.Update(func(tx signflow.Tx) error {
					for i := written; i < min(written+1000, backlog); i++ {
						if err := tx.AddDelivery(row("app:busy", at.Add(time.Duration(i-backlog)*time.Millisecond))); err != nil {
							return err
						}
					}
					return nil
				}); err != nil {
					b.Fatal(err)
				}
			}
			if err := db.Update(func(tx signflow.Tx) error { return tx.AddDelivery(row("app:free", at)) }); err != nil {
				b.Fatal(err)
			}
			// A lease of zero holds nothing: every claim finds the same row.
			c := signflow.DeliveryClaim{Claimer: "bench", Now: at, Limit: 4, PerTarget: 4, Held: map[string]int{"app:busy": 4}}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				batch, err := db.ClaimDeliveries(c)
				if err != nil || len(batch.Rows) != 1 {
					b.Fatalf("%d rows (%v)", len(batch.Rows), err)
				}
			}
		})
	}
}
