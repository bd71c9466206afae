package secretbox

import (
	"bytes"
	"testing"
)

func TestSecretBoxRoundTripAndTamper(t *testing.T) {
	b, err := New(bytes.Repeat([]byte("k"), 32))
	if err != nil {
		t.Fatal(err)
	}
	enc, err := b.Encrypt([]byte("whsec_abc"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(enc, []byte("whsec_abc")) {
		t.Fatal("plain text visible in encrypted bytes")
	}
	got, err := b.Decrypt(enc)
	if err != nil || string(got) != "whsec_abc" {
		t.Fatalf("Decrypt = %q, %v", got, err)
	}
	enc[len(enc)-1] ^= 1
	if _, err := b.Decrypt(enc); err == nil {
		t.Fatal("tampered box opened")
	}
	other, _ := New(bytes.Repeat([]byte("x"), 32))
	enc[len(enc)-1] ^= 1
	if _, err := other.Decrypt(enc); err == nil {
		t.Fatal("opened with another key")
	}
	if _, err := New([]byte("short")); err == nil {
		t.Fatal("short key accepted")
	}
}
