package storage

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"contracts/signflow"
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
		fill(r, reflect.ValueOf(c).Elem(), 0)
		var bad bool
		if appendContractRecord(nil, c, &bad); !bad {
			byHand++
		}
		want, wantErr := json.Marshal(c)
		got, err := encodeContract(c)
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
		fill(r, reflect.ValueOf(e).Elem(), 0)
		want, wantErr := json.Marshal(e)
		got, err := encodeAudit(e)
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
	got := appendContractRecord(nil, c, &bad)
	want, _ := json.Marshal(c)
	if bad || !bytes.Equal(got, want) {
		t.Fatalf("bad %v\n got %s\nwant %s", bad, got, want)
	}
}

var texts = []string{"", "a", "Ўзбек тили", "<script>&amp;", "\"quoted\\", "\x00\x1f\t\n\r\b\f", "\xff\xfe bad", "\u2028\u2029", "😀", "\x7f", "a\u00e9b"}

// fill sets v to a random value of its type.
func fill(r *rand.Rand, v reflect.Value, depth int) {
	if v.Type() == reflect.TypeFor[time.Time]() {
		v.Set(reflect.ValueOf(randomTime(r)))
		return
	}
	switch v.Kind() {
	case reflect.String:
		s := ""
		for range r.IntN(3) {
			s += texts[r.IntN(len(texts))]
		}
		v.SetString(s)
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 0)
	case reflect.Int, reflect.Int32, reflect.Int64:
		n := []int64{0, 1, -1, r.Int64N(1 << 40), math.MaxInt32, math.MinInt32}[r.IntN(6)]
		if v.Kind() == reflect.Int32 {
			n = int64(int32(n))
		}
		v.SetInt(n)
	case reflect.Uint64:
		v.SetUint([]uint64{0, 1, math.MaxUint64, r.Uint64()}[r.IntN(4)])
	case reflect.Float64:
		v.SetFloat(randomFloat(r))
	case reflect.Pointer:
		if r.IntN(4) == 0 || depth > 4 {
			return
		}
		p := reflect.New(v.Type().Elem())
		fill(r, p.Elem(), depth+1)
		v.Set(p)
	case reflect.Slice:
		switch r.IntN(4) {
		case 0:
			return // nil
		case 1:
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
			return
		}
		s := reflect.MakeSlice(v.Type(), 1+r.IntN(3), 4)
		for i := range s.Len() {
			fill(r, s.Index(i), depth+1)
		}
		v.Set(s)
	case reflect.Map:
		if r.IntN(3) == 0 {
			return
		}
		m := reflect.MakeMap(v.Type())
		for range r.IntN(3) {
			k := reflect.New(v.Type().Key()).Elem()
			fill(r, k, depth+1)
			e := reflect.New(v.Type().Elem()).Elem()
			fill(r, e, depth+1)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Interface:
		var x any
		switch r.IntN(6) {
		case 0:
			x = texts[r.IntN(len(texts))]
		case 1:
			x = randomFloat(r)
		case 2:
			x = []any{"x", 2.5}
		case 3:
			x = r.IntN(2) == 0
		case 4:
			x = json.Number([]string{"12", "-0.5", "", "x"}[r.IntN(4)])
		}
		if x != nil {
			v.Set(reflect.ValueOf(x))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(r, v.Field(i), depth+1)
			}
		}
	}
}

func randomTime(r *rand.Rand) time.Time {
	t := time.Unix(r.Int64N(4e9), 0).UTC()
	switch r.IntN(400) {
	case 0:
		t = t.Add(time.Duration(r.IntN(1e9)))
	case 1:
		t = t.In(time.FixedZone("UZT", 5*3600))
	case 2:
		t = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
	case 3:
		t = time.Time{}
	}
	return t
}

func randomFloat(r *rand.Rand) float64 {
	switch r.IntN(10) {
	case 0:
		if r.IntN(50) == 0 {
			return math.NaN()
		}
		return -1e-300
	case 1:
		return 1e-7 * r.Float64()
	case 2:
		return 1e22 * r.Float64()
	case 3:
		return 0
	case 4:
		return -r.Float64()
	}
	return float64(r.IntN(1000)) + float64(r.IntN(100))/100
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
			encodeContract(c)
		}
	})
	b.Run("json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			json.Marshal(c)
		}
	})
}
