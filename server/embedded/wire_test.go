package embedded

import (
	"encoding/json"
	"testing"
	"time"

	"contracts/server/wire"
)

// Nil and empty optional values are JSON null; times are UTC seconds.
func TestOptionalWireValues(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 999, time.FixedZone("UZT", 5*3600))
	zero := time.Time{}
	out, err := json.Marshal(map[string]any{"s": wire.OptString(""), "t": wire.OptString("x"), "n": wire.OptTime(nil), "z": wire.OptTime(&zero),
		"a": wire.OptTime(&at), "c": currencyID("EUR"), "u": currencyID("UZS") != nil})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"a":"2026-01-01T22:04:05Z","c":null,"n":null,"s":null,"t":"x","u":true,"z":null}`
	if string(out) != want {
		t.Fatalf("got %s\nwant %s", out, want)
	}
}
