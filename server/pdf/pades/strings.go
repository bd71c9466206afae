package pades

import (
	"bytes"
	"fmt"
)

// literal decodes a (string) with its escapes and balanced parentheses.
func (p *parser) literal() ([]byte, error) {
	p.pos++ // (
	var out []byte
	nest := 1
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		p.pos++
		switch c {
		case '(':
			nest++
		case ')':
			if nest--; nest == 0 {
				return out, nil
			}
		case '\\':
			if p.pos >= len(p.data) {
				break
			}
			e := p.data[p.pos]
			p.pos++
			switch e {
			case 'n':
				c = '\n'
			case 'r':
				c = '\r'
			case 't':
				c = '\t'
			case 'b':
				c = '\b'
			case 'f':
				c = '\f'
			case '\r', '\n': // a line continuation
				if e == '\r' && p.pos < len(p.data) && p.data[p.pos] == '\n' {
					p.pos++
				}
				continue
			default:
				if e >= '0' && e <= '7' {
					v := int(e - '0')
					for i := 0; i < 2 && p.pos < len(p.data) && p.data[p.pos] >= '0' && p.data[p.pos] <= '7'; i++ {
						v = v*8 + int(p.data[p.pos]-'0')
						p.pos++
					}
					c = byte(v)
				} else {
					c = e
				}
			}
		}
		out = append(out, c)
	}
	return nil, fmt.Errorf("%w: unterminated string", errSyntax)
}

// hexString decodes a <hex string>; an odd last digit counts as followed by 0.
func (p *parser) hexString() ([]byte, error) {
	p.pos++ // <
	var out []byte
	var hi, n int
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		p.pos++
		if c == '>' {
			if n%2 == 1 {
				out = append(out, byte(hi<<4))
			}
			return out, nil
		}
		if isSpace(c) {
			continue
		}
		v := unhex(c)
		if v < 0 {
			return nil, fmt.Errorf("%w: bad hex digit", errSyntax)
		}
		if n%2 == 0 {
			hi = v
		} else {
			out = append(out, byte(hi<<4|v))
		}
		n++
	}
	return nil, fmt.Errorf("%w: unterminated hex string", errSyntax)
}

func unhex(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// unescapeName decodes #xx escapes in a name.
func unescapeName(t []byte) []byte {
	if bytes.IndexByte(t, '#') < 0 {
		return t
	}
	out := make([]byte, 0, len(t))
	for i := 0; i < len(t); i++ {
		if t[i] == '#' && i+2 < len(t) && unhex(t[i+1]) >= 0 && unhex(t[i+2]) >= 0 {
			out = append(out, byte(unhex(t[i+1])<<4|unhex(t[i+2])))
			i += 2
			continue
		}
		out = append(out, t[i])
	}
	return out
}
