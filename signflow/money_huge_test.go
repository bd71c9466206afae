package signflow_test

import (
	"encoding/json"
	"runtime"
	"strings"
	"testing"

	"contracts/signflow"
)

// hugeNumbers are money numbers whose exact parse costs seconds of CPU or
// gigabytes: a megabyte of digits, and exponents.
var hugeNumbers = map[string]json.Number{
	"a million digits":       json.Number(strings.Repeat("9", 1<<20)),
	"a million fractions":    json.Number("1." + strings.Repeat("5", 1<<20)),
	"an exponent":            "1e1000000",
	"a negative exponent":    "1e-1000000",
	"25 characters":          "1000000000000000000000000",
	"an upper-case exponent": "5E2",
}

// Huge numbers are refused by their text alone, on both interfaces' money
// parsers: no big number is built, so the refusal allocates a few hundred
// bytes for its error (an exact parse of a million digits, or of an
// exponent of a million, allocates megabytes and takes over a second).
func TestHugeNumbersRefusedBeforeParsing(t *testing.T) {
	parsers := map[string]func(json.Number, string) (int64, error){
		"major (embedded)": signflow.MinorFromMajor, "minor (key)": signflow.MinorFromInteger}
	for pname, parse := range parsers {
		for name, n := range hugeNumbers {
			var err error
			allocated := bytesAllocated(func() { _, err = parse(n, "products[0].price") })
			if signflow.ErrorCode(err) != signflow.EINVALID ||
				signflow.ErrorMessage(err) != "products[0].price: must be a plain number of at most 24 characters, without an exponent" {
				t.Errorf("%s, %s: %v", pname, name, err)
			}
			if allocated > 16<<10 {
				t.Errorf("%s, %s: %d bytes allocated: the number was parsed before it was refused", pname, name, allocated)
			}
		}
	}
}

// bytesAllocated is what f allocates on the heap (the test runs alone).
func bytesAllocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// BenchmarkRefuseHugeNumber measures the refusal of a million-digit price:
// it must stay far under a millisecond (go test -bench RefuseHuge ./signflow/).
func BenchmarkRefuseHugeNumber(b *testing.B) {
	n := hugeNumbers["a million digits"]
	for b.Loop() {
		if _, err := signflow.MinorFromMajor(n, "price"); err == nil {
			b.Fatal("accepted")
		}
	}
}
