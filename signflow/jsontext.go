package signflow

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// The hand-written encoders on the create path (the document's terms here,
// the stored record in storage) write what json.Marshal writes; these are
// its forms of a string and of a number.

const hexDigits = "0123456789abcdef"

// AppendJSONString appends s as json.Marshal writes it: HTML's <, > and &
// escaped, invalid UTF-8 as U+FFFD, U+2028 and U+2029 escaped.
func AppendJSONString(b []byte, s string) []byte { return appendJSONString(b, s, true) }

// AppendJSONText appends s as an encoder with HTML escaping off writes it
// (the interfaces' answers): AppendJSONString but for <, > and &.
func AppendJSONText(b []byte, s string) []byte { return appendJSONString(b, s, false) }

// safeText and safeHTML mark the bytes json.Marshal copies as they are
// (HTML escaping off, on); bytes from 0x80 are not marked, so that UTF-8
// is checked.
var safeText, safeHTML = safeBytes(false), safeBytes(true)

func safeBytes(html bool) (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && (!html || c != '<' && c != '>' && c != '&')
	}
	return t
}

// appendJSONString copies runs of safe bytes whole; a two-byte UTF-8
// sequence (Latin, Cyrillic) is checked inline, longer ones decoded.
func appendJSONString(b []byte, s string, html bool) []byte {
	safe := &safeText
	if html {
		safe = &safeHTML
	}
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if safe[c] {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			if c >= 0xC2 && c <= 0xDF && i+1 < len(s) && s[i+1]&0xC0 == 0x80 {
				i += 2
				continue
			}
			r, size := utf8.DecodeRuneInString(s[i:])
			switch {
			case r == utf8.RuneError && size == 1:
				b = append(append(b, s[start:i]...), `\ufffd`...)
			case r == '\u2028' || r == '\u2029':
				b = append(append(b, s[start:i]...), '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			default:
				i += size
				continue
			}
			i += size
			start = i
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '\\', '"':
			b = append(b, '\\', c)
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
		}
		i++
		start = i
	}
	return append(append(b, s[start:]...), '"')
}

// AppendJSONFloat appends f as encoding/json writes a float64 (the ES6
// number form); json.Marshal refuses NaN and infinities, which the caller
// checks.
func AppendJSONFloat(b []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if n := len(b); format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1]
		b = b[:n-1]
	}
	return b
}

// AppendJSONValues appends m (a product's free-form values) as json.Marshal
// writes it: keys sorted, strings and booleans written here, anything else
// through json.Marshal, whose error it returns.
func AppendJSONValues(b []byte, m map[string]any) ([]byte, error) {
	if m == nil {
		return append(b, "null"...), nil
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(AppendJSONString(b, k), ':')
		switch v := m[k].(type) {
		case string:
			b = AppendJSONString(b, v)
		case bool:
			b = strconv.AppendBool(b, v)
		default:
			data, err := json.Marshal(v)
			if err != nil {
				return nil, err
			}
			b = append(b, data...)
		}
	}
	return append(b, '}'), nil
}
