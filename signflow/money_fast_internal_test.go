package signflow

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// The fast path of MinorFromMajor gives, for every text it takes, what the
// exact path gives: texts made of digits and dots of every length up to
// the bound, and the edges of MaxMoney.
func TestPlainMinorIsExactMinor(t *testing.T) {
	texts := []string{"0", "00", "0.0", "0.00", "1.", ".5", "9999999999999.99", "10000000000000", "10000000000000.00",
		"10000000000000.01", "0010000000000000", "99999999999999", "1.000", "-1", "+1", "1_0"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		var b strings.Builder
		for range 1 + r.IntN(17) {
			b.WriteByte("0123456789.9"[r.IntN(12)])
		}
		texts = append(texts, b.String())
	}
	taken := 0
	for _, s := range texts {
		fast, ok := plainMinor(s)
		if !ok {
			continue
		}
		taken++
		if exact, err := exactMinor(s, "price"); err != nil || exact != fast {
			t.Fatalf("%q: fast path %d, exact path %d, %v", s, fast, exact, err)
		}
	}
	if taken < 1000 {
		t.Fatalf("the fast path took only %d texts", taken)
	}
}
