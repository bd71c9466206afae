package signflow_test

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
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

// marshalText is encoding/json's form of s with HTML escaping off.
func marshalText(t testing.TB, s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// checkJSONText fails t unless both hand writers agree with encoding/json
// on s.
func checkJSONText(t testing.TB, s string) {
	t.Helper()
	want, _ := json.Marshal(s)
	if got := signflow.AppendJSONString([]byte("x"), s); !bytes.Equal(got[1:], want) {
		t.Fatalf("AppendJSONString(%q) = %s; json.Marshal: %s", s, got[1:], want)
	}
	if got, want := signflow.AppendJSONText(nil, s), marshalText(t, s); !bytes.Equal(got, want) {
		t.Fatalf("AppendJSONText(%q) = %s; encoder: %s", s, got, want)
	}
}

// TestJSONTextEveryASCIIByte takes each byte below 0x80 alone, between safe
// runs and after a two-byte rune, in both HTML modes.
func TestJSONTextEveryASCIIByte(t *testing.T) {
	for c := range 0x80 {
		for _, f := range []string{"%c", "ab%ccd", "я%cя", "%c%c"} {
			s := strings.ReplaceAll(f, "%c", string(rune(c)))
			checkJSONText(t, s)
		}
	}
}

// TestJSONTextUTF8 holds the run-copying UTF-8 path to encoding/json:
// Cyrillic and other two-byte text, three- and four-byte runes, U+2028 and
// U+2029, and every kind of invalid sequence (a lone continuation, overlong
// forms, surrogates, beyond U+10FFFF, sequences cut short, at the end too).
func TestJSONTextUTF8(t *testing.T) {
	pieces := []string{
		"Договор поставки №5", "ÀÿĀſ", "\u0080\u07ff", "€", "中文", "😀", "\u2028", "\u2029", "\u2027\u202a",
		"\x80", "\xbf", "\xc0\x80", "\xc1\xbf", "\xc2", "\xc2\x7f", "\xc2\xc0", "\xdf\xbf", "\xdf",
		"\xe0\x80\x80", "\xe0\xa0\x80", "\xe2\x80", "\xe2\x80\xa8", "\xe2\x80\xa9", "\xed\xa0\x80", "\xed\x9f\xbf",
		"\xef\xbf\xbd", "\xf0\x8f\xbf\xbf", "\xf0\x90\x80\x80", "\xf4\x8f\xbf\xbf", "\xf4\x90\x80\x80", "\xf5\x80\x80\x80",
		"\xff", "\xfe", "a", "<&>", "\"", "\\", "\n", "\x00", "\x7f",
	}
	for _, p := range pieces {
		checkJSONText(t, p)
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		var sb strings.Builder
		for range r.IntN(8) {
			sb.WriteString(pieces[r.IntN(len(pieces))])
		}
		checkJSONText(t, sb.String())
	}
}

// FuzzJSONText holds both hand writers to encoding/json on any string.
func FuzzJSONText(f *testing.F) {
	for _, s := range []string{"", "plain", "Договор <a&b>", "\xd0", "\xe2\x80\xa8x", "\xed\xa0\x80", "\x00\"\\"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkJSONText(t, s) })
}

// BenchmarkAppendJSONString writes a create's typical strings: ASCII ids
// and codes, and Cyrillic names and values.
func BenchmarkAppendJSONString(b *testing.B) {
	strs := []string{"0b9d4e1a-6c1f-4f43-9d4e-1a6c1f4f439d", "2026-00012345", "UZS", "шт",
		"Поставка оборудования для склада № 3", "ООО «Ромашка Трейд»", "Cement M400, 50 kg bags"}
	buf := make([]byte, 0, 256)
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range strs {
			buf = signflow.AppendJSONString(buf[:0], s)
		}
	}
}
