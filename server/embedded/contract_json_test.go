package embedded

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// encodingJSON is what server.JSON writes for v.
func encodingJSON(t *testing.T, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// appendContract writes byte for byte what encoding/json writes for
// contractOf, the documented wire shape: tricky text, numbers, nulls and a
// contract stored through the service included.
func TestContractJSONMatchesEncodingJSON(t *testing.T) {
	tricky := "q\"b\\s/ <a>&amp; \x00\x01\x1f\b\f\n\r\t é 😀 \u2028\u2029 bad:\xff\xfe end"
	at := time.Date(2026, 1, 2, 3, 4, 5, 600, time.FixedZone("x", 5*3600))
	name := signflow.Text{UZ: tricky, RU: "Договор", EN: ""}
	client := &signflow.Client{ID: "c1", FirstName: tricky, Type: signflow.ClientIndividual, Phone: "998"}
	view := &signflow.ContractView{
		Contract: &signflow.Contract{ID: tricky, Number: "2026-000001", Status: "CREATED", Price: 150025, InitialPayment: 1,
			Currency: "UZS", DeliveryAt: &at, SignBy: &at, TemplateID: "t", CreatedAt: at, UpdatedAt: at, Version: 7, Deleted: true,
			Values: []signflow.Value{{ID: "v", Position: -3, Value: tricky, KeyName: "k", CreatedAt: at, UpdatedAt: at},
				{ID: "w", Value: ""}},
			Products: []signflow.Product{{ID: "p", Name: tricky, Unit: "KG", Price: 5, Quantity: 1e-7, Amount: 0},
				{ID: "p2", Quantity: 1e21, DeliveryAt: &at, Values: map[string]any{"b": json.Number("1.50"), "a": []any{tricky, true, nil}}},
				{ID: "p3", Quantity: 0.333, Values: map[string]any{}}},
			Payments:   []signflow.Payment{{Amount: 99999999999999, PaymentDate: at}},
			WitnessIDs: []string{tricky, "x"},
			Witnesses: []signflow.Witness{{ID: tricky, IN: "4", FirstName: tricky, MidName: "M", Status: "ACCEPTED"},
				{ID: "x", IN: "5", LegalName: tricky, Status: "PENDING"}, {ID: "y", IN: "6", Status: "ACCEPTED"}},
			Signatures: map[string]*signflow.Signature{"4": {At: at}, "5": {At: at}}},
		Template: &signflow.Template{ID: "t", Name: name, SellerName: name, BuyerName: name, ExchangeMode: "MONEY"},
		Buyer:    client, Seller: nil, Creator: &signflow.Client{ID: "c2", LegalName: "L", Type: signflow.ClientCompany},
	}
	empty := &signflow.ContractView{Contract: &signflow.Contract{ID: "e", Currency: "XXX"}}
	var zero time.Time
	odd := &signflow.ContractView{Contract: &signflow.Contract{ID: "o", Currency: "USD", DeliveryAt: &zero, SignBy: &zero, Price: 1e15,
		InitialPayment: 7, WitnessIDs: []string{}, Payments: []signflow.Payment{{Amount: 1}}}, Seller: &signflow.Client{}}

	w := fixture.NewStandard(t)
	stored, err := w.Service.Contract(w.Access(t, w.AppA), w.Contract(t).ID)
	if err != nil {
		t.Fatal(err)
	}
	for name, v := range map[string]*signflow.ContractView{"tricky": view, "empty": empty, "odd": odd, "stored": stored} {
		t.Run(name, func(t *testing.T) {
			got, want := appendContract(nil, v), encodingJSON(t, contractOf(v))
			if !bytes.Equal(got, want) {
				t.Fatalf("hand-written JSON differs:\n got %s\nwant %s", got, want)
			}
		})
	}
}

func BenchmarkContractJSON(b *testing.B) {
	w := fixture.NewStandard(b)
	v, err := w.Service.Contract(w.Access(b, w.AppA), w.Contract(b).ID)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("encoding/json", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			_ = enc.Encode(contractOf(v))
		}
	})
	b.Run("appendContract", func(b *testing.B) {
		b.ReportAllocs()
		buf := make([]byte, 0, 4096)
		for i := 0; i < b.N; i++ {
			buf = appendContract(buf[:0], v)
		}
	})
}

// TestCreatedAnswerIsServerJSON holds the create's answer, written by hand,
// to what server.JSON writes for createdContract.
func TestCreatedAnswerIsServerJSON(t *testing.T) {
	for _, id := range []string{signflow.NewID(), "", `<a href="x">&</a>`, "\u2028\x01\xff", "Ўзбек"} {
		if got, want := appendCreated(nil, id), encodingJSON(t, createdContract{ID: id}); !bytes.Equal(got, want) {
			t.Errorf("%q: %s, server.JSON %s", id, got, want)
		}
	}
}
