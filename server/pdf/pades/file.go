package pades

import (
	"bytes"
	"errors"
	"fmt"
)

// ErrUnsupported is returned for PDFs this package cannot update: it reads
// classic cross-reference tables (what gopdf writes), not xref streams.
var ErrUnsupported = errors.New("pades: unsupported PDF")

// file is a PDF read through its cross-reference tables: the latest
// offset of each object and the latest trailer.
type file struct {
	data    []byte
	offsets map[int]int // object number → offset of "n g obj"
	trailer object
	xrefAt  int // offset of the latest xref section
}

// maxSections bounds the /Prev chain of a hostile file.
const maxSections = 64

// readFile parses data's trailers and cross-reference tables.
func readFile(data []byte) (*file, error) {
	at, err := startXref(data)
	if err != nil {
		return nil, err
	}
	f := &file{data: data, offsets: map[int]int{}, xrefAt: at}
	seen := map[int]bool{}
	for i := 0; ; i++ {
		if i == maxSections || seen[at] {
			return nil, fmt.Errorf("%w: cross-reference chain loops", errSyntax)
		}
		seen[at] = true
		trailer, err := f.section(at)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			f.trailer = trailer
		}
		prev, ok := trailer.get("Prev")
		if !ok {
			return f, nil
		}
		if !prev.isInt || prev.num < 0 || prev.num >= int64(len(data)) {
			return nil, fmt.Errorf("%w: bad /Prev", errSyntax)
		}
		at = int(prev.num)
	}
}

// startXref finds the offset after the last "startxref" keyword.
func startXref(data []byte) (int, error) {
	tail := data[max(0, len(data)-1024):]
	i := bytes.LastIndex(tail, []byte("startxref"))
	if i < 0 {
		return 0, fmt.Errorf("%w: no startxref", errSyntax)
	}
	p := &parser{data: tail, pos: i + len("startxref")}
	at, err := p.integer()
	if err != nil || at >= len(data) {
		return 0, fmt.Errorf("%w: bad startxref", errSyntax)
	}
	return at, nil
}

// section reads one xref table at off, recording offsets not already
// known from a later section, and returns the trailer that follows it.
func (f *file) section(off int) (object, error) {
	p := &parser{data: f.data, pos: off}
	p.skip()
	if !bytes.HasPrefix(f.data[p.pos:], []byte("xref")) {
		if p.pos < len(f.data) && f.data[p.pos] >= '0' && f.data[p.pos] <= '9' {
			return object{}, fmt.Errorf("%w: cross-reference stream", ErrUnsupported)
		}
		return object{}, fmt.Errorf("%w: no xref at %d", errSyntax, off)
	}
	p.pos += len("xref")
	for {
		save := p.pos
		t := p.token()
		if string(t) == "trailer" {
			break
		}
		p.pos = save
		first, err := p.integer()
		if err != nil {
			return object{}, err
		}
		count, err := p.integer()
		if err != nil || count > len(f.data)/18 {
			return object{}, fmt.Errorf("%w: bad xref subsection", errSyntax)
		}
		for n := first; n < first+count; n++ {
			offset, err1 := p.integer()
			_, err2 := p.integer()
			use := p.token()
			if err1 != nil || err2 != nil || (string(use) != "n" && string(use) != "f") {
				return object{}, fmt.Errorf("%w: bad xref entry", errSyntax)
			}
			if _, known := f.offsets[n]; !known && string(use) == "n" {
				f.offsets[n] = offset
			} else if !known {
				f.offsets[n] = -1 // free in the later section: hides older entries
			}
		}
	}
	t, err := p.value(0)
	if err != nil || t.kind != kDict {
		return object{}, fmt.Errorf("%w: bad trailer", errSyntax)
	}
	return t, nil
}

// dict returns the indirect object r, which must be a dictionary (its
// stream, if any, is not read).
func (f *file) dict(r ref) (object, error) {
	off, ok := f.offsets[r.num]
	if !ok || off < 0 || off >= len(f.data) {
		return object{}, fmt.Errorf("%w: object %d not found", errSyntax, r.num)
	}
	p := &parser{data: f.data, pos: off}
	num, err1 := p.integer()
	gen, err2 := p.integer()
	if err1 != nil || err2 != nil || num != r.num || gen != r.gen || p.keyword("obj") != nil {
		return object{}, fmt.Errorf("%w: object %d is not at its offset", errSyntax, r.num)
	}
	o, err := p.value(0)
	if err != nil {
		return object{}, err
	}
	if o.kind != kDict {
		return object{}, fmt.Errorf("%w: object %d is not a dictionary", errSyntax, r.num)
	}
	return o, nil
}

// resolve follows a reference to a dictionary; a direct dictionary is
// returned as it is.
func (f *file) resolve(o object) (object, error) {
	if o.kind == kRef {
		return f.dict(o.ref)
	}
	if o.kind != kDict {
		return object{}, fmt.Errorf("%w: dictionary expected", errSyntax)
	}
	return o, nil
}

// refOf returns the reference held by key in d.
func refOf(d object, key string) (ref, error) {
	v, ok := d.get(key)
	if !ok || v.kind != kRef {
		return ref{}, fmt.Errorf("%w: /%s is not a reference", errSyntax, key)
	}
	return v.ref, nil
}

// firstPage walks the page tree from the catalog down its first kids.
func (f *file) firstPage(catalog object) (ref, object, error) {
	r, err := refOf(catalog, "Pages")
	if err != nil {
		return ref{}, object{}, err
	}
	for range maxDepth {
		node, err := f.dict(r)
		if err != nil {
			return ref{}, object{}, err
		}
		if t, _ := node.get("Type"); t.isName("Page") {
			return r, node, nil
		}
		kids, ok := node.get("Kids")
		if !ok || kids.kind != kArray || len(kids.items) == 0 || kids.items[0].kind != kRef {
			return ref{}, object{}, fmt.Errorf("%w: page tree without kids", errSyntax)
		}
		r = kids.items[0].ref
	}
	return ref{}, object{}, fmt.Errorf("%w: page tree too deep", errSyntax)
}

// size is the trailer's /Size: the next free object number.
func (f *file) size() (int, error) {
	s, ok := f.trailer.get("Size")
	if !ok || !s.isInt || s.num < 1 || s.num > 1<<23 {
		return 0, fmt.Errorf("%w: bad trailer /Size", errSyntax)
	}
	return int(s.num), nil
}
