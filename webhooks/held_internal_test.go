package webhooks

import (
	"testing"

	"contracts/signflow"
)

// Of a target's claimed rows, bound go to the workers and the rest wait,
// oldest first, each handed to the worker whose attempt of the target
// ends; a claim is asked for more when the waiting rows run out, or when
// an attempt ends with bound in flight and none waiting. Another target
// is counted apart.
func TestHeldRowsWaitBeyondTheBound(t *testing.T) {
	h := heldRows{n: map[string]int{}, wait: map[string][]*signflow.Delivery{}}
	row := func(target, id string) *signflow.Delivery { return &signflow.Delivery{ID: id, Target: target} }
	for i, id := range []string{"a1", "a2", "a3", "a4"} {
		if now := h.add(row("A", id), 2); now != (i < 2) {
			t.Fatalf("%s goes out now: %v", id, now)
		}
	}
	if !h.add(row("B", "b1"), 2) {
		t.Fatal("another target's row waits behind A")
	}
	if h.snapshot()["A"] != 4 || h.snapshot()["B"] != 1 {
		t.Fatalf("held %v, want A 4 and B 1", h.snapshot())
	}
	for _, want := range []struct {
		next string
		more bool
	}{{"a3", false}, {"a4", true}, {"", true}, {"", false}} {
		next, more := h.attempted("A", 2)
		got := ""
		if next != nil {
			got = next.ID
		}
		if got != want.next || more != want.more {
			t.Fatalf("attempt ended: next %q, claim more %v; want %q, %v", got, more, want.next, want.more)
		}
	}
	if len(h.n) != 1 || len(h.wait) != 0 {
		t.Fatalf("left held %v, waiting %v; want B only", h.n, h.wait)
	}
	// Without a bound nothing waits.
	for range 5 {
		if !h.add(row("C", "c"), -1) {
			t.Fatal("a row waits with no bound")
		}
	}
	if next, more := h.attempted("C", -1); next != nil || more {
		t.Fatalf("no bound: next %v, claim more %v", next, more)
	}
}
