package embedded

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"contracts/server"
	"contracts/signflow"
)

func TestParseDateTime(t *testing.T) {
	for in, want := range map[string]string{
		"2026-12-01T15:04:05+05:00":      "2026-12-01T10:04:05Z",
		"2026-12-01T10:04:05Z":           "2026-12-01T10:04:05Z",
		"2026-12-01T10:04:05.999999Z":    "2026-12-01T10:04:05Z",
		"2026-12-01T00:30:00-01:00":      "2026-12-01T01:30:00Z",
		"2026-12-01":                     "2026-12-01T00:00:00Z",
		" 2026-12-01T10:04:05Z ":         "2026-12-01T10:04:05Z",
		"2024-02-29":                     "2024-02-29T00:00:00Z",
		"2026-12-31T23:59:59.5-00:30":    "2027-01-01T00:29:59Z",
		"2026-06-15T12:00:00.000+14:00":  "2026-06-14T22:00:00Z",
		"2026-06-15T12:00:00.000-12:00":  "2026-06-16T00:00:00Z",
		"2026-06-15T12:00:00.123456789Z": "2026-06-15T12:00:00Z",
	} {
		got, err := parseDateTime(in, "deliveryAt")
		if err != nil {
			t.Errorf("%q: %v", in, err)
			continue
		}
		if s, _ := wireTime(*got).MarshalText(); string(s) != want {
			t.Errorf("%q read as %s, want %s", in, s, want)
		}
	}
	if got, err := parseDateTime("", "deliveryAt"); got != nil || err != nil {
		t.Errorf("empty: %v %v", got, err)
	}
	for _, bad := range []string{"2026-13-01", "2026-02-30", "01.12.2026", "2026-12-01T10:04", "2026-12-01 10:04:05", "tomorrow", "1764583445"} {
		_, err := parseDateTime(bad, "payments[3].paymentDate")
		if signflow.ErrorCode(err) != signflow.EINVALID || !strings.HasPrefix(signflow.ErrorMessage(err), "payments[3].paymentDate: ") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

func TestAmount(t *testing.T) {
	type body struct {
		Price amount `json:"price"`
	}
	for in, want := range map[string]int64{`{"price":1500.25}`: 150025, `{"price":0}`: 0, `{"price":null}`: 0, `{}`: 0,
		`{"price":1e3}`: 100000, `{"price":12.5}`: 1250} {
		var b body
		if err := server.Decode([]byte(in), &b); err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		if got, err := b.Price.minor("price"); err != nil || got != want {
			t.Errorf("%s: %d %v, want %d", in, got, err, want)
		}
	}
	for in, msg := range map[string]string{
		`{"price":"12"}`:    "price: must be a number, not string",
		`{"price":true}`:    "price: must be a number, not bool",
		`{"price":{}}`:      "price: must be a number, not object",
		`{"price":[1]}`:     "price: must be a number, not array",
		`{"price":1.001}`:   "price: must be a number with at most 2 decimal places",
		`{"price":-0.5}`:    "price: must be between 0 and",
		`{"price":1e16}`:    "price: must be between 0 and",
		`{"price":1e-400}`:  "price: must be a number with at most 2 decimal places",
		`{"price":100.000}`: "",
	} {
		var b body
		err := server.Decode([]byte(in), &b)
		if err == nil {
			_, err = b.Price.minor("price")
		}
		if msg == "" {
			if err != nil {
				t.Errorf("%s: %v", in, err)
			}
			continue
		}
		if err == nil || !strings.Contains(signflow.ErrorMessage(err), msg) {
			t.Errorf("%s: %v, want %q", in, err, msg)
		}
	}
}

// Nil and empty optional values are JSON null; times are UTC seconds.
func TestOptionalWireValues(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 999, time.FixedZone("UZT", 5*3600))
	zero := time.Time{}
	out, err := json.Marshal(map[string]any{"s": optString(""), "t": optString("x"), "n": optTime(nil), "z": optTime(&zero),
		"a": optTime(&at), "c": currencyID("EUR"), "u": currencyID("UZS") != nil})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"a":"2026-01-01T22:04:05Z","c":null,"n":null,"s":null,"t":"x","u":true,"z":null}`
	if string(out) != want {
		t.Fatalf("got %s\nwant %s", out, want)
	}
}
