package secretbox

import (
	"bytes"
	"encoding/hex"
	"testing"
)

// A secret encrypted by the package when it was signflow/seal (its Seal,
// master key 32 × "k") still opens: the stored format is unchanged.
func TestSecretBoxOpensSecretsStoredBefore(t *testing.T) {
	old, _ := hex.DecodeString("725f2486133e3f2936251cf740247f3f6935125f7749d65389f5e92574a336e1c8e0c8308e120d258de06871546874454e18")
	b, err := New(bytes.Repeat([]byte("k"), 32))
	if err != nil {
		t.Fatal(err)
	}
	got, err := b.Decrypt(old)
	if err != nil || string(got) != "whsec_0123456789abcdef" {
		t.Fatalf("Decrypt = %q, %v", got, err)
	}
}
