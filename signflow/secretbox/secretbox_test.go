package secretbox

import (
	"bytes"
	"testing"
)

func TestSealRoundTripAndTamper(t *testing.T) {
	b, err := New(bytes.Repeat([]byte("k"), 32))
	if err != nil {
		t.Fatal(err)
	}
	sealed, err := b.Seal([]byte("whsec_abc"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(sealed, []byte("whsec_abc")) {
		t.Fatal("plain text visible in sealed bytes")
	}
	got, err := b.Open(sealed)
	if err != nil || string(got) != "whsec_abc" {
		t.Fatalf("Open = %q, %v", got, err)
	}
	sealed[len(sealed)-1] ^= 1
	if _, err := b.Open(sealed); err == nil {
		t.Fatal("tampered box opened")
	}
	other, _ := New(bytes.Repeat([]byte("x"), 32))
	sealed[len(sealed)-1] ^= 1
	if _, err := other.Open(sealed); err == nil {
		t.Fatal("opened with another key")
	}
	if _, err := New([]byte("short")); err == nil {
		t.Fatal("short key accepted")
	}
}
