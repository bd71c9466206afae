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

// Box encrypts and decrypts with one key.
type Box struct{ aead cipher.AEAD }

// New derives an AES-256 key from the master key text.
func New(masterKey []byte) (*Box, error) {
	if len(masterKey) < 32 {
		return nil, errors.New("secretbox: master key shorter than 32 bytes")
	}
	// The label is part of the stored format: every secret written so far
	// opens only with a key derived under it.
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

// Encrypt returns nonce || ciphertext.
func (b *Box) Encrypt(plain []byte) ([]byte, error) {
	nonce := make([]byte, b.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return nil, err
	}
	return b.aead.Seal(nonce, nonce, plain, nil), nil
}

// Decrypt reverses Encrypt; a wrong key or altered bytes fail.
func (b *Box) Decrypt(enc []byte) ([]byte, error) {
	n := b.aead.NonceSize()
	if len(enc) < n {
		return nil, errors.New("secretbox: too short")
	}
	return b.aead.Open(nil, enc[:n], enc[n:], nil)
}
