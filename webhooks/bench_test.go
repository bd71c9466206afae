package webhooks_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"
	"contracts/webhooks"
)

// BenchmarkDelivery measures the pool end to end: from b.N PENDING outbox
// rows (one contract each) to DELIVERED in bbolt, against a local receiver
// answering 204. docs/operations.md asks for at least 2,000 deliveries/s.
func BenchmarkDelivery(b *testing.B) {
	s := fixture.NewStandard(b)
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusNoContent)
	}))
	b.Cleanup(rcv.Close)
	app := fixture.MustCredential(b, s.Service.CreateApp, &signflow.CredentialInput{Name: "Bench", OwnerIN: fixture.OwnerIN,
		Scopes: signflow.AppScopes, AllTemplates: true, WebhookURL: rcv.URL})
	c := s.Contract(b) // through app A, which has no webhook: no row of its own
	now := s.Clock.Now()
	for written := 0; written < b.N; {
		n := min(1000, b.N-written)
		fixture.Must(b, func() error {
			return s.DB.Update(func(tx signflow.Tx) error {
				for range n {
					id := signflow.NewID()
					body, err := json.Marshal(&signflow.WebhookBody{Event: signflow.EventCreated, ContractID: id, ContractNumber: c.Number,
						Status: c.Status, TemplateID: c.TemplateID, BuyerIN: c.BuyerIN, SellerIN: c.SellerIN, CreatorIN: c.CreatorIN,
						ActorIN: c.CreatorIN, Amount: signflow.MajorNumber(c.Price), Currency: c.Currency, OccurredAt: now.Format(time.RFC3339)})
					if err != nil {
						return err
					}
					if err := tx.AddDelivery(&signflow.Delivery{ID: signflow.NewID(), Event: signflow.EventCreated, ContractID: id,
						Target: signflow.AppTarget(app.ID), URL: rcv.URL, Body: body, Status: signflow.DeliveryPending,
						Attempts: []signflow.Attempt{}, NextAt: now, CreatedAt: now}); err != nil {
						return err
					}
				}
				return nil
			})
		})
		written += n
	}
	pool, err := webhooks.New(s.DB, s.Box, nil, fixture.Webhooks(webhooks.Options{}))
	if err != nil {
		b.Fatal(err)
	}

	b.ResetTimer()
	start := time.Now()
	pool.Start()
	for {
		// The count a claim reports: a claim that may give out nothing
		// reads no row.
		left, err := s.DB.ClaimDeliveries(signflow.DeliveryClaim{Claimer: "bench", Now: time.Now()})
		if err != nil {
			b.Fatal(err)
		}
		if left.Pending == 0 {
			break
		}
		time.Sleep(time.Millisecond) // real I/O: the pool works on the wall clock here
	}
	elapsed := time.Since(start)
	b.StopTimer()

	if err := pool.Shutdown(context.Background()); err != nil {
		b.Fatal(err)
	}
	delivered, err := s.Service.Deliveries(signflow.DeliveryFilter{Status: signflow.DeliveryDelivered, Limit: b.N + 1})
	if err != nil || len(delivered) != b.N {
		b.Fatalf("%d rows DELIVERED, want %d (%v)", len(delivered), b.N, err)
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "deliveries/s")
}
