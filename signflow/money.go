package signflow

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// MaxMoney is the largest money value, in minor units, anywhere in a
// contract: a price, an initial payment, a payment, a product line (price ×
// quantity) and the sum of the products or of the payments. 10^15 minor
// units (ten trillion in major units) leave int64 headroom for every sum a
// page or a PDF makes (9,000 such values), and float64 holds every value up
// to it exactly.
const MaxMoney = int64(1e15)

// maxMoneyText states MaxMoney for both interfaces' callers, who speak
// major and minor units.
var maxMoneyText = fmt.Sprintf("%d.00 (%d in minor units)", MaxMoney/100, MaxMoney)

// MaxNumberLen is the longest text of a money number accepted. Longer
// numbers, and numbers with an exponent, are refused before any parsing:
// exact decimal parsing of a megabyte of digits takes seconds of CPU.
const MaxNumberLen = 24

// MinorFromMajor parses a major-unit decimal with at most two fraction
// digits ("1500", "1500.5", "1500.25") into minor units.
func MinorFromMajor(n json.Number, field string) (int64, error) {
	s := string(n)
	if s == "" {
		return 0, nil
	}
	if err := plainNumber(s, field); err != nil {
		return 0, err
	}
	if v, ok := plainMinor(s); ok {
		return v, nil
	}
	return exactMinor(s, field)
}

// exactMinor is MinorFromMajor's plain path: an exact decimal, times 100.
func exactMinor(s, field string) (int64, error) {
	r, ok := new(big.Rat).SetString(s)
	if !ok || !r.Mul(r, big.NewRat(100, 1)).IsInt() {
		return 0, Errorf(EINVALID, "%s: must be a number with at most 2 decimal places", field)
	}
	return boundedMoney(r.Num(), field)
}

// MinorFromInteger parses a minor-unit amount, which must be whole.
func MinorFromInteger(n json.Number, field string) (int64, error) {
	s := string(n)
	if s == "" {
		return 0, nil
	}
	if err := plainNumber(s, field); err != nil {
		return 0, err
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok || !r.IsInt() {
		return 0, Errorf(EINVALID, "%s: must be a whole number of minor units", field)
	}
	return boundedMoney(r.Num(), field)
}

// plainNumber refuses, by its text alone, a number too long or written
// with an exponent; it runs before any parsing.
func plainNumber(s, field string) error {
	if len(s) > MaxNumberLen || strings.ContainsAny(s, "eE") {
		return Errorf(EINVALID, "%s: must be a plain number of at most %d characters, without an exponent", field, MaxNumberLen)
	}
	return nil
}

// plainMinor is the fast path of MinorFromMajor for the usual form
// "123", "123.4" or "123.45" within the money bound; anything else (signs,
// more digits) goes the exact way (exactMinor). It saves a create of a
// typical contract 86 of its 455 allocations (five amounts); held equal to
// exactMinor by TestPlainMinorIsExactMinor.
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
	return v, v <= MaxMoney
}

func boundedMoney(v *big.Int, field string) (int64, error) {
	if !v.IsInt64() {
		return 0, errMoneyRange(field)
	}
	return v.Int64(), checkMoney(v.Int64(), field)
}

// checkMoney refuses an amount outside 0 to MaxMoney, whatever its source.
func checkMoney(v int64, field string) error {
	if v < 0 || v > MaxMoney {
		return errMoneyRange(field)
	}
	return nil
}

// checkLineMoney is checkMoney of list[i].field, whose name is written
// only for the error (a create checks three amounts or more).
func checkLineMoney(v int64, list string, i int, field string) error {
	if v < 0 || v > MaxMoney {
		return errMoneyRange(fmt.Sprintf("%s[%d].%s", list, i, field))
	}
	return nil
}

func errMoneyRange(field string) error {
	return Errorf(EINVALID, "%s: must be between 0 and %s", field, maxMoneyText)
}

// MajorNumber renders minor units as a major-unit JSON number.
func MajorNumber(minor int64) json.Number {
	var buf [32]byte
	return json.Number(AppendMajor(buf[:0], minor))
}

// AppendMajor appends minor units as the major-unit number MajorNumber
// renders, for JSON written by hand: whole units, then the cents without
// trailing zeros, in integers only.
func AppendMajor(b []byte, minor int64) []byte {
	if minor < 0 {
		b, minor = append(b, '-'), -minor
	}
	b = strconv.AppendInt(b, minor/100, 10)
	if cents := minor % 100; cents != 0 {
		b = append(b, '.', byte('0'+cents/10))
		if cents%10 != 0 {
			b = append(b, byte('0'+cents%10))
		}
	}
	return b
}

// MinorNumber renders minor units as a JSON number.
func MinorNumber(minor int64) json.Number { return json.Number(strconv.FormatInt(minor, 10)) }

// lineAmount is price × quantity, rounded to a minor unit; ok is false when
// it exceeds MaxMoney (the product is computed in float64, where a price up
// to MaxMoney times a quantity below 10^9 cannot overflow).
func lineAmount(price int64, qty float64) (int64, bool) {
	v := math.Round(float64(price) * qty)
	if !(v >= 0 && v <= float64(MaxMoney)) {
		return 0, false
	}
	return int64(v), true
}
