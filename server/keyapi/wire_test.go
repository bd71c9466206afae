package keyapi

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"contracts/server"
	"contracts/signflow"
)

func TestAmountDecoding(t *testing.T) {
	type body struct {
		Price amount `json:"price"`
	}
	for _, sc := range []struct {
		json  string
		minor int64
		err   string
	}{
		{`{"price": 150000}`, 150000, ""},
		{`{"price": 0}`, 0, ""},
		{`{"price": null}`, 0, ""},
		{`{}`, 0, ""},
		{`{"price": 1.5e5}`, 150000, ""},
		{`{"price": 150000.0}`, 150000, ""},
		{`{"price": 1500.5}`, 0, "price: must be a whole number of minor units"},
		{`{"price": 1e-2}`, 0, "price: must be a whole number of minor units"},
		{`{"price": -100}`, 0, "price: must be between 0"},
		{`{"price": 1e30}`, 0, "price: must be between 0"},
		{`{"price": "100"}`, 0, "price: must be a number, not string"},
		{`{"price": true}`, 0, "price: must be a number, not bool"},
		{`{"price": [1]}`, 0, "price: must be a number, not array"},
		{`{"price": {}}`, 0, "price: must be a number, not object"},
	} {
		t.Run(sc.json, func(t *testing.T) {
			var b body
			err := server.Decode([]byte(sc.json), &b)
			var n int64
			if err == nil {
				n, err = b.Price.minor("price")
			}
			if sc.err == "" && (err != nil || n != sc.minor) {
				t.Fatalf("got %d, %v; want %d", n, err, sc.minor)
			}
			if sc.err != "" && (signflow.ErrorCode(err) != signflow.EINVALID || !strings.Contains(signflow.ErrorMessage(err), sc.err)) {
				t.Fatalf("got %v, want EINVALID with %q", err, sc.err)
			}
		})
	}
}

func TestParseDateTime(t *testing.T) {
	for _, sc := range []struct{ in, want string }{
		{"2026-12-01T15:00:00+05:00", "2026-12-01T10:00:00Z"},
		{"2026-12-01T10:00:00.987Z", "2026-12-01T10:00:00Z"},
		{"2026-12-01", "2026-12-01T00:00:00Z"},
		{" 2026-12-01T10:00:00Z ", "2026-12-01T10:00:00Z"},
	} {
		got, err := parseDateTime(sc.in, "deliveryAt")
		if err != nil || got.Format(timeLayout) != sc.want || got.Location() != time.UTC {
			t.Errorf("%q: got %v, %v; want %s", sc.in, got, err, sc.want)
		}
	}
	if got, err := parseDateTime("", "deliveryAt"); got != nil || err != nil {
		t.Errorf("empty: %v, %v", got, err)
	}
	for _, bad := range []string{"tomorrow", "2026-13-01", "01.12.2026", "2026-12-01T10:00"} {
		if _, err := parseDateTime(bad, "deliveryAt"); signflow.ErrorCode(err) != signflow.EINVALID ||
			!strings.HasPrefix(signflow.ErrorMessage(err), "deliveryAt:") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

func TestWireTime(t *testing.T) {
	at := time.Date(2026, 11, 22, 14, 5, 9, 999, time.FixedZone("UZT", 5*3600))
	data, err := json.Marshal(struct {
		At    wireTime  `json:"at"`
		Never *wireTime `json:"never"`
		Zero  *wireTime `json:"zero"`
	}{wireTime(at), optTime(nil), optTime(&time.Time{})})
	if err != nil || string(data) != `{"at":"2026-11-22T09:05:09Z","never":null,"zero":null}` {
		t.Fatalf("%s %v", data, err)
	}
}
