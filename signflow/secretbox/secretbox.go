// Package secretbox encrypts small secrets that must be read back (webhook
// secrets) with AES-256-GCM under the appliance's master key.
package secretbox

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"errors"
)

// Box seals and opens with one key.
type Box struct{ aead cipher.AEAD }

// New derives an AES-256 key from the master key text.
func New(masterKey []byte) (*Box, error) {
	if len(masterKey) < 32 {
		return nil, errors.New("seal: master key shorter than 32 bytes")
	}
	k := sha256.Sum256(append([]byte("contracts seal v1\x00"), masterKey...))
	block, err := aes.NewCipher(k[:])
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &Box{aead: aead}, nil
}

// Seal returns nonce || ciphertext.
func (b *Box) Seal(plain []byte) ([]byte, error) {
	nonce := make([]byte, b.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return nil, err
	}
	return b.aead.Seal(nonce, nonce, plain, nil), nil
}

// Open reverses Seal; a wrong key or altered bytes fail.
func (b *Box) Open(sealed []byte) ([]byte, error) {
	n := b.aead.NonceSize()
	if len(sealed) < n {
		return nil, errors.New("seal: too short")
	}
	return b.aead.Open(nil, sealed[:n], sealed[n:], nil)
}
