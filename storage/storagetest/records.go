package storagetest

import (
	"fmt"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// testSessionExpiryFollowsStatus opens a signing session and checks
// that the expired sessions list it only while it is PENDING.
func testSessionExpiryFollowsStatus(t *testing.T, e Engine) {
	w := fixture.NewStandardOn(t, e.Open(t))
	c := w.Contract(t)
	s, token, err := w.Service.OpenSession(w.Access(t, w.AppA), c.ID, signflow.SessionRequest{SignerIN: fixture.CustomerIN}, signflow.Actor{})
	if err != nil {
		t.Fatal(err)
	}
	expired := func(at time.Time) (ids []string) {
		fixture.Must(t, func() error {
			return w.Store.View(func(tx signflow.Tx) error {
				list, err := tx.ExpiredSessions(at, 10)
				for _, x := range list {
					ids = append(ids, x.ID)
				}
				return err
			})
		})
		return ids
	}
	if got := expired(s.ExpiresAt.Add(-time.Second)); len(got) != 0 {
		t.Fatalf("expired before its time: %v", got)
	}
	if got := expired(s.ExpiresAt.Add(time.Second)); len(got) != 1 || got[0] != s.ID {
		t.Fatalf("after its expiry: %v, want [%s]", got, s.ID)
	}
	for _, status := range []string{signflow.SessionSigned, signflow.SessionPending, signflow.SessionExpired} {
		fixture.Must(t, func() error {
			return w.Store.Update(func(tx signflow.Tx) error {
				got, err := tx.Session(s.ID)
				if err != nil {
					return err
				}
				got.Status = status
				return tx.PutSession(got)
			})
		})
		got := expired(s.ExpiresAt.Add(time.Hour))
		if want := status == signflow.SessionPending; (len(got) == 1) != want {
			t.Fatalf("status %s: expiry index lists %v", status, got)
		}
		e.check(t, w.Store)
	}
	// The token still finds the closed session (the page answers 403, not 404).
	fixture.Must(t, func() error {
		return w.Store.View(func(tx signflow.Tx) error {
			got, err := tx.SessionByToken(signflow.HashSecret(token))
			if err == nil && (got.ID != s.ID || got.Status != signflow.SessionExpired) {
				err = fmt.Errorf("token finds %s in %s", got.ID, got.Status)
			}
			return err
		})
	})
}

// testDeliveryQueueFollowsStatus checks that the outbox queue holds a
// delivery exactly while it is PENDING, redelivery included.
func testDeliveryQueueFollowsStatus(t *testing.T, e Engine) {
	w := fixture.NewStandardOn(t, e.Open(t))
	app := fixture.MustCredential(t, w.Service.CreateApp, &signflow.CredentialInput{Name: "Hooked app", OwnerIN: fixture.OwnerIN,
		Scopes: signflow.AppScopes, AllTemplates: true, WebhookURL: "https://shop.example/hook"})
	fixture.MustCredential(t, w.Service.CreateKey, &signflow.CredentialInput{Name: "Hooked key", OwnerIN: fixture.OwnerIN,
		Scopes: signflow.KeyScopes, AllTemplates: true, WebhookURL: "https://erp.example/hook"})
	c, err := w.Service.CreateContract(w.Access(t, app), &signflow.ContractInput{TemplateID: w.Template.ID, BuyerIN: fixture.CustomerIN}, signflow.Actor{})
	if err != nil {
		t.Fatal(err)
	}
	pending := func() (ids []string) {
		fixture.Must(t, func() error {
			return w.Store.View(func(tx signflow.Tx) error {
				list, err := tx.PendingDeliveries(0, 100)
				for _, d := range list {
					ids = append(ids, d.ID)
				}
				return err
			})
		})
		return ids
	}
	queue := pending()
	if len(queue) != 2 {
		t.Fatalf("a contract of a hooked app with a hooked key queued %d deliveries, want 2", len(queue))
	}
	setStatus := func(id, status string) {
		fixture.Must(t, func() error {
			return w.Store.Update(func(tx signflow.Tx) error {
				d, err := tx.Delivery(id)
				if err != nil {
					return err
				}
				d.Status = status
				d.Attempts = append(d.Attempts, signflow.Attempt{At: w.Clock.Now(), StatusCode: 500})
				return tx.PutDelivery(d)
			})
		})
	}
	setStatus(queue[0], signflow.DeliveryDelivered)
	if got := pending(); len(got) != 1 || got[0] != queue[1] {
		t.Fatalf("after delivering %s the queue is %v", queue[0], got)
	}
	setStatus(queue[1], signflow.DeliveryFailed)
	if got := pending(); len(got) != 0 {
		t.Fatalf("FAILED delivery still queued: %v", got)
	}
	e.check(t, w.Store)
	if err := w.Service.Redeliver(queue[1]); err != nil {
		t.Fatal(err)
	}
	if got := pending(); len(got) != 1 || got[0] != queue[1] {
		t.Fatalf("after redelivery the queue is %v, want [%s]", got, queue[1])
	}
	list, err := w.Service.Deliveries(signflow.DeliveryFilter{ContractID: c.ID})
	if err != nil || len(list) != 2 {
		t.Fatalf("deliveries of the contract: %d, %v", len(list), err)
	}
	for _, d := range list {
		if d.ID == queue[1] && (d.Status != signflow.DeliveryPending || len(d.Attempts) != 1) {
			t.Fatalf("redelivered row: status %s, %d attempts (the log must be kept)", d.Status, len(d.Attempts))
		}
	}
	e.check(t, w.Store)
}
