package record

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"contracts/signflow"
	"contracts/storage/record/recordtest"
)

// TestEncodeContractMatchesEncodingJSON holds the stored record's hand
// encoder to json.Marshal: the same bytes, or an error where json.Marshal
// gives one, for contracts whose every field (found by reflection, so a
// field added to Contract is covered at once) is filled at random, often
// with text JSON escapes, times json.Marshal refuses and odd numbers.
func TestEncodeContractMatchesEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	byHand := 0
	for i := range 5000 {
		c := new(signflow.Contract)
		recordtest.Fill(r, reflect.ValueOf(c).Elem())
		var bad bool
		if AppendContract(nil, c, &bad); !bad {
			byHand++
		}
		want, wantErr := json.Marshal(c)
		got, err := Contract(c)
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("contract %d: error %v, json.Marshal's %v", i, err, wantErr)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("contract %d:\n got %s\nwant %s", i, got, want)
		}
	}
	if byHand < 2500 {
		t.Fatalf("only %d of 5000 contracts written by hand", byHand)
	}
}

// TestEncodeAuditMatchesEncodingJSON is the same for the audit event.
func TestEncodeAuditMatchesEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for i := range 5000 {
		e := new(signflow.AuditEvent)
		recordtest.Fill(r, reflect.ValueOf(e).Elem())
		want, wantErr := json.Marshal(e)
		got, err := Audit(e)
		if (err != nil) != (wantErr != nil) || !bytes.Equal(got, want) {
			t.Fatalf("event %d: %s, %v\nwant %s, %v", i, got, err, want, wantErr)
		}
	}
}

// TestEncodeContractOfACreate is the common case, a contract as a create
// stores it, written by hand without falling back.
func TestEncodeContractOfACreate(t *testing.T) {
	now := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	c := &signflow.Contract{ID: "0193", Seq: 7, Number: "2026-000007", Status: signflow.StatusCreated, BuyerIN: "123456789",
		SellerIN: "987654321", Price: 150000, Currency: "UZS", TemplateID: "t", TemplateVersion: 2, CreatedAt: now, UpdatedAt: now,
		Version: 1, Values: []signflow.Value{{ID: "v", Value: "a <b> & \"c\"", CreatedAt: now, UpdatedAt: now}},
		Payments: []signflow.Payment{{Amount: 5, PaymentDate: now}}, Products: []signflow.Product{{Name: "p", Quantity: 1.5}},
		Parties: &signflow.PartyRecords{Seller: &signflow.Client{IN: "987654321", LegalName: "OOO"}}}
	var bad bool
	got := AppendContract(nil, c, &bad)
	want, _ := json.Marshal(c)
	if bad || !bytes.Equal(got, want) {
		t.Fatalf("bad %v\n got %s\nwant %s", bad, got, want)
	}
}

// BenchmarkEncodeContract is the stored record of a typical created
// contract, by hand and (plain) by encoding/json.
func BenchmarkEncodeContract(b *testing.B) {
	now := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	c := &signflow.Contract{ID: "019ac2f0-8a4e-7b1c-9d3e-0123456789ab", Seq: 7, Number: "2026-000007", Status: signflow.StatusCreated,
		BuyerIN: "123456789", SellerIN: "987654321", CreatorIN: "987654321", Price: 150000000, Currency: "UZS",
		TemplateID: "019ac2f0-8a4e-7b1c-9d3e-0123456789ac", TemplateVersion: 1, CreatedAt: now, UpdatedAt: now, Version: 1,
		Hash: "3f2a9c0d5e6b7a8f9e0d1c2b3a4f5e6d7c8b9a0f1e2d3c4b5a69788796a5b4c3", AppID: "app", KeyID: "key",
		Values: []signflow.Value{{ID: "019ac2f0-8a4e-7b1c-9d3e-0123456789ad", Value: "Toshkent shahri", TemplateFieldID: "f1", KeyName: "city", CreatedAt: now, UpdatedAt: now},
			{ID: "019ac2f0-8a4e-7b1c-9d3e-0123456789ae", Value: "2026-12-01", TemplateFieldID: "f2", KeyName: "start", CreatedAt: now, UpdatedAt: now}},
		Payments: []signflow.Payment{{Amount: 50000000, PaymentDate: now}, {Amount: 100000000, PaymentDate: now}},
		Products: []signflow.Product{{ID: "p", Name: "Noutbuk", Unit: "dona", Price: 150000000, Quantity: 1, Amount: 150000000}},
		Parties: &signflow.PartyRecords{Buyer: &signflow.Client{IN: "123456789", Type: "PERSON", FirstName: "Ali", LastName: "Valiyev", Passport: "AA1234567"},
			Seller: &signflow.Client{IN: "987654321", Type: "COMPANY", LegalName: "OOO Savdo", Address: "Toshkent"}}}
	b.Run("hand", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			Contract(c)
		}
	})
	b.Run("json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			json.Marshal(c)
		}
	})
}
