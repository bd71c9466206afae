package pades

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"strings"
)

// Identity is what seals: a certificate chain, the seal certificate first,
// and its private key (RSA of at least 2048 bits, or ECDSA on P-256, P-384
// or P-521).
type Identity struct {
	Chain []*x509.Certificate
	Key   crypto.Signer
}

// Certificate is the seal certificate itself.
func (id *Identity) Certificate() *x509.Certificate { return id.Chain[0] }

// Fingerprint is the SHA-256 of the seal certificate, as
// `openssl x509 -noout -fingerprint -sha256` prints it (AB:CD:...).
func (id *Identity) Fingerprint() string { return Fingerprint(id.Certificate()) }

// Fingerprint is the SHA-256 of a certificate in colon-separated hex.
func Fingerprint(c *x509.Certificate) string {
	sum := sha256.Sum256(c.Raw)
	var b strings.Builder
	for i, v := range sum {
		if i > 0 {
			b.WriteByte(':')
		}
		fmt.Fprintf(&b, "%02X", v)
	}
	return b.String()
}

// LoadIdentity reads a PEM certificate file (the chain may follow the seal
// certificate, in any order) and a PEM key file.
func LoadIdentity(certFile, keyFile string) (*Identity, error) {
	certPEM, err := os.ReadFile(certFile)
	if err != nil {
		return nil, fmt.Errorf("seal certificate: %w", err)
	}
	keyPEM, err := os.ReadFile(keyFile)
	if err != nil {
		return nil, fmt.Errorf("seal key: %w", err)
	}
	id, err := ParseIdentity(certPEM, keyPEM)
	if err != nil {
		return nil, fmt.Errorf("%s, %s: %w", certFile, keyFile, err)
	}
	return id, nil
}

// ParseIdentity reads PEM certificates and a PEM private key (PKCS #1,
// PKCS #8 or SEC 1). The certificate whose public key matches the key
// comes first in the chain; the others follow in their order.
func ParseIdentity(certPEM, keyPEM []byte) (*Identity, error) {
	key, err := parseKey(keyPEM)
	if err != nil {
		return nil, err
	}
	var leaf *x509.Certificate
	var rest []*x509.Certificate
	for b, more := pem.Decode(certPEM); b != nil; b, more = pem.Decode(more) {
		if b.Type != "CERTIFICATE" {
			continue
		}
		c, err := x509.ParseCertificate(b.Bytes)
		if err != nil {
			return nil, fmt.Errorf("seal certificate: %w", err)
		}
		if leaf == nil && samePublicKey(c.PublicKey, key.Public()) {
			leaf = c
		} else {
			rest = append(rest, c)
		}
	}
	if leaf == nil && len(rest) == 0 {
		return nil, errors.New("seal certificate: no PEM CERTIFICATE block")
	}
	if leaf == nil {
		return nil, errors.New("seal certificate: none matches the seal key")
	}
	return &Identity{Chain: append([]*x509.Certificate{leaf}, rest...), Key: key}, nil
}

// parseKey reads the first private key block of keyPEM.
func parseKey(keyPEM []byte) (crypto.Signer, error) {
	for b, more := pem.Decode(keyPEM); b != nil; b, more = pem.Decode(more) {
		var key any
		var err error
		switch b.Type {
		case "RSA PRIVATE KEY":
			key, err = x509.ParsePKCS1PrivateKey(b.Bytes)
		case "EC PRIVATE KEY":
			key, err = x509.ParseECPrivateKey(b.Bytes)
		case "PRIVATE KEY":
			key, err = x509.ParsePKCS8PrivateKey(b.Bytes)
		case "ENCRYPTED PRIVATE KEY":
			return nil, errors.New("seal key: encrypted keys are not supported; store it unencrypted with mode 0600")
		default:
			continue // e.g. EC PARAMETERS before the key
		}
		if err != nil {
			return nil, fmt.Errorf("seal key: %w", err)
		}
		return checkKey(key)
	}
	return nil, errors.New("seal key: no PEM private key block")
}

// checkKey accepts the keys a PAdES reader verifies and we sign
// deterministically with.
func checkKey(key any) (crypto.Signer, error) {
	switch k := key.(type) {
	case *rsa.PrivateKey:
		if k.N.BitLen() < 2048 {
			return nil, fmt.Errorf("seal key: RSA key of %d bits; at least 2048 are needed", k.N.BitLen())
		}
		return k, nil
	case *ecdsa.PrivateKey:
		switch k.Curve.Params().Name {
		case "P-256", "P-384", "P-521":
			return k, nil
		}
		return nil, fmt.Errorf("seal key: ECDSA curve %s is not supported", k.Curve.Params().Name)
	}
	return nil, fmt.Errorf("seal key: %T keys are not supported; use RSA or ECDSA", key)
}

func samePublicKey(a, b crypto.PublicKey) bool {
	k, ok := a.(interface{ Equal(crypto.PublicKey) bool })
	return ok && k.Equal(b)
}
