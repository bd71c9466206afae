package signflow

import (
	"encoding/json"
	"math"
	"math/big"
	"strconv"
)

// maxMoney bounds amounts so that sums of 1,000 products cannot overflow.
const maxMoney = int64(1e15)

// MinorFromMajor parses a major-unit decimal with at most two fraction
// digits ("1500", "1500.5", "1500.25") into minor units.
func MinorFromMajor(n json.Number, field string) (int64, error) {
	s := string(n)
	if s == "" {
		return 0, nil
	}
	if v, ok := plainMinor(s); ok {
		return v, nil
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok || len(s) > 40 || !r.Mul(r, big.NewRat(100, 1)).IsInt() {
		return 0, Errorf(EINVALID, "%s: must be a number with at most 2 decimal places", field)
	}
	return boundedMoney(r.Num(), field)
}

// plainMinor is the fast path of MinorFromMajor for the usual form
// "123", "123.4" or "123.45" within the money bound; anything else (signs,
// exponents, more digits) goes the exact big.Rat way.
func plainMinor(s string) (int64, bool) {
	whole, frac, dot := s, "", false
	for i := 0; i < len(s); i++ {
		if s[i] == '.' {
			whole, frac, dot = s[:i], s[i+1:], true
			break
		}
	}
	if len(whole) == 0 || len(whole) > 13 || len(frac) > 2 || (dot && len(frac) == 0) {
		return 0, false
	}
	var v int64
	for _, part := range []string{whole, frac} {
		for i := 0; i < len(part); i++ {
			if part[i] < '0' || part[i] > '9' {
				return 0, false
			}
			v = v*10 + int64(part[i]-'0')
		}
	}
	for i := len(frac); i < 2; i++ {
		v *= 10
	}
	return v, v <= maxMoney
}

// MinorFromInteger parses a minor-unit amount, which must be whole.
func MinorFromInteger(n json.Number, field string) (int64, error) {
	s := string(n)
	if s == "" {
		return 0, nil
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok || !r.IsInt() {
		return 0, Errorf(EINVALID, "%s: must be a whole number of minor units", field)
	}
	return boundedMoney(r.Num(), field)
}

func boundedMoney(v *big.Int, field string) (int64, error) {
	if !v.IsInt64() || v.Int64() < 0 || v.Int64() > maxMoney {
		return 0, Errorf(EINVALID, "%s: must be between 0 and %d", field, maxMoney)
	}
	return v.Int64(), nil
}

// MajorNumber renders minor units as a major-unit JSON number.
func MajorNumber(minor int64) json.Number {
	return json.Number(strconv.FormatFloat(float64(minor)/100, 'f', -1, 64))
}

// MinorNumber renders minor units as a JSON number.
func MinorNumber(minor int64) json.Number { return json.Number(strconv.FormatInt(minor, 10)) }

// lineAmount is price × quantity, rounded to a minor unit.
func lineAmount(price int64, qty float64) int64 { return int64(math.Round(float64(price) * qty)) }
