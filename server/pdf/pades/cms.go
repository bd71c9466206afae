package pades

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"fmt"
	"math/big"
	"sort"
)

// The CMS (RFC 5652) is written here rather than by a CMS library: the
// pkcs7 libraries usable with our Go version always add a signing-time
// attribute of time.Now(), which PAdES baseline forbids and which would make
// every seal different.

var (
	oidData                 = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 7, 1}
	oidSignedData           = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 7, 2}
	oidTSTInfo              = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 16, 1, 4}
	oidContentType          = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 3}
	oidMessageDigest        = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 4}
	oidSigningCertV2        = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 16, 2, 47}
	oidSignatureStamp       = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 16, 2, 14}
	oidSHA256               = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 1}
	oidSHA384               = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 2}
	oidSHA512               = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 3}
	oidRSA                  = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 1}
	oidRSAPSS               = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 10}
	oidSHA256WithRSA        = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 11}
	oidSHA384WithRSA        = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 12}
	oidSHA512WithRSA        = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 13}
	oidECDSAWithSHA256      = asn1.ObjectIdentifier{1, 2, 840, 10045, 4, 3, 2}
	oidECDSAWithSHA384      = asn1.ObjectIdentifier{1, 2, 840, 10045, 4, 3, 3}
	oidECDSAWithSHA512      = asn1.ObjectIdentifier{1, 2, 840, 10045, 4, 3, 4}
	oidECPublicKey          = asn1.ObjectIdentifier{1, 2, 840, 10045, 2, 1}
	contextCompound    byte = 0xA0 // [n] IMPLICIT, constructed: 0xA0 | n
)

type contentInfo struct {
	ContentType asn1.ObjectIdentifier
	Content     asn1.RawValue `asn1:"explicit,tag:0"`
}

type signedData struct {
	Version          int
	DigestAlgorithms []pkix.AlgorithmIdentifier `asn1:"set"`
	EncapContent     encapContent
	Certificates     asn1.RawValue `asn1:"optional,tag:0"`
	CRLs             asn1.RawValue `asn1:"optional,tag:1"`
	SignerInfos      []signerInfo  `asn1:"set"`
}

type encapContent struct {
	Type    asn1.ObjectIdentifier
	Content []byte `asn1:"optional,explicit,tag:0"`
}

type signerInfo struct {
	Version            int
	SID                asn1.RawValue // issuerAndSerialNumber, or [0] subjectKeyIdentifier
	DigestAlgorithm    pkix.AlgorithmIdentifier
	SignedAttrs        asn1.RawValue `asn1:"optional,tag:0"`
	SignatureAlgorithm pkix.AlgorithmIdentifier
	Signature          []byte
	UnsignedAttrs      asn1.RawValue `asn1:"optional,tag:1"`
}

type issuerAndSerial struct {
	Issuer asn1.RawValue
	Serial *big.Int
}

type attribute struct {
	Type   asn1.ObjectIdentifier
	Values asn1.RawValue // SET OF values
}

// essCertIDv2 leaves out hashAlgorithm: SHA-256 is its DER default.
type essCertIDv2 struct {
	Hash         []byte
	IssuerSerial struct {
		Issuer []asn1.RawValue // GeneralNames: one [4] directoryName
		Serial *big.Int
	}
}

type signingCertificateV2 struct {
	Certs []essCertIDv2
}

// tlv writes one DER element with the given identifier octet.
func tlv(tag byte, content []byte) []byte {
	n := len(content)
	out := []byte{tag}
	switch {
	case n < 0x80:
		out = append(out, byte(n))
	case n < 0x100:
		out = append(out, 0x81, byte(n))
	case n < 0x10000:
		out = append(out, 0x82, byte(n>>8), byte(n))
	default:
		out = append(out, 0x83, byte(n>>16), byte(n>>8), byte(n))
	}
	return append(out, content...)
}

// attr encodes an attribute with one value.
func attr(oid asn1.ObjectIdentifier, value []byte) ([]byte, error) {
	return asn1.Marshal(attribute{Type: oid, Values: asn1.RawValue{FullBytes: tlv(0x31, value)}})
}

// setOf sorts DER encodings as a SET OF requires and joins them.
func setOf(elems [][]byte) []byte {
	sort.Slice(elems, func(i, j int) bool { return bytes.Compare(elems[i], elems[j]) < 0 })
	return bytes.Join(elems, nil)
}

// signedAttributes returns the content of the signed attributes SET:
// content type, message digest and the ESS signing-certificate-v2.
func signedAttributes(digest []byte, cert *x509.Certificate) ([]byte, error) {
	ct, err := asn1.Marshal(oidData)
	if err != nil {
		return nil, err
	}
	md, err := asn1.Marshal(digest)
	if err != nil {
		return nil, err
	}
	certHash := sha256.Sum256(cert.Raw)
	id := essCertIDv2{Hash: certHash[:]}
	id.IssuerSerial.Issuer = []asn1.RawValue{{FullBytes: tlv(contextCompound|4, cert.RawIssuer)}}
	id.IssuerSerial.Serial = cert.SerialNumber
	sc, err := asn1.Marshal(signingCertificateV2{Certs: []essCertIDv2{id}})
	if err != nil {
		return nil, err
	}
	var elems [][]byte
	for _, a := range []struct {
		oid asn1.ObjectIdentifier
		v   []byte
	}{{oidContentType, ct}, {oidMessageDigest, md}, {oidSigningCertV2, sc}} {
		e, err := attr(a.oid, a.v)
		if err != nil {
			return nil, err
		}
		elems = append(elems, e)
	}
	return setOf(elems), nil
}

// signatureAlgorithm names how key signs a SHA-256 digest.
func signatureAlgorithm(key crypto.Signer) (pkix.AlgorithmIdentifier, error) {
	switch key.Public().(type) {
	case *rsa.PublicKey:
		return pkix.AlgorithmIdentifier{Algorithm: oidRSA, Parameters: asn1.NullRawValue}, nil
	case *ecdsa.PublicKey:
		return pkix.AlgorithmIdentifier{Algorithm: oidECDSAWithSHA256}, nil
	}
	return pkix.AlgorithmIdentifier{}, fmt.Errorf("pades: seal key must be RSA or ECDSA, not %T", key.Public())
}

// signAttributes signs the DER SET of the signed attributes. A nil random
// source makes both signatures deterministic: PKCS #1 v1.5 always is, and
// ECDSA then follows RFC 6979.
func signAttributes(key crypto.Signer, attrs []byte) ([]byte, error) {
	h := sha256.Sum256(tlv(0x31, attrs))
	return key.Sign(nil, h[:], crypto.SHA256)
}

// buildCMS assembles the detached SignedData with the chain, the signed
// attributes, their signature and, when given, a signature time-stamp.
func buildCMS(chain []*x509.Certificate, key crypto.Signer, attrs, sig, stamp []byte) ([]byte, error) {
	alg, err := signatureAlgorithm(key)
	if err != nil {
		return nil, err
	}
	sid, err := asn1.Marshal(issuerAndSerial{Issuer: asn1.RawValue{FullBytes: chain[0].RawIssuer}, Serial: chain[0].SerialNumber})
	if err != nil {
		return nil, err
	}
	var certs []byte
	for _, c := range chain {
		certs = append(certs, c.Raw...)
	}
	si := signerInfo{
		Version:            1,
		SID:                asn1.RawValue{FullBytes: sid},
		DigestAlgorithm:    pkix.AlgorithmIdentifier{Algorithm: oidSHA256},
		SignedAttrs:        asn1.RawValue{FullBytes: tlv(contextCompound, attrs)},
		SignatureAlgorithm: alg,
		Signature:          sig,
	}
	if stamp != nil {
		a, err := attr(oidSignatureStamp, stamp)
		if err != nil {
			return nil, err
		}
		si.UnsignedAttrs = asn1.RawValue{FullBytes: tlv(contextCompound|1, a)}
	}
	sd, err := asn1.Marshal(signedData{
		Version:          1,
		DigestAlgorithms: []pkix.AlgorithmIdentifier{{Algorithm: oidSHA256}},
		EncapContent:     encapContent{Type: oidData},
		Certificates:     asn1.RawValue{FullBytes: tlv(contextCompound, certs)},
		SignerInfos:      []signerInfo{si},
	})
	if err != nil {
		return nil, err
	}
	return asn1.Marshal(contentInfo{ContentType: oidSignedData, Content: asn1.RawValue{FullBytes: tlv(contextCompound, sd)}})
}
