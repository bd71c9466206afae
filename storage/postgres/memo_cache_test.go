package postgres

import (
	"strconv"
	"testing"
)

// The memo cache stays within its bytes; a contract's memos of one stamp
// are kept together, and a new stamp replaces them.
func TestMemoCacheBounds(t *testing.T) {
	mc := newMemoCache(64 << 10)
	for i := range 1000 {
		mc.keep("c"+strconv.Itoa(i), "s", memo{name: "m", v: i, size: 1000})
		if mc.size > mc.max {
			t.Fatalf("after %d memos the cache counts %d bytes, over its %d", i+1, mc.size, mc.max)
		}
	}
	n := 0
	for id, e := range mc.items {
		n += e.weight(id)
	}
	if n != mc.size {
		t.Fatalf("the cache counts %d bytes, its entries weigh %d", mc.size, n)
	}
	mc.keep("x", "s1", memo{name: "a", v: 1, size: 10})
	mc.keep("x", "s1", memo{name: "b", v: 2, size: 10})
	mc.keep("x", "s1", memo{name: "a", v: 3, size: 10})
	if e, _ := mc.get("x"); len(e.memos) != 2 || e.find("a").v != 3 || e.find("b").v != 2 {
		t.Fatalf("memos of one stamp: %+v", e.memos)
	}
	mc.keep("x", "s2", memo{name: "a", v: 4, size: 10})
	if e, _ := mc.get("x"); e.stamp != "s2" || len(e.memos) != 1 || e.find("b") != nil {
		t.Fatalf("a new stamp kept the old memos: %+v", e)
	}
}
