package pades

import (
	"bytes"
	"compress/zlib"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Info keys naming the sealed contract.
const (
	keyContractID      = "ContractId"
	keyContractNumber  = "ContractNumber"
	keyContractVersion = "ContractVersion"
)

// update is the incremental update to write: the parsed objects it changes
// and the numbers of the new ones.
type update struct {
	f                 *file
	rootRef, pageRef  ref
	catalog, page     object
	info              object // the old Info dictionary; kind kNull when none
	sig, field, infoN int    // new object numbers
	files             []int  // per attachment: filespec n, embedded file n+1
	size              int    // the new trailer /Size
	attachments       []Attachment
}

// planUpdate reads the PDF and checks that the update can be written.
func planUpdate(d Document) (*update, error) {
	f, err := readFile(d.PDF)
	if err != nil {
		return nil, fmt.Errorf("pades: reading the PDF: %w", err)
	}
	u := &update{f: f}
	if u.rootRef, err = refOf(f.trailer, "Root"); err != nil {
		return nil, fmt.Errorf("pades: %w", err)
	}
	if u.catalog, err = f.dict(u.rootRef); err != nil {
		return nil, fmt.Errorf("pades: catalog: %w", err)
	}
	for _, k := range []string{"AcroForm", "Names", "AF", "Perms"} {
		if _, ok := u.catalog.get(k); ok {
			return nil, fmt.Errorf("%w: the catalog already has /%s", ErrUnsupported, k)
		}
	}
	if u.pageRef, u.page, err = f.firstPage(u.catalog); err != nil {
		return nil, fmt.Errorf("pades: first page: %w", err)
	}
	if a, ok := u.page.get("Annots"); ok && a.kind != kArray {
		return nil, fmt.Errorf("%w: page annotations by reference", ErrUnsupported)
	}
	if i, ok := f.trailer.get("Info"); ok {
		if u.info, err = f.resolve(i); err != nil {
			return nil, fmt.Errorf("pades: info: %w", err)
		}
	}
	next, err := f.size()
	if err != nil {
		return nil, fmt.Errorf("pades: %w", err)
	}
	u.attachments = append([]Attachment(nil), d.Attachments...)
	sort.Slice(u.attachments, func(i, j int) bool {
		return bytes.Compare(pdfText(u.attachments[i].Name), pdfText(u.attachments[j].Name)) < 0
	})
	for i, a := range u.attachments {
		if err := checkAttachment(a); err != nil {
			return nil, err
		}
		if i > 0 && a.Name == u.attachments[i-1].Name {
			return nil, fmt.Errorf("pades: two attachments named %q", a.Name)
		}
	}
	u.infoN, u.field, u.sig = next, next+1, next+2
	next += 3
	for range u.attachments {
		u.files = append(u.files, next)
		next += 2
	}
	u.size = next
	return u, nil
}

var relationships = []string{"Supplement", "Data", "Source", "Alternative", "Unspecified"}

func checkAttachment(a Attachment) error {
	if a.Name == "" || a.Name == "." || a.Name == ".." || strings.ContainsAny(a.Name, "/\\") ||
		strings.IndexFunc(a.Name, func(r rune) bool { return r < ' ' || r == 0x7f }) >= 0 {
		return fmt.Errorf("pades: attachment name %q is not a plain file name", a.Name)
	}
	if a.Relationship != "" && !slices.Contains(relationships, a.Relationship) {
		return fmt.Errorf("pades: attachment %q: unknown relationship %q", a.Name, a.Relationship)
	}
	return nil
}

// objWriter appends numbered objects and remembers their offsets.
type objWriter struct {
	buf     bytes.Buffer
	offsets map[int]int
	gens    map[int]int
}

func (w *objWriter) obj(r ref, body []byte) {
	w.offsets[r.num], w.gens[r.num] = w.buf.Len(), r.gen
	fmt.Fprintf(&w.buf, "%d %d obj\n", r.num, r.gen)
	w.buf.Write(body)
	w.buf.WriteString("\nendobj\n")
}

// byteRangeWidth holds "0 a b c" for any file under 10 GB, padded.
const byteRangeWidth = 3*11 + 2

// write appends the update to a copy of d.PDF with the signature contents
// left as zeros, fills /ByteRange, and returns the file and the offsets of
// the hole: '<' and just past '>' of /Contents.
func (u *update) write(d Document, room int) ([]byte, [2]int) {
	w := &objWriter{offsets: map[int]int{}, gens: map[int]int{}}
	w.buf.Grow(len(d.PDF) + 2*room + 4096)
	w.buf.Write(d.PDF)
	if !bytes.HasSuffix(d.PDF, []byte("\n")) {
		w.buf.WriteByte('\n')
	}
	sigRef, fieldRef, infoRef := ref{u.sig, 0}, ref{u.field, 0}, ref{u.infoN, 0}

	cat := newDict().from(u.catalog).
		set("AcroForm", newDict().set("Fields", refArray(fieldRef)).set("SigFlags", []byte("3")).bytes())
	if len(u.attachments) > 0 {
		var names bytes.Buffer
		var specs []ref
		names.WriteByte('[')
		for i, a := range u.attachments {
			r := ref{u.files[i], 0}
			fmt.Fprintf(&names, "%s %s ", pdfText(a.Name), r)
			specs = append(specs, r)
		}
		names.WriteByte(']')
		tree := newDict().set("Names", names.Bytes()).bytes()
		cat.set("Names", newDict().set("EmbeddedFiles", tree).bytes()).set("AF", refArray(specs...))
	}
	w.obj(u.rootRef, cat.bytes())

	annots := refArray(fieldRef)
	if a, ok := u.page.get("Annots"); ok { // an array: planUpdate checked
		annots = fmt.Appendf(nil, "[%s %s]", a.raw[1:len(a.raw)-1], fieldRef)
	}
	w.obj(u.pageRef, newDict().from(u.page, "Annots").set("Annots", annots).bytes())

	info := newDict()
	if u.info.kind == kDict {
		info.from(u.info, "ModDate", keyContractID, keyContractNumber, keyContractVersion)
	}
	info.set("ModDate", pdfDate(d.SigningTime))
	if c := d.Contract; c.ID != "" {
		info.set(keyContractID, pdfText(c.ID)).set(keyContractNumber, pdfText(c.Number)).
			set(keyContractVersion, pdfText(strconv.FormatInt(c.Version, 10)))
	}
	w.obj(infoRef, info.bytes())

	for i, a := range u.attachments {
		u.writeAttachment(w, a, ref{u.files[i], 0}, ref{u.files[i] + 1, 0})
	}

	w.obj(fieldRef, newDict().set("Type", pdfName("Annot")).set("Subtype", pdfName("Widget")).
		set("FT", pdfName("Sig")).set("T", pdfText("Seal")).set("F", []byte("132")).
		set("Rect", []byte("[0 0 0 0]")).setRef("P", u.pageRef).setRef("V", sigRef).bytes())

	// The signature dictionary: /ByteRange and /Contents are placeholders.
	w.offsets[u.sig], w.gens[u.sig] = w.buf.Len(), 0
	fmt.Fprintf(&w.buf, "%d 0 obj\n<</Type /Sig /Filter /Adobe.PPKLite /SubFilter /ETSI.CAdES.detached /M %s\n/ByteRange [",
		u.sig, pdfDate(d.SigningTime))
	rangeAt := w.buf.Len()
	w.buf.WriteString(strings.Repeat(" ", byteRangeWidth) + "]\n/Contents ")
	holeStart := w.buf.Len()
	w.buf.WriteByte('<')
	w.buf.WriteString(strings.Repeat("0", 2*room))
	w.buf.WriteByte('>')
	holeEnd := w.buf.Len()
	w.buf.WriteString(">>\nendobj\n")

	u.writeXref(w, d, infoRef)
	out := w.buf.Bytes()
	br := fmt.Sprintf("0 %d %d %d", holeStart, holeEnd, len(out)-holeEnd)
	copy(out[rangeAt:], br)
	return out, [2]int{holeStart, holeEnd}
}

// zlibs keeps compressors: each holds most of a megabyte of state.
var zlibs = sync.Pool{New: func() any { return zlib.NewWriter(nil) }}

// writeAttachment writes a file specification and its compressed stream.
func (u *update) writeAttachment(w *objWriter, a Attachment, spec, stream ref) {
	var z bytes.Buffer
	zw := zlibs.Get().(*zlib.Writer)
	zw.Reset(&z)
	zw.Write(a.Data)
	zw.Close()
	zlibs.Put(zw)
	ef := newDict().set("Type", pdfName("EmbeddedFile"))
	if a.MIME != "" {
		ef.set("Subtype", pdfName(a.MIME))
	}
	ef.set("Params", newDict().set("Size", []byte(strconv.Itoa(len(a.Data)))).bytes()).
		set("Filter", pdfName("FlateDecode")).set("Length", []byte(strconv.Itoa(z.Len())))
	rel := a.Relationship
	if rel == "" {
		rel = "Supplement"
	}
	fs := newDict().set("Type", pdfName("Filespec")).set("F", pdfText(a.Name)).set("UF", pdfText(a.Name))
	if a.Description != "" {
		fs.set("Desc", pdfText(a.Description))
	}
	fs.set("AFRelationship", pdfName(rel)).
		set("EF", newDict().setRef("F", stream).setRef("UF", stream).bytes())
	w.obj(spec, fs.bytes())
	body := append(ef.bytes(), "\nstream\n"...)
	body = append(append(body, z.Bytes()...), "\nendstream"...)
	w.obj(stream, body)
}

// writeXref writes the update's cross-reference section and trailer.
func (u *update) writeXref(w *objWriter, d Document, infoRef ref) {
	xrefAt := w.buf.Len()
	nums := make([]int, 0, len(w.offsets))
	for n := range w.offsets {
		nums = append(nums, n)
	}
	sort.Ints(nums)
	w.buf.WriteString("xref\n")
	for i := 0; i < len(nums); {
		j := i + 1
		for j < len(nums) && nums[j] == nums[j-1]+1 {
			j++
		}
		fmt.Fprintf(&w.buf, "%d %d\n", nums[i], j-i)
		for _, n := range nums[i:j] {
			fmt.Fprintf(&w.buf, "%010d %05d n\r\n", w.offsets[n], w.gens[n])
		}
		i = j
	}
	// The file identifier: kept if the PDF had one, else derived from the
	// rendered bytes; the second half changes with what is sealed.
	rendered := sha256Ranges(d.PDF)
	first := pdfHex(rendered[:16])
	if id, ok := u.f.trailer.get("ID"); ok && id.kind == kArray && len(id.items) == 2 && id.items[0].kind == kString {
		first = id.items[0].raw
	}
	second := sha256.Sum256(fmt.Appendf(nil, "%x|%s|%d|%d", rendered, d.Contract.ID, d.Contract.Version, d.SigningTime.Unix()))
	tr := newDict().set("Size", []byte(strconv.Itoa(u.size))).setRef("Root", u.rootRef).setRef("Info", infoRef).
		set("Prev", []byte(strconv.Itoa(u.f.xrefAt))).
		set("ID", []byte("["+string(first)+" <"+hex.EncodeToString(second[:16])+">]"))
	fmt.Fprintf(&w.buf, "trailer\n%s\nstartxref\n%d\n%%%%EOF\n", tr.bytes(), xrefAt)
}

// sha256Ranges hashes the parts in order.
func sha256Ranges(parts ...[]byte) []byte {
	h := sha256.New()
	for _, p := range parts {
		h.Write(p)
	}
	return h.Sum(nil)
}
