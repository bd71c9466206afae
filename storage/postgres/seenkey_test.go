package postgres

import "testing"

// TestSeenKeys holds key1 and key2 to seenKey, whose names they spell in
// one allocation: a record noted by one is found by the other.
func TestSeenKeys(t *testing.T) {
	for _, k := range [][]string{{""}, {"301234567"}, {"a\x00b"}, {"", ""}, {"31234567890123", "301234567"}, {"ўз", "x y"}} {
		var got string
		if len(k) == 1 {
			got = owners.key1(k[0])
		} else {
			got = claims.key2(k[0], k[1])
		}
		tb, key := owners, []any{k[0]}
		if len(k) == 2 {
			tb, key = claims, []any{k[0], k[1]}
		}
		if want := tb.seenKey(key); got != want {
			t.Errorf("%q: %q; seenKey %q", k, got, want)
		}
	}
}
