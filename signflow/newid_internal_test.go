package signflow

import (
	"math/rand/v2"
	"testing"

	"github.com/google/uuid"
)

// TestNewIDIsUUIDv4 holds NewID to uuid.NewString's form: a version 4,
// RFC 4122 UUID that uuid.Parse reads back to the same text, and uuidText
// to uuid.UUID.String for any bytes.
func TestNewIDIsUUIDv4(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		id := NewID()
		u, err := uuid.Parse(id)
		if err != nil || u.Version() != 4 || u.Variant() != uuid.RFC4122 || u.String() != id {
			t.Fatalf("NewID() = %q: parsed %v, version %d, variant %v, %v", id, u, u.Version(), u.Variant(), err)
		}
		if seen[id] {
			t.Fatalf("NewID() gave %q twice", id)
		}
		seen[id] = true
	}
	r := rand.New(rand.NewPCG(5, 6))
	for range 1000 {
		var u [16]byte
		for i := range u {
			u[i] = byte(r.Uint32())
		}
		if got, want := uuidText(&u), uuid.UUID(u).String(); got != want {
			t.Fatalf("uuidText(%x) = %s; uuid: %s", u, got, want)
		}
	}
}
