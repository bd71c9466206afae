package pades

import (
	"bytes"
	"crypto"
	"crypto/subtle"
	"crypto/x509"
	"encoding/asn1"
	"errors"
	"fmt"
	"math/big"
	"time"
)

// Parsing is done with encoding/asn1 alone: the uploaded bytes are hostile,
// and the pkcs7 library usable here is known to panic on some malformed BER.

// parsedCMS is a SignedData with its one signer located.
type parsedCMS struct {
	sd     signedData
	si     signerInfo
	signer *x509.Certificate
	certs  []*x509.Certificate
}

// parseCMS decodes a ContentInfo holding a SignedData with one signer and
// finds the signer's certificate among the embedded ones. Trailing bytes
// are allowed only as zero padding.
func parseCMS(der []byte) (*parsedCMS, error) {
	var ci contentInfo
	rest, err := asn1.Unmarshal(der, &ci)
	if err != nil {
		return nil, fmt.Errorf("cms: %w", err)
	}
	if len(bytes.Trim(rest, "\x00")) != 0 {
		return nil, errors.New("cms: data after the signature")
	}
	if !ci.ContentType.Equal(oidSignedData) {
		return nil, errors.New("cms: not signed data")
	}
	p := &parsedCMS{}
	if rest, err := asn1.Unmarshal(ci.Content.Bytes, &p.sd); err != nil || len(rest) > 0 {
		return nil, errors.New("cms: malformed signed data")
	}
	if len(p.sd.SignerInfos) != 1 {
		return nil, errors.New("cms: one signer expected")
	}
	p.si = p.sd.SignerInfos[0]
	certs := p.sd.Certificates.Bytes
	for len(certs) > 0 && len(p.certs) < 16 {
		var raw asn1.RawValue
		rest, err := asn1.Unmarshal(certs, &raw)
		if err != nil {
			return nil, errors.New("cms: malformed certificate list")
		}
		c, err := x509.ParseCertificate(raw.FullBytes)
		if err != nil {
			return nil, fmt.Errorf("cms: %w", err)
		}
		p.certs, certs = append(p.certs, c), rest
	}
	p.signer = p.findSigner()
	if p.signer == nil {
		return nil, errors.New("cms: signer certificate missing")
	}
	return p, nil
}

// findSigner matches the signer identifier against the embedded certificates.
func (p *parsedCMS) findSigner() *x509.Certificate {
	sid := p.si.SID
	if sid.Class == asn1.ClassContextSpecific && sid.Tag == 0 {
		for _, c := range p.certs {
			if len(c.SubjectKeyId) > 0 && bytes.Equal(c.SubjectKeyId, sid.Bytes) {
				return c
			}
		}
		return nil
	}
	var ias issuerAndSerial
	if rest, err := asn1.Unmarshal(sid.FullBytes, &ias); err != nil || len(rest) > 0 || ias.Serial == nil {
		return nil
	}
	for _, c := range p.certs {
		if bytes.Equal(c.RawIssuer, ias.Issuer.FullBytes) && c.SerialNumber.Cmp(ias.Serial) == 0 {
			return c
		}
	}
	return nil
}

// attrValue returns the single value of a signed (or unsigned) attribute.
func attrValue(set asn1.RawValue, oid asn1.ObjectIdentifier) ([]byte, bool) {
	b := set.Bytes
	for len(b) > 0 {
		var a attribute
		rest, err := asn1.Unmarshal(b, &a)
		if err != nil {
			return nil, false
		}
		if a.Type.Equal(oid) {
			return a.Values.Bytes, true // one value: the SET's content is its encoding
		}
		b = rest
	}
	return nil, false
}

// hashOf maps a digest algorithm to its hash.
func hashOf(oid asn1.ObjectIdentifier) (crypto.Hash, bool) {
	switch {
	case oid.Equal(oidSHA256):
		return crypto.SHA256, true
	case oid.Equal(oidSHA384):
		return crypto.SHA384, true
	case oid.Equal(oidSHA512):
		return crypto.SHA512, true
	}
	return 0, false
}

// x509Algorithm is the signature algorithm of a signer info in x509 terms.
func x509Algorithm(h crypto.Hash, sig asn1.ObjectIdentifier) (x509.SignatureAlgorithm, error) {
	rsa := map[crypto.Hash]x509.SignatureAlgorithm{crypto.SHA256: x509.SHA256WithRSA, crypto.SHA384: x509.SHA384WithRSA, crypto.SHA512: x509.SHA512WithRSA}
	pss := map[crypto.Hash]x509.SignatureAlgorithm{crypto.SHA256: x509.SHA256WithRSAPSS, crypto.SHA384: x509.SHA384WithRSAPSS, crypto.SHA512: x509.SHA512WithRSAPSS}
	ec := map[crypto.Hash]x509.SignatureAlgorithm{crypto.SHA256: x509.ECDSAWithSHA256, crypto.SHA384: x509.ECDSAWithSHA384, crypto.SHA512: x509.ECDSAWithSHA512}
	switch {
	case sig.Equal(oidRSA), sig.Equal(oidSHA256WithRSA), sig.Equal(oidSHA384WithRSA), sig.Equal(oidSHA512WithRSA):
		return rsa[h], nil
	case sig.Equal(oidRSAPSS):
		return pss[h], nil
	case sig.Equal(oidECDSAWithSHA256), sig.Equal(oidECDSAWithSHA384), sig.Equal(oidECDSAWithSHA512), sig.Equal(oidECPublicKey):
		return ec[h], nil
	}
	return 0, fmt.Errorf("cms: unsupported signature algorithm %v", sig)
}

// verifySignature checks the signer's signature over the signed attributes.
func (p *parsedCMS) verifySignature() error {
	if len(p.si.SignedAttrs.FullBytes) == 0 {
		return errors.New("cms: no signed attributes")
	}
	h, ok := hashOf(p.si.DigestAlgorithm.Algorithm)
	if !ok {
		return errors.New("cms: unsupported digest algorithm")
	}
	alg, err := x509Algorithm(h, p.si.SignatureAlgorithm.Algorithm)
	if err != nil {
		return err
	}
	// The signature covers the attributes encoded as a SET, not as [0].
	signed := tlv(0x31, p.si.SignedAttrs.Bytes)
	if err := p.signer.CheckSignature(alg, signed, p.si.Signature); err != nil {
		return fmt.Errorf("cms: %w", err)
	}
	return nil
}

// checkDigest compares the message-digest attribute with the digest of
// content, and the content-type attribute with want.
func (p *parsedCMS) checkDigest(content [][]byte, want asn1.ObjectIdentifier) error {
	h, ok := hashOf(p.si.DigestAlgorithm.Algorithm)
	if !ok {
		return errors.New("cms: unsupported digest algorithm")
	}
	ctRaw, ok := attrValue(p.si.SignedAttrs, oidContentType)
	var ct asn1.ObjectIdentifier
	if !ok {
		return errors.New("cms: no content type attribute")
	}
	if _, err := asn1.Unmarshal(ctRaw, &ct); err != nil || !ct.Equal(want) {
		return errors.New("cms: wrong content type")
	}
	mdRaw, ok := attrValue(p.si.SignedAttrs, oidMessageDigest)
	var md []byte
	if !ok {
		return errors.New("cms: no message digest attribute")
	}
	if _, err := asn1.Unmarshal(mdRaw, &md); err != nil {
		return errors.New("cms: malformed message digest")
	}
	d := h.New()
	for _, c := range content {
		d.Write(c)
	}
	if subtle.ConstantTimeCompare(md, d.Sum(nil)) != 1 {
		return errDigest
	}
	return nil
}

var errDigest = errors.New("cms: message digest does not match")

// tstInfo is the content of a time-stamp token (RFC 3161).
type tstInfo struct {
	Version        int
	Policy         asn1.ObjectIdentifier
	MessageImprint messageImprint
	Serial         *big.Int
	GenTime        time.Time     `asn1:"generalized"`
	Accuracy       accuracy      `asn1:"optional"`
	Ordering       bool          `asn1:"optional"`
	Nonce          *big.Int      `asn1:"optional"`
	TSA            asn1.RawValue `asn1:"optional,explicit,tag:0"`
	Extensions     asn1.RawValue `asn1:"optional,tag:1"`
}

type messageImprint struct {
	Algorithm struct {
		Algorithm  asn1.ObjectIdentifier
		Parameters asn1.RawValue `asn1:"optional"`
	}
	Hash []byte
}

type accuracy struct {
	Seconds int `asn1:"optional"`
	Millis  int `asn1:"optional,tag:0"`
	Micros  int `asn1:"optional,tag:1"`
}

// verifyToken checks a time-stamp token: signed by the certificate it
// carries, over a TSTInfo whose imprint is the SHA-256 of stamped. It
// returns the TSTInfo.
func verifyToken(token, stamped []byte) (*tstInfo, error) {
	p, err := parseCMS(token)
	if err != nil {
		return nil, err
	}
	if !p.sd.EncapContent.Type.Equal(oidTSTInfo) || len(p.sd.EncapContent.Content) == 0 {
		return nil, errors.New("time-stamp: no TSTInfo")
	}
	content := p.sd.EncapContent.Content
	if err := p.checkDigest([][]byte{content}, oidTSTInfo); err != nil {
		return nil, fmt.Errorf("time-stamp: %w", err)
	}
	if err := p.verifySignature(); err != nil {
		return nil, fmt.Errorf("time-stamp: %w", err)
	}
	var info tstInfo
	if rest, err := asn1.Unmarshal(content, &info); err != nil || len(rest) > 0 {
		return nil, errors.New("time-stamp: malformed TSTInfo")
	}
	want := sha256Sum(stamped)
	if h, _ := hashOf(info.MessageImprint.Algorithm.Algorithm); h != crypto.SHA256 || !bytes.Equal(info.MessageImprint.Hash, want) {
		return nil, errors.New("time-stamp: the token stamps other data")
	}
	return &info, nil
}
