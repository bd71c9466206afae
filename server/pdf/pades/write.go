package pades

import (
	"bytes"
	"encoding/hex"
	"slices"
	"time"
	"unicode/utf16"
)

// pdfName writes /name, escaping what is not a regular character.
func pdfName(n string) []byte {
	out := []byte{'/'}
	for i := 0; i < len(n); i++ {
		c := n[i]
		if c < '!' || c > '~' || c == '#' || isDelim(c) {
			out = append(out, '#', "0123456789ABCDEF"[c>>4], "0123456789ABCDEF"[c&15])
			continue
		}
		out = append(out, c)
	}
	return out
}

// pdfText writes a text string: a literal when it is printable ASCII,
// otherwise UTF-16BE with a byte-order mark, in hex.
func pdfText(s string) []byte {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] > '~' {
			ascii = false
			break
		}
	}
	if ascii {
		return pdfLiteral([]byte(s))
	}
	u := append([]uint16{0xFEFF}, utf16.Encode([]rune(s))...)
	b := make([]byte, 0, 2*len(u))
	for _, v := range u {
		b = append(b, byte(v>>8), byte(v))
	}
	return pdfHex(b)
}

// pdfLiteral writes (bytes), escaping the three special characters.
func pdfLiteral(b []byte) []byte {
	out := make([]byte, 0, len(b)+2)
	out = append(out, '(')
	for _, c := range b {
		if c == '(' || c == ')' || c == '\\' {
			out = append(out, '\\')
		}
		out = append(out, c)
	}
	return append(out, ')')
}

func pdfHex(b []byte) []byte {
	return []byte("<" + hex.EncodeToString(b) + ">")
}

// pdfDate writes t as a PDF date in UTC, to the second.
func pdfDate(t time.Time) []byte {
	return pdfLiteral([]byte(t.UTC().Format("D:20060102150405Z")))
}

// textOf decodes a PDF text string: UTF-16BE after a byte-order mark,
// otherwise the bytes as they are (PDFDocEncoding agrees with ASCII).
func textOf(b []byte) string {
	if len(b) >= 2 && b[0] == 0xFE && b[1] == 0xFF {
		u := make([]uint16, 0, len(b)/2)
		for i := 2; i+1 < len(b); i += 2 {
			u = append(u, uint16(b[i])<<8|uint16(b[i+1]))
		}
		return string(utf16.Decode(u))
	}
	return string(b)
}

// dictWriter builds a dictionary: kept entries of a parsed one in their
// order, then new ones.
type dictWriter struct{ buf bytes.Buffer }

func newDict() *dictWriter {
	d := &dictWriter{}
	d.buf.WriteString("<<")
	return d
}

// from copies the entries of o except the keys in skip.
func (d *dictWriter) from(o object, skip ...string) *dictWriter {
	for i, k := range o.keys {
		if !slices.Contains(skip, k) {
			d.set(k, o.vals[i].raw)
		}
	}
	return d
}

func (d *dictWriter) set(key string, value []byte) *dictWriter {
	d.buf.Write(pdfName(key))
	d.buf.WriteByte(' ')
	d.buf.Write(value)
	d.buf.WriteByte('\n')
	return d
}

func (d *dictWriter) setRef(key string, r ref) *dictWriter { return d.set(key, []byte(r.String())) }

func (d *dictWriter) bytes() []byte {
	d.buf.WriteString(">>")
	return d.buf.Bytes()
}

// refArray writes [a 0 R b 0 R ...].
func refArray(refs ...ref) []byte {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, r := range refs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(r.String())
	}
	b.WriteByte(']')
	return b.Bytes()
}
