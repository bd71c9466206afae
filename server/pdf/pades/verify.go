package pades

import (
	"bytes"
	"crypto/x509"
	"strconv"
	"time"
)

// Reason says why a file is not an intact seal; empty when it is one.
type Reason string

// Reasons, from the worst answer to the best.
const (
	NotPDF          Reason = "NOT_PDF"          // not a PDF at all
	NoSeal          Reason = "NO_SEAL"          // a PDF without a signature
	OtherSigner     Reason = "OTHER_SIGNER"     // signed, but not by one of our certificates
	BrokenSignature Reason = "BROKEN_SIGNATURE" // a signature that cannot be read, or does not verify
	Truncated       Reason = "TRUNCATED"        // the file ends before the part the seal covers
	Modified        Reason = "MODIFIED"         // sealed bytes were changed
	BadTimestamp    Reason = "BAD_TIMESTAMP"    // the seal's time-stamp token is not valid for it
	Appended        Reason = "APPENDED"         // the sealed revision is intact, but bytes follow it
)

var rank = map[Reason]int{NotPDF: 0, NoSeal: 1, OtherSigner: 2, BrokenSignature: 3, Truncated: 4,
	Modified: 5, BadTimestamp: 6, Appended: 7, "": 8}

// score orders answers: a seal of ours first, then by reason.
func score(r Result) int {
	s := rank[r.Reason]
	if r.Sealed {
		s += 100
	}
	return s
}

// Result is what a Verifier says about a file.
type Result struct {
	// Sealed: the file holds a signature made with one of our certificates.
	Sealed bool
	// Intact: that signature verifies, and covers the whole file.
	Intact bool
	// Contract is read from the sealed revision when its signature
	// verifies (Intact, or Appended); nil otherwise.
	Contract *Contract
	// SignedAt is the seal's /M, StampedAt its time-stamp; zero when unknown.
	SignedAt, StampedAt time.Time
	// Reason is why the file is not intact; empty when it is.
	Reason Reason
}

// Verifier checks files against the certificates this service seals with
// (the current one, and older ones still to be recognised).
type Verifier struct{ certs []*x509.Certificate }

// NewVerifier trusts seals made with certs.
func NewVerifier(certs ...*x509.Certificate) *Verifier { return &Verifier{certs: certs} }

// maxCandidates bounds the work one hostile file can ask for.
const maxCandidates = 8

// Verify examines data, which may be anything. Each /ByteRange from the end
// of the file is a candidate signature; the best answer wins.
func (v *Verifier) Verify(data []byte) Result {
	if i := bytes.Index(data[:min(len(data), 1024)], []byte("%PDF-")); i < 0 {
		return Result{Reason: NotPDF}
	}
	best := Result{Reason: NoSeal}
	end := len(data)
	for n := 0; n < maxCandidates; n++ {
		i := bytes.LastIndex(data[:end], []byte("/ByteRange"))
		if i < 0 {
			break
		}
		r := v.candidate(data, i)
		if score(r) > score(best) {
			best = r
		}
		if r.Intact {
			break
		}
		end = i
	}
	return best
}

// candidate checks the signature whose /ByteRange starts at i.
func (v *Verifier) candidate(data []byte, i int) Result {
	p := &parser{data: data, pos: i + len("/ByteRange")}
	arr, err := p.value(0)
	if err != nil || arr.kind != kArray || len(arr.items) != 4 {
		return Result{Reason: BrokenSignature}
	}
	var br [4]int64
	for k, it := range arr.items {
		if !it.isInt || it.num < 0 || it.num > 1<<40 {
			return Result{Reason: BrokenSignature}
		}
		br[k] = it.num
	}
	start, holeEnd, end := br[1], br[2], br[2]+br[3]
	cms, inHole, ok := contents(data, p.pos, start, holeEnd)
	if !ok {
		if end > int64(len(data)) {
			return Result{Reason: Truncated}
		}
		return Result{Reason: BrokenSignature}
	}
	c, err := parseCMS(cms)
	if err != nil {
		return Result{Reason: BrokenSignature}
	}
	if !v.trusted(c.signer) {
		return Result{Reason: OtherSigner}
	}
	if c.verifySignature() != nil {
		return Result{Reason: BrokenSignature}
	}
	r := Result{Sealed: true}
	switch {
	case end > int64(len(data)):
		r.Reason = Truncated
		return r
	case br[0] != 0 || !inHole:
		r.Reason = Modified
		return r
	}
	if c.checkDigest([][]byte{data[:start], data[holeEnd:end]}, oidData) != nil {
		r.Reason = Modified
		return r
	}
	if token, ok := attrValue(c.si.UnsignedAttrs, oidSignatureStamp); ok {
		info, err := verifyToken(token, c.si.Signature)
		if err != nil {
			r.Reason = BadTimestamp
			return r
		}
		r.StampedAt = info.GenTime
	}
	rev := data[:end]
	r.Contract, r.SignedAt = sealedContract(rev, br)
	if end < int64(len(data)) {
		r.Reason = Appended
		return r
	}
	r.Intact = true
	return r
}

// contents finds the signature's hex /Contents: in the hole the byte range
// leaves (inHole), or else, for a file whose offsets moved, right after
// the /ByteRange array at after.
func contents(data []byte, after int, start, holeEnd int64) (cms []byte, inHole, ok bool) {
	if start < int64(len(data)) && data[start] == '<' {
		p := &parser{data: data, pos: int(start)}
		if b, err := p.hexString(); err == nil {
			return b, int64(p.pos) == holeEnd, true
		}
		return nil, false, false
	}
	p := &parser{data: data, pos: after}
	if k, err := p.value(0); err != nil || !k.isName("Contents") {
		return nil, false, false
	}
	v, err := p.value(0)
	if err != nil || v.kind != kString {
		return nil, false, false
	}
	return v.str, false, true
}

func (v *Verifier) trusted(c *x509.Certificate) bool {
	for _, t := range v.certs {
		if bytes.Equal(t.Raw, c.Raw) {
			return true
		}
	}
	return false
}

// sealedContract reads the contract from the Info dictionary of a sealed
// revision, and /M from the signature dictionary with byte range br.
func sealedContract(rev []byte, br [4]int64) (*Contract, time.Time) {
	f, err := readFile(rev)
	if err != nil {
		return nil, time.Time{}
	}
	var c *Contract
	if i, ok := f.trailer.get("Info"); ok {
		if info, err := f.resolve(i); err == nil {
			c = contractOf(info)
		}
	}
	return c, f.signingTime(br)
}

func contractOf(info object) *Contract {
	text := func(k string) string {
		if v, ok := info.get(k); ok && v.kind == kString {
			return textOf(v.str)
		}
		return ""
	}
	c := &Contract{ID: text(keyContractID), Number: text(keyContractNumber)}
	if c.ID == "" {
		return nil
	}
	c.Version, _ = strconv.ParseInt(text(keyContractVersion), 10, 64)
	return c
}

// signingTime finds the signature field whose value has byte range br and
// returns its /M.
func (f *file) signingTime(br [4]int64) time.Time {
	root, err := refOf(f.trailer, "Root")
	if err != nil {
		return time.Time{}
	}
	cat, err := f.dict(root)
	if err != nil {
		return time.Time{}
	}
	af, ok := cat.get("AcroForm")
	if !ok {
		return time.Time{}
	}
	form, err := f.resolve(af)
	if err != nil {
		return time.Time{}
	}
	fields, _ := form.get("Fields")
	for _, fr := range fields.items[:min(len(fields.items), 64)] {
		field, err := f.resolve(fr)
		if err != nil {
			continue
		}
		vr, ok := field.get("V")
		if !ok {
			continue
		}
		sig, err := f.resolve(vr)
		if err != nil {
			continue
		}
		if r, ok := sig.get("ByteRange"); !ok || !sameRange(r, br) {
			continue
		}
		if m, ok := sig.get("M"); ok && m.kind == kString {
			t, _ := time.Parse("D:20060102150405Z", string(m.str))
			return t
		}
	}
	return time.Time{}
}

func sameRange(o object, br [4]int64) bool {
	if o.kind != kArray || len(o.items) != 4 {
		return false
	}
	for i, it := range o.items {
		if !it.isInt || it.num != br[i] {
			return false
		}
	}
	return true
}
