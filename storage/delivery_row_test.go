package storage_test

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"contracts/signflow"
	"contracts/storage"
)

// The fixed layout of a delivery row reads back what JSON, the layout it
// replaced, reads back; a JSON row is still read; a row cut short is an
// error, never a panic or a row read half.
func TestDeliveryRowLayoutMatchesJSON(t *testing.T) {
	at := time.Date(2026, 11, 22, 9, 0, 0, 123456789, time.UTC)
	rows := []*signflow.Delivery{
		{Attempts: []signflow.Attempt{}},
		{ID: signflow.NewID(), Seq: 1 << 40, Event: signflow.EventCreated, ContractID: signflow.NewID(), Target: "key:k",
			TargetName: "Ключ «Ω» \x00 end", URL: "https://example.com/hook?a=1", Status: signflow.DeliveryPending,
			Attempts: []signflow.Attempt{}, RoundStart: 0, NextAt: at, CreatedAt: at.Add(-time.Hour)},
		{ID: "d", Seq: 7, Event: signflow.EventSigned, ContractID: "c", Target: "app:a", Status: signflow.DeliveryFailed, RoundStart: 2,
			NextAt: time.Unix(0, 0).UTC(), CreatedAt: at,
			Attempts: []signflow.Attempt{{At: at, StatusCode: 503, DurationMs: 12, Error: "answered 503 Service Unavailable"},
				{At: time.Date(1969, 12, 31, 23, 59, 59, 999999999, time.UTC), StatusCode: -1, DurationMs: -5, Error: ""},
				{At: time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC), StatusCode: 0, DurationMs: 1 << 50, Error: "dial tcp: refused"}}},
	}
	for i, d := range rows {
		data, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		viaJSON := new(signflow.Delivery)
		if err := storage.DecodeDeliveryRow(data, viaJSON); err != nil {
			t.Fatalf("row %d as JSON: %v", i, err)
		}
		viaJSON.Body = nil // rows carry no body: it lives in delivery_bodies
		row := storage.EncodeDeliveryRow(d)
		got := new(signflow.Delivery)
		if err := storage.DecodeDeliveryRow(row, got); err != nil {
			t.Fatalf("row %d: %v", i, err)
		}
		if !reflect.DeepEqual(got, viaJSON) {
			t.Fatalf("row %d:\n got %+v\nwant %+v", i, got, viaJSON)
		}
		for n := range len(row) {
			if err := storage.DecodeDeliveryRow(row[:n], new(signflow.Delivery)); err == nil {
				t.Fatalf("row %d cut to %d of %d bytes was read", i, n, len(row))
			}
		}
	}
}
