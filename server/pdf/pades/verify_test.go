package pades

import (
	"bytes"
	"testing"
	"time"
)

// TestVerifyBadFiles gives the verifier each kind of file a person may
// upload and checks its answer.
func TestVerifyBadFiles(t *testing.T) {
	_, rsaID, ecID := testIdentities(t)
	rendered := mustRender(t, "ru")
	d := sampleSeal("ru", rendered)
	sealed := mustSeal(t, mustSealer(t, rsaID, nil, nil), d)
	byOther := mustSeal(t, mustSealer(t, ecID, nil, nil), d)
	tsa := fakeTSA(t)
	stamped := mustSeal(t, mustSealer(t, rsaID, &TSA{URL: tsa.URL}, nil), d)
	hole := holeOf(t, sealed)

	edit := func(b []byte, at int, c byte) []byte {
		b = bytes.Clone(b)
		b[at] = c
		return b
	}
	// The last byte of the token is inside the hex before its zero padding.
	stampHole := holeOf(t, stamped)
	lastToken := bytes.LastIndexFunc(stamped[stampHole[0]:stampHole[1]-1], func(r rune) bool { return r != '0' }) + stampHole[0]
	lastSig := bytes.LastIndexFunc(sealed[hole[0]:hole[1]-1], func(r rune) bool { return r != '0' }) + hole[0] - 100
	flip := func(c byte) byte {
		if c == 'f' {
			return 'e'
		}
		return 'f'
	}

	cases := []struct {
		name           string
		data           []byte
		sealed, intact bool
		reason         Reason
		contract       bool
	}{
		{"intact", sealed, true, true, "", true},
		{"intact with time-stamp", stamped, true, true, "", true},
		{"empty", nil, false, false, NotPDF, false},
		{"garbage", bytes.Repeat([]byte("garbage "), 1000), false, false, NotPDF, false},
		{"a PDF without seal", rendered, false, false, NoSeal, false},
		{"sealed by someone else", byOther, false, false, OtherSigner, false},
		{"a content byte edited", edit(sealed, 200, sealed[200]^0x20), true, false, Modified, false},
		{"the signature value edited", edit(sealed, lastSig, flip(sealed[lastSig])), false, false, BrokenSignature, false},
		{"the embedded certificate edited", edit(sealed, hole[0]+600, flip(sealed[hole[0]+600])), false, false, OtherSigner, false},
		{"the padding edited", edit(sealed, hole[1]-3, '1'), false, false, BrokenSignature, false},
		{"the time-stamp edited", edit(stamped, lastToken, flip(stamped[lastToken])), true, false, BadTimestamp, false},
		{"bytes appended", append(bytes.Clone(sealed), "\n% a later revision\n"...), true, false, Appended, true},
		{"bytes inserted before", append([]byte("%PDF-1.7\n% x\n"), sealed...), true, false, Modified, false},
		{"truncated after the hole", sealed[:len(sealed)-10], true, false, Truncated, false},
		{"truncated in the hole", sealed[:hole[0]+100], false, false, Truncated, false},
		{"truncated in the content", sealed[:len(rendered)/2], false, false, NoSeal, false},
		{"only the header", []byte("%PDF-1.7\n"), false, false, NoSeal, false},
	}
	v := NewVerifier(rsaID.Certificate())
	for _, c := range cases {
		r := v.Verify(c.data)
		if r.Sealed != c.sealed || r.Intact != c.intact || r.Reason != c.reason || (r.Contract != nil) != c.contract {
			t.Errorf("%s: %+v; want sealed %v, intact %v, reason %q, contract %v", c.name, r, c.sealed, c.intact, c.reason, c.contract)
		}
	}
}

// TestVerifyOldCertificate: a verifier that knows the old seal as well as
// the new one still recognises files sealed before the change.
func TestVerifyOldCertificate(t *testing.T) {
	_, rsaID, ecID := testIdentities(t)
	old := mustSeal(t, mustSealer(t, ecID, nil, nil), sampleSeal("uz", mustRender(t, "uz")))
	if r := NewVerifier(rsaID.Certificate(), ecID.Certificate()).Verify(old); !r.Intact {
		t.Errorf("old seal: %+v", r)
	}
}

// TestVerifyManyFakeRanges: fake /ByteRange entries in front of the seal
// do not hide it, and many of them do not make the work unbounded.
func TestVerifyManyFakeRanges(t *testing.T) {
	_, rsaID, _ := testIdentities(t)
	sealed := mustSeal(t, mustSealer(t, rsaID, nil, nil), sampleSeal("en", mustRender(t, "en")))
	spam := bytes.Repeat([]byte("/ByteRange [0 10 20 5] /Contents <3000>\n"), 10000)
	withSpam := append(append(bytes.Clone(sealed), spam...), sealed[len(sealed)-40:]...)
	start := time.Now()
	r := NewVerifier(rsaID.Certificate()).Verify(withSpam)
	if r.Intact || time.Since(start) > 5*time.Second {
		t.Errorf("%+v after %v", r, time.Since(start))
	}
}

// holeOf returns where the signature's hex string starts and ends.
func holeOf(t *testing.T, sealed []byte) [2]int {
	t.Helper()
	i := bytes.LastIndex(sealed, []byte("/Contents <"))
	if i < 0 {
		t.Fatal("no /Contents")
	}
	start := i + len("/Contents ")
	end := bytes.IndexByte(sealed[start:], '>') + start + 1
	return [2]int{start, end}
}
