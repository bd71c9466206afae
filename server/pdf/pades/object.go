package pades

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
)

// kind is the type of a parsed PDF object.
type kind uint8

const (
	kNull kind = iota
	kBool
	kNumber
	kString
	kName
	kArray
	kDict
	kRef
)

// ref names an indirect object.
type ref struct{ num, gen int }

func (r ref) String() string { return fmt.Sprintf("%d %d R", r.num, r.gen) }

// object is one parsed PDF object. raw is its source text, written back
// unchanged when an updated dictionary keeps the entry.
type object struct {
	kind  kind
	raw   []byte
	str   []byte // decoded string, or a name without its slash
	num   int64  // integer value; integral numbers only
	isInt bool
	ref   ref
	items []object // array elements
	keys  []string // dictionary keys in file order, with vals
	vals  []object
}

// get returns a dictionary's value for key.
func (o object) get(key string) (object, bool) {
	for i, k := range o.keys {
		if k == key {
			return o.vals[i], true
		}
	}
	return object{}, false
}

// isName reports whether o is the name n.
func (o object) isName(n string) bool { return o.kind == kName && string(o.str) == n }

var errSyntax = errors.New("pdf syntax error")

// maxDepth bounds nesting so hostile input cannot exhaust the stack.
const maxDepth = 32

// parser reads objects from data starting at pos.
type parser struct {
	data []byte
	pos  int
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == 0
}

func isDelim(c byte) bool {
	return bytes.IndexByte([]byte("()<>[]{}/%"), c) >= 0
}

func isRegular(c byte) bool { return !isSpace(c) && !isDelim(c) }

// skip moves past white space and comments.
func (p *parser) skip() {
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		switch {
		case isSpace(c):
			p.pos++
		case c == '%':
			for p.pos < len(p.data) && p.data[p.pos] != '\n' && p.data[p.pos] != '\r' {
				p.pos++
			}
		default:
			return
		}
	}
}

// token returns the next run of regular characters.
func (p *parser) token() []byte {
	p.skip()
	start := p.pos
	for p.pos < len(p.data) && isRegular(p.data[p.pos]) {
		p.pos++
	}
	return p.data[start:p.pos]
}

// keyword consumes the keyword kw or fails.
func (p *parser) keyword(kw string) error {
	if string(p.token()) != kw {
		return fmt.Errorf("%w: %q expected at %d", errSyntax, kw, p.pos)
	}
	return nil
}

// integer reads a non-negative integer token.
func (p *parser) integer() (int, error) {
	t := p.token()
	n, err := strconv.Atoi(string(t))
	if err != nil || n < 0 || len(t) > 12 {
		return 0, fmt.Errorf("%w: integer expected at %d", errSyntax, p.pos)
	}
	return n, nil
}

// value parses one object, turning "n g R" into a reference.
func (p *parser) value(depth int) (object, error) {
	if depth > maxDepth {
		return object{}, fmt.Errorf("%w: nested too deep", errSyntax)
	}
	p.skip()
	if p.pos >= len(p.data) {
		return object{}, fmt.Errorf("%w: unexpected end", errSyntax)
	}
	start := p.pos
	var o object
	var err error
	switch c := p.data[p.pos]; {
	case c == '/':
		p.pos++
		o = object{kind: kName, str: unescapeName(p.token())}
	case c == '(':
		o.kind = kString
		o.str, err = p.literal()
	case c == '<' && p.pos+1 < len(p.data) && p.data[p.pos+1] == '<':
		o, err = p.dict(depth)
	case c == '<':
		o.kind = kString
		o.str, err = p.hexString()
	case c == '[':
		o, err = p.array(depth)
	default:
		o, err = p.atom()
	}
	if err != nil {
		return object{}, err
	}
	o.raw = p.data[start:p.pos]
	return o, nil
}

// atom parses a number, a boolean, null or a reference.
func (p *parser) atom() (object, error) {
	t := p.token()
	switch string(t) {
	case "":
		return object{}, fmt.Errorf("%w: unexpected %q at %d", errSyntax, p.data[p.pos], p.pos)
	case "true", "false":
		return object{kind: kBool}, nil
	case "null":
		return object{kind: kNull}, nil
	}
	n, err := strconv.ParseInt(string(t), 10, 64)
	if err != nil {
		if _, ferr := strconv.ParseFloat(string(t), 64); ferr != nil {
			return object{}, fmt.Errorf("%w: bad token %q", errSyntax, t)
		}
		return object{kind: kNumber}, nil
	}
	o := object{kind: kNumber, num: n, isInt: true}
	// "n g R" is a reference: look ahead, and step back if it is not.
	save := p.pos
	if g, err := p.integer(); err == nil && n >= 0 && n < 1<<31 && g < 1<<16 {
		if r := p.token(); string(r) == "R" {
			return object{kind: kRef, ref: ref{int(n), g}}, nil
		}
	}
	p.pos = save
	return o, nil
}

func (p *parser) array(depth int) (object, error) {
	p.pos++ // [
	o := object{kind: kArray}
	for {
		p.skip()
		if p.pos >= len(p.data) {
			return object{}, fmt.Errorf("%w: unterminated array", errSyntax)
		}
		if p.data[p.pos] == ']' {
			p.pos++
			return o, nil
		}
		v, err := p.value(depth + 1)
		if err != nil {
			return object{}, err
		}
		o.items = append(o.items, v)
	}
}

func (p *parser) dict(depth int) (object, error) {
	p.pos += 2 // <<
	o := object{kind: kDict}
	for {
		p.skip()
		if p.pos+1 < len(p.data) && p.data[p.pos] == '>' && p.data[p.pos+1] == '>' {
			p.pos += 2
			return o, nil
		}
		if p.pos >= len(p.data) || p.data[p.pos] != '/' {
			return object{}, fmt.Errorf("%w: dictionary key expected at %d", errSyntax, p.pos)
		}
		k, err := p.value(depth + 1)
		if err != nil {
			return object{}, err
		}
		v, err := p.value(depth + 1)
		if err != nil {
			return object{}, err
		}
		o.keys, o.vals = append(o.keys, string(k.str)), append(o.vals, v)
	}
}
