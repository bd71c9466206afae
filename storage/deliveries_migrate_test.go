package storage_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
	"contracts/storage"

	bolt "go.etcd.io/bbolt"
)

// The upgrade to schema 8 moves each delivery's body out of its row: a file
// rolled back to schema 7 (bodies in the rows, no delivery_bodies) opens
// with every body in delivery_bodies, rows without them, and the same
// deliveries read back, pending or settled.
func TestUpgradeSplitsDeliveryBodies(t *testing.T) {
	w := fixture.NewStandard(t)
	fixture.MustCredential(t, w.Service.CreateKey, &signflow.CredentialInput{Name: "Hooked", OwnerIN: fixture.OwnerIN,
		Scopes: signflow.KeyScopes, AllTemplates: true, WebhookURL: "http://127.0.0.1:1/hook"})
	for range 200 {
		w.Contract(t)
	}
	before, err := w.Service.Deliveries(signflow.DeliveryFilter{Limit: 1000})
	if err != nil || len(before) != 200 {
		t.Fatalf("%d deliveries (%v), want 200", len(before), err)
	}
	// One settled row, as a send leaves it.
	err = w.DB.Update(func(tx signflow.Tx) error {
		d, err := tx.Delivery(before[0].ID)
		if err != nil {
			return err
		}
		d.Status, d.Attempts = signflow.DeliveryDelivered, []signflow.Attempt{{StatusCode: 204}}
		return tx.PutDelivery(d)
	})
	if err != nil {
		t.Fatal(err)
	}
	// Roll back: bodies into the rows, as schema 7 kept them.
	db := rollBack(t, w.DB, 7, func(btx *bolt.Tx) error {
		rows, bodies := btx.Bucket([]byte("deliveries")), btx.Bucket([]byte("delivery_bodies"))
		for _, d := range before {
			row := new(signflow.Delivery)
			if err := storage.DecodeDeliveryRow(rows.Get([]byte(d.ID)), row); err != nil {
				return err
			}
			if row.Body != nil || !bytes.Equal(bodies.Get([]byte(d.ID)), d.Body) {
				return fmt.Errorf("delivery %s: row body %s, kept body %s", d.ID, row.Body, bodies.Get([]byte(d.ID)))
			}
			row.Body = bytes.Clone(bodies.Get([]byte(d.ID)))
			data, err := json.Marshal(row)
			if err != nil {
				return err
			}
			if err := rows.Put([]byte(d.ID), data); err != nil {
				return err
			}
		}
		return btx.DeleteBucket([]byte("delivery_bodies"))
	})
	path := db.Path()
	after, err := signflow.NewService(db, w.Options).Deliveries(signflow.DeliveryFilter{Limit: 1000})
	if err != nil || len(after) != len(before) {
		t.Fatalf("%d deliveries (%v) after the upgrade, want %d", len(after), err, len(before))
	}
	for i, d := range after {
		if d.ID != before[i].ID || !bytes.Equal(d.Body, before[i].Body) || len(d.Body) == 0 {
			t.Fatalf("delivery %d: %s %s, want %s %s", i, d.ID, d.Body, before[i].ID, before[i].Body)
		}
	}
	if after[0].Status != signflow.DeliveryDelivered || after[1].Status != signflow.DeliveryPending {
		t.Fatalf("statuses %s, %s after the upgrade", after[0].Status, after[1].Status)
	}
	err = db.View(func(tx signflow.Tx) error {
		pending, err := tx.PendingDeliveries(0, 1000)
		if err != nil || len(pending) != 199 || !bytes.Equal(pending[0].Body, before[1].Body) {
			t.Fatalf("%d pending (%v) after the upgrade, want 199 with their bodies", len(pending), err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	rb, err := bolt.Open(fmt.Sprintf("%s.pre-v%d.bak", path, storage.CurrentSchema()), 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("no snapshot before the upgrade: %v", err)
	}
	rb.Close()
}

// The upgrade leaves rows whose bodies moved already: a file rolled back
// below schema 8 after it (as the upgrade tests of later schemas do) keeps
// every body.
func TestUpgradeKeepsBodiesMovedAlready(t *testing.T) {
	w := fixture.NewStandard(t)
	fixture.MustCredential(t, w.Service.CreateKey, &signflow.CredentialInput{Name: "Hooked", OwnerIN: fixture.OwnerIN,
		Scopes: signflow.KeyScopes, AllTemplates: true, WebhookURL: "http://127.0.0.1:1/hook"})
	for range 3 {
		w.Contract(t)
	}
	before, err := w.Service.Deliveries(signflow.DeliveryFilter{Limit: 10})
	if err != nil || len(before) != 3 {
		t.Fatalf("%d deliveries (%v), want 3", len(before), err)
	}
	db := rollBack(t, w.DB, 7, func(*bolt.Tx) error { return nil })
	after, err := signflow.NewService(db, w.Options).Deliveries(signflow.DeliveryFilter{Limit: 10})
	if err != nil || len(after) != len(before) {
		t.Fatalf("%d deliveries (%v) after the upgrade, want %d", len(after), err, len(before))
	}
	for i := range after {
		if !bytes.Equal(after[i].Body, before[i].Body) || len(after[i].Body) < 10 {
			t.Fatalf("delivery %s: body %q after the upgrade, want %q", after[i].ID, after[i].Body, before[i].Body)
		}
	}
}
