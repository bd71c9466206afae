// Package pades seals PDFs with a PAdES baseline signature (ETSI EN 319
// 142-1, B-B, or B-T with a time-stamp authority) and verifies seals.
//
// A seal is an incremental update appended to the PDF as it was rendered:
// a signature field on page 1 in a new AcroForm, an Info dictionary naming
// the contract and version, the attachments, and the signature dictionary
// whose /ByteRange covers the whole file but the signature itself. The
// signature is a detached CMS (SHA-256) with the ESS signing-certificate-v2
// attribute and no signing time (the dictionary's /M carries it).
//
// The same document, time and attachments always give the same bytes: the
// update holds nothing random, RSA PKCS #1 v1.5 signatures are
// deterministic and ECDSA ones are made per RFC 6979. Only a time-stamp
// token differs from one request to the next; keep tokens in a Stamps
// store to reuse them.
package pades

import (
	"context"
	"crypto/ecdsa"
	"crypto/rsa"
	"crypto/x509"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Document is what Seal needs.
type Document struct {
	PDF         []byte    // the rendered PDF; it needs a classic xref table, as gopdf writes
	SigningTime time.Time // the seal's /M: the time of the contract's last change
	Contract    Contract
	Attachments []Attachment
}

// Contract says which contract and version a sealed file is; it is written
// into the Info dictionary, under the signature.
type Contract struct {
	ID      string
	Number  string
	Version int64
}

// Attachment is a file embedded in the sealed PDF.
type Attachment struct {
	Name         string // file name shown by readers, e.g. "audit.json"
	MIME         string // e.g. "application/json"; empty: none given
	Description  string
	Relationship string // AFRelationship: Supplement when empty; Data, Source, Alternative or Unspecified
	Data         []byte
}

// stampRoom is what the signature placeholder keeps for a time-stamp token:
// a token with its authority's certificates is usually 3 to 8 KB.
const stampRoom = 16 << 10

// Sealer seals PDFs with one identity. It is safe for concurrent use.
type Sealer struct {
	id     *Identity
	tsa    *TSA
	stamps Stamps
	room   int // bytes of CMS the placeholder holds
}

// NewSealer returns a sealer. tsa nil makes B-B seals; otherwise each seal
// carries a signature time-stamp (B-T). stamps may be nil: then every seal
// asks the authority for a new token and is different bytes.
func NewSealer(id *Identity, tsa *TSA, stamps Stamps) (*Sealer, error) {
	if id == nil || len(id.Chain) == 0 || id.Key == nil {
		return nil, errors.New("pades: no seal identity")
	}
	if _, err := checkKey(id.Key); err != nil {
		return nil, err
	}
	if !samePublicKey(id.Chain[0].PublicKey, id.Key.Public()) {
		return nil, errors.New("pades: the seal certificate does not match the key")
	}
	if tsa != nil && !strings.HasPrefix(tsa.URL, "http://") && !strings.HasPrefix(tsa.URL, "https://") {
		return nil, fmt.Errorf("pades: time-stamp authority URL %q is not http(s)", tsa.URL)
	}
	s := &Sealer{id: id, tsa: tsa, stamps: stamps}
	// Size the placeholder for the largest signature the key can make.
	attrs, err := signedAttributes(make([]byte, 32), id.Chain[0])
	if err != nil {
		return nil, err
	}
	probe, err := buildCMS(id.Chain, id.Key, attrs, make([]byte, maxSignature(id.Key)), nil)
	if err != nil {
		return nil, err
	}
	s.room = len(probe) + 64
	if tsa != nil {
		s.room += stampRoom
	}
	return s, nil
}

// maxSignature is the longest signature key makes: the modulus for RSA, a
// DER pair of integers for ECDSA.
func maxSignature(key any) int {
	switch k := key.(type) {
	case *rsa.PrivateKey:
		return k.Size()
	case *ecdsa.PrivateKey:
		n := (k.Curve.Params().BitSize + 7) / 8
		return 2*(n+3) + 3
	}
	return 1024
}

// Identity is the sealer's certificate and key.
func (s *Sealer) Identity() *Identity { return s.id }

// Certificate is the seal certificate, for a Verifier.
func (s *Sealer) Certificate() *x509.Certificate { return s.id.Chain[0] }

// Seal returns d.PDF with the seal appended. With a time-stamp authority,
// an error wrapping ErrTimestamp means the authority failed: nothing may be
// served then.
func (s *Sealer) Seal(ctx context.Context, d Document) ([]byte, error) {
	if d.SigningTime.IsZero() {
		return nil, errors.New("pades: no signing time")
	}
	u, err := planUpdate(d)
	if err != nil {
		return nil, err
	}
	out, hole := u.write(d, s.room)
	digest := sha256Ranges(out[:hole[0]], out[hole[1]:])
	attrs, err := signedAttributes(digest, s.id.Chain[0])
	if err != nil {
		return nil, err
	}
	sig, err := signAttributes(s.id.Key, attrs)
	if err != nil {
		return nil, fmt.Errorf("pades: signing: %w", err)
	}
	var token []byte
	if s.tsa != nil {
		if token, err = s.stamp(ctx, sig); err != nil {
			return nil, err
		}
	}
	cms, err := buildCMS(s.id.Chain, s.id.Key, attrs, sig, token)
	if err != nil {
		return nil, err
	}
	if 2*len(cms) > hole[1]-hole[0]-2 {
		if token != nil {
			return nil, fmt.Errorf("%w: a token of %d bytes does not fit the %d reserved", ErrTimestamp, len(token), stampRoom)
		}
		return nil, fmt.Errorf("pades: signature of %d bytes does not fit the %d reserved", len(cms), s.room)
	}
	putHex(out[hole[0]+1:], cms)
	return out, nil
}

// stamp returns a token over sig: the one kept for it, or a new one.
func (s *Sealer) stamp(ctx context.Context, sig []byte) ([]byte, error) {
	key := sha256Sum(sig)
	if s.stamps != nil {
		token, err := s.stamps.Stamp(ctx, key)
		if err != nil {
			return nil, fmt.Errorf("pades: reading kept time-stamp: %w", err)
		}
		if token != nil {
			if _, err := verifyToken(token, sig); err == nil {
				return token, nil
			}
		}
	}
	token, err := s.tsa.stamp(ctx, sig)
	if err != nil {
		return nil, err
	}
	if s.stamps != nil {
		if err := s.stamps.SaveStamp(ctx, key, token); err != nil {
			return nil, fmt.Errorf("pades: keeping time-stamp: %w", err)
		}
	}
	return token, nil
}

// putHex writes b as hex digits into dst.
func putHex(dst, b []byte) {
	const digits = "0123456789abcdef"
	for i, v := range b {
		dst[2*i], dst[2*i+1] = digits[v>>4], digits[v&15]
	}
}
