package signflow_test

import (
	"encoding/json"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"contracts/signflow"
)

// The fast path of MinorFromMajor agrees with the exact one.
func TestMinorFromMajorFastPath(t *testing.T) {
	for in, want := range map[string]int64{"0": 0, "1": 100, "1500": 150000, "1500.5": 150050, "1500.25": 150025,
		"0.01": 1, "00.10": 10, "9999999999999": 999999999999900, "10000000000000": 1000000000000000, "1500.250": 150025} {
		got, err := signflow.MinorFromMajor(json.Number(in), "price")
		if err != nil || got != want {
			t.Errorf("MinorFromMajor(%s) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"1500.255", "-1", "1..2", "1.2.3", "10000000000001", "1e400", "1e2", "abc"} {
		if _, err := signflow.MinorFromMajor(json.Number(bad), "price"); signflow.ErrorCode(err) != signflow.EINVALID {
			t.Errorf("MinorFromMajor(%s) accepted", bad)
		}
	}
}

// exactMinor is MinorFromMajor without its fast path: the bounds on the
// text, then big.Rat. ok is false where MinorFromMajor refuses.
func exactMinor(s string) (int64, bool) {
	if s == "" {
		return 0, true
	}
	if len(s) > signflow.MaxNumberLen || strings.ContainsAny(s, "eE") {
		return 0, false
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok || !r.Mul(r, big.NewRat(100, 1)).IsInt() || !r.Num().IsInt64() {
		return 0, false
	}
	v := r.Num().Int64()
	return v, v >= 0 && v <= signflow.MaxMoney
}

// MinorFromMajor, fast path and all, answers as the exact parse does for
// every text of digits, dots and signs: the short ones all, and a fixed
// random sample of longer ones up to past the length bound.
func TestMinorFromMajorAgreesWithExact(t *testing.T) {
	const alphabet = "0123456789.-+"
	check := func(s string) {
		got, err := signflow.MinorFromMajor(json.Number(s), "price")
		want, ok := exactMinor(s)
		if ok != (err == nil) || (ok && got != want) {
			t.Fatalf("MinorFromMajor(%q) = %d, %v; the exact parse gives %d, ok %v", s, got, err, want, ok)
		}
		if err != nil && signflow.ErrorCode(err) != signflow.EINVALID {
			t.Fatalf("MinorFromMajor(%q): %v, want EINVALID", s, err)
		}
	}
	var all func(prefix string, n int)
	all = func(prefix string, n int) {
		check(prefix)
		if n == 0 {
			return
		}
		for i := range len(alphabet) {
			all(prefix+alphabet[i:i+1], n-1)
		}
	}
	all("", 4)
	rnd := rand.New(rand.NewPCG(33, 4))
	digits := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('0' + rnd.IntN(10))
		}
		return string(b)
	}
	for range 40000 {
		s := digits(rnd.IntN(17))
		if rnd.IntN(4) > 0 {
			s += "." + digits(rnd.IntN(4))
		}
		if rnd.IntN(10) == 0 {
			b := []byte(s + "0")
			b[rnd.IntN(len(b))] = alphabet[10+rnd.IntN(3)]
			s = string(b)
		}
		check(s)
	}
}
