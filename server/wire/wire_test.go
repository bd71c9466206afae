package wire

import (
	"encoding/json"
	"math/rand/v2"
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
		got, err := ParseDateTime(in, "deliveryAt")
		if err != nil {
			t.Errorf("%q: %v", in, err)
			continue
		}
		if s, _ := Time(*got).MarshalText(); string(s) != want {
			t.Errorf("%q read as %s, want %s", in, s, want)
		}
	}
	if got, err := ParseDateTime("", "deliveryAt"); got != nil || err != nil {
		t.Errorf("empty: %v %v", got, err)
	}
	for _, bad := range []string{"2026-13-01", "2026-02-30", "01.12.2026", "2026-12-01T10:04", "2026-12-01 10:04:05", "tomorrow", "1764583445"} {
		_, err := ParseDateTime(bad, "payments[3].paymentDate")
		if signflow.ErrorCode(err) != signflow.EINVALID || !strings.HasPrefix(signflow.ErrorMessage(err), "payments[3].paymentDate: ") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

func TestAmountMajor(t *testing.T) {
	type body struct {
		Price Amount `json:"price"`
	}
	for in, want := range map[string]int64{`{"price":1500.25}`: 150025, `{"price":0}`: 0, `{"price":null}`: 0, `{}`: 0,
		`{"price":12.5}`: 1250, `{"price":100000000000.00}`: 10000000000000} {
		var b body
		if err := server.Decode([]byte(in), &b); err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		if got, err := b.Price.In(Major, "price"); err != nil || got != want {
			t.Errorf("%s: %d %v, want %d", in, got, err, want)
		}
	}
	for in, msg := range map[string]string{
		`{"price":"12"}`:                      "price: must be a number, not string",
		`{"price":true}`:                      "price: must be a number, not bool",
		`{"price":{}}`:                        "price: must be a number, not object",
		`{"price":[1]}`:                       "price: must be a number, not array",
		`{"price":1.001}`:                     "price: must be a number with at most 2 decimal places",
		`{"price":-0.5}`:                      "price: must be between 0 and",
		`{"price":1e16}`:                      "price: must be a plain number of at most 24 characters, without an exponent",
		`{"price":1e-400}`:                    "price: must be a plain number of at most 24 characters, without an exponent",
		`{"price":1E3}`:                       "price: must be a plain number of at most 24 characters, without an exponent",
		`{"price":10000000000000.01}`:         "price: must be between 0 and",
		`{"price":0.0000000000000000000001}`:  "price: must be a number with at most 2 decimal places",
		`{"price":0.00000000000000000000001}`: "price: must be a plain number of at most 24 characters",
		`{"price":100.000}`:                   "",
	} {
		var b body
		err := server.Decode([]byte(in), &b)
		if err == nil {
			_, err = b.Price.In(Major, "price")
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

func TestAmountMinor(t *testing.T) {
	type body struct {
		Price Amount `json:"price"`
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
		{`{"price": 1.5e5}`, 0, "price: must be a plain number of at most 24 characters, without an exponent"},
		{`{"price": 1000000000000000}`, 1000000000000000, ""},
		{`{"price": 1000000000000001}`, 0, "price: must be between 0 and 10000000000000.00 (1000000000000000 in minor units)"},
		{`{"price": 1000000000000000.000000000}`, 0, "price: must be a plain number of at most 24 characters"},
		{`{"price": 150000.0}`, 150000, ""},
		{`{"price": 1500.5}`, 0, "price: must be a whole number of minor units"},
		{`{"price": 1e-2}`, 0, "price: must be a plain number of at most 24 characters, without an exponent"},
		{`{"price": 0.01}`, 0, "price: must be a whole number of minor units"},
		{`{"price": -100}`, 0, "price: must be between 0"},
		{`{"price": 1e30}`, 0, "price: must be a plain number of at most 24 characters, without an exponent"},
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
				n, err = b.Price.In(Minor, "price")
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

func TestWireTime(t *testing.T) {
	at := time.Date(2026, 11, 22, 14, 5, 9, 999, time.FixedZone("UZT", 5*3600))
	data, err := json.Marshal(struct {
		At    Time  `json:"at"`
		Never *Time `json:"never"`
		Zero  *Time `json:"zero"`
	}{Time(at), OptTime(nil), OptTime(&time.Time{})})
	if err != nil || string(data) != `{"at":"2026-11-22T09:05:09Z","never":null,"zero":null}` {
		t.Fatalf("%s %v", data, err)
	}
}

// TestDateAloneReadsAsBefore holds the date-alone shortcut of ParseDateTime
// to the plain read (RFC 3339 first, then a date) on ten-character texts,
// read or refused.
func TestDateAloneReadsAsBefore(t *testing.T) {
	plain := func(s string) (time.Time, bool) {
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t, err = time.ParseInLocation(time.DateOnly, s, time.UTC)
		}
		return signflow.UTC(t), err == nil
	}
	r := rand.New(rand.NewPCG(7, 8))
	texts := []string{"2026-12-01", "2024-02-29", "2025-02-29", "0000-01-01", "9999-12-31", "2026-1-01Z", "2026-12-1 ", "1764583445"}
	for range 5000 {
		b := []byte("2026-12-01")
		b[r.IntN(10)] = "0123456789-:TZ+ x"[r.IntN(17)]
		texts = append(texts, string(b))
	}
	for _, s := range texts {
		want, ok := plain(strings.TrimSpace(s))
		got, err := ParseDateTime(s, "deliveryAt")
		if ok != (err == nil) || ok && !got.Equal(want) {
			t.Fatalf("%q: %v %v; plain read %v %v", s, got, err, want, ok)
		}
	}
}
