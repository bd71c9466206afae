package signflow_test

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"

	"contracts/signflow"
)

// TestJSONTextIsEncodingJSON holds the hand writers of JSON strings and
// floats to encoding/json: AppendJSONString to json.Marshal, AppendJSONText
// to an encoder with HTML escaping off.
func TestJSONTextIsEncodingJSON(t *testing.T) {
	strs := []string{"", "plain", "q\"b\\s/ <a>&amp; \x00\x01\x1f\b\f\n\r\t é 😀 \u2028\u2029 bad:\xff\xfe end"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		b := make([]byte, r.IntN(24))
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		strs = append(strs, string(b))
	}
	for _, s := range strs {
		want, _ := json.Marshal(s)
		if got := signflow.AppendJSONString(nil, s); !bytes.Equal(got, want) {
			t.Fatalf("AppendJSONString(%q) = %s; json.Marshal: %s", s, got, want)
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		if got := signflow.AppendJSONText(nil, s); !bytes.Equal(got, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))) {
			t.Fatalf("AppendJSONText(%q) = %s; encoder: %s", s, got, buf.Bytes())
		}
	}
	floats := []float64{0, 1, -1, 0.1, 1500.25, 1e20, 1e21, 1e-6, 1e-7, math.MaxFloat64, math.SmallestNonzeroFloat64}
	for range 2000 {
		floats = append(floats, math.Float64frombits(r.Uint64()))
	}
	for _, f := range floats {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue
		}
		want, _ := json.Marshal(f)
		if got := signflow.AppendJSONFloat(nil, f); !bytes.Equal(got, want) {
			t.Fatalf("AppendJSONFloat(%v) = %s; json.Marshal: %s", f, got, want)
		}
	}
}
