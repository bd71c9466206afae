// Package recordtest fills values at random for the tests that hold the
// hand-written record encoders (storage/record) and their users to
// encoding/json.
package recordtest

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"time"
)

var texts = []string{"", "a", "Ўзбек тили", "<script>&amp;", "\"quoted\\", "\x00\x1f\t\n\r\b\f", "\xff\xfe bad", "\u2028\u2029", "😀", "\x7f", "a\u00e9b"}

// Fill sets v to a random value of its type, every exported field of a
// struct filled (so a field added to a type is covered at once), often
// with text JSON escapes, times json.Marshal refuses and odd numbers.
func Fill(r *rand.Rand, v reflect.Value) { fill(r, v, 0) }

func fill(r *rand.Rand, v reflect.Value, depth int) {
	if v.Type() == reflect.TypeFor[time.Time]() {
		v.Set(reflect.ValueOf(randomTime(r)))
		return
	}
	switch v.Kind() {
	case reflect.String:
		s := ""
		for range r.IntN(3) {
			s += texts[r.IntN(len(texts))]
		}
		v.SetString(s)
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 0)
	case reflect.Int, reflect.Int32, reflect.Int64:
		n := []int64{0, 1, -1, r.Int64N(1 << 40), math.MaxInt32, math.MinInt32}[r.IntN(6)]
		if v.Kind() == reflect.Int32 {
			n = int64(int32(n))
		}
		v.SetInt(n)
	case reflect.Uint64:
		v.SetUint([]uint64{0, 1, math.MaxUint64, r.Uint64()}[r.IntN(4)])
	case reflect.Float64:
		v.SetFloat(randomFloat(r))
	case reflect.Pointer:
		if r.IntN(4) == 0 || depth > 4 {
			return
		}
		p := reflect.New(v.Type().Elem())
		fill(r, p.Elem(), depth+1)
		v.Set(p)
	case reflect.Slice:
		switch r.IntN(4) {
		case 0:
			return // nil
		case 1:
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
			return
		}
		s := reflect.MakeSlice(v.Type(), 1+r.IntN(3), 4)
		for i := range s.Len() {
			fill(r, s.Index(i), depth+1)
		}
		v.Set(s)
	case reflect.Map:
		if r.IntN(3) == 0 {
			return
		}
		m := reflect.MakeMap(v.Type())
		for range r.IntN(3) {
			k := reflect.New(v.Type().Key()).Elem()
			fill(r, k, depth+1)
			e := reflect.New(v.Type().Elem()).Elem()
			fill(r, e, depth+1)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Interface:
		var x any
		switch r.IntN(6) {
		case 0:
			x = texts[r.IntN(len(texts))]
		case 1:
			x = randomFloat(r)
		case 2:
			x = []any{"x", 2.5}
		case 3:
			x = r.IntN(2) == 0
		case 4:
			x = json.Number([]string{"12", "-0.5", "", "x"}[r.IntN(4)])
		}
		if x != nil {
			v.Set(reflect.ValueOf(x))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(r, v.Field(i), depth+1)
			}
		}
	}
}

func randomTime(r *rand.Rand) time.Time {
	t := time.Unix(r.Int64N(4e9), 0).UTC()
	switch r.IntN(400) {
	case 0:
		t = t.Add(time.Duration(r.IntN(1e9)))
	case 1:
		t = t.In(time.FixedZone("UZT", 5*3600))
	case 2:
		t = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
	case 3:
		t = time.Time{}
	}
	return t
}

func randomFloat(r *rand.Rand) float64 {
	switch r.IntN(10) {
	case 0:
		if r.IntN(50) == 0 {
			return math.NaN()
		}
		return -1e-300
	case 1:
		return 1e-7 * r.Float64()
	case 2:
		return 1e22 * r.Float64()
	case 3:
		return 0
	case 4:
		return -r.Float64()
	}
	return float64(r.IntN(1000)) + float64(r.IntN(100))/100
}
