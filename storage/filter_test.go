package storage

import "testing"

// The list filter matches an entry's fields without copying them, however
// long (a template id is 36 bytes).
func TestContainsBytesAllocatesNothing(t *testing.T) {
	list := []string{"3f0e9c52-5d7e-4c1b-9a63-0d8b2f1c7e41", "7a1d4b90-2c3e-4f5a-8b6c-9d0e1f2a3b4c"}
	hit, miss := []byte(list[1]), []byte("7a1d4b90-2c3e-4f5a-8b6c-9d0e1f2a3b4d")
	var found, missed bool
	if n := testing.AllocsPerRun(100, func() { found, missed = containsBytes(list, hit), containsBytes(list, miss) }); n != 0 {
		t.Fatalf("%v allocations a call", n)
	}
	if !found || missed {
		t.Fatalf("found %v, missed %v", found, missed)
	}
}
