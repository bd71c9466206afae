package pdf

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"

	"contracts/server/document"
)

// The languages' words the text must show, beside the data: labels,
// the status, a party's status, a unit, a method and audit events.
var langWords = map[string][]string{
	"uz": {"Tomonlar", "Tovarlar", "Toʻlov jadvali", "Boshlangʻich toʻlov", "Harakatlar jurnali", "Kuchga kirgan", "Imzolagan",
		"dona", "SMS kod", "Shartnoma tuzildi", "Tomon imzoladi", "sahifa 1 / "},
	"ru": {"Стороны", "Товары", "График платежей", "Первоначальный взнос", "Журнал действий", "Действует", "Подписал",
		"шт.", "SMS-код", "Договор составлен", "Сторона подписала", "страница 1 из "},
	"en": {"Parties", "Goods", "Payment schedule", "Initial payment", "Audit trail", "In force", "Signed",
		"pcs", "SMS code", "Contract drawn up", "Signed by a party", "page 1 of "},
}

// nbsp is the no-break space of the document's amounts.
const nbsp = "\u00a0"

func TestRenderLanguages(t *testing.T) {
	needTools(t, "pdftotext", "qpdf", "pdfinfo")
	for _, lang := range []string{"uz", "ru", "en"} {
		t.Run(lang, func(t *testing.T) {
			d := sampleDocument(lang, 5, 3)
			path, _ := MustRenderFile(t, d)
			MustCheckPDF(t, path)
			text := strings.Join(MustText(t, path), "\n")
			extra := d.Products[0].Extra[0]
			want := []string{d.Number, d.Title, sellerName, buyerName, witnessName, "Петров Иван Иванович",
				d.Seller().Role, d.Buyer().Role, d.Hash, d.ProductsTotal, d.Price, "02.03.2026 09:31:07 UTC", extra.Label + ": " + extra.Value}
			if d.ProductsTotal != "17"+nbsp+"165.00"+nbsp+"UZS" {
				t.Errorf("total %q", d.ProductsTotal)
			}
			want = append(want, langWords[lang]...)
			for _, p := range d.Products {
				want = append(want, p.Name)
			}
			for _, w := range want {
				// pdftotext reads the no-break spaces of amounts as spaces.
				if !strings.Contains(text, strings.ReplaceAll(w, nbsp, " ")) {
					t.Errorf("text lacks %q", w)
				}
			}
			if t.Failed() {
				t.Logf("pdftotext:\n%s", text)
			}
		})
	}
}

func TestRenderUnknownLangIsUzbek(t *testing.T) {
	needTools(t, "pdftotext")
	path, _ := MustRenderFile(t, sampleDocument("de", 1, 1))
	text := strings.Join(MustText(t, path), "\n")
	for _, w := range langWords["uz"] {
		if !strings.Contains(text, w) {
			t.Errorf("text lacks Uzbek label %q", w)
		}
	}
}

func TestRender200Products(t *testing.T) {
	needTools(t, "pdftotext", "qpdf", "pdfinfo")
	d := sampleDocument("en", 200, 1)
	path, pages := MustRenderFile(t, d)
	MustCheckPDF(t, path)
	if n := MustPageCount(t, path); n != pages || n < 4 {
		t.Fatalf("pdfinfo pages = %d, render counted %d; want equal and at least 4", n, pages)
	}
	texts := MustText(t, path)
	if len(texts) != pages {
		t.Fatalf("pdftotext found %d pages, want %d", len(texts), pages)
	}
	all := strings.Join(texts, "\n")
	for i := 1; i <= 200; i++ {
		if !regexp.MustCompile(fmt.Sprintf(`(?m)^ *%d +Product %d\b`, i, i)).MatchString(all) {
			t.Errorf("no table row for product %d", i)
		}
	}
	header := regexp.MustCompile(`(?m)^ *# +Item +Unit +Qty +Price, UZS +Amount, UZS *$`)
	for i, text := range texts {
		if strings.Contains(text, "Product ") && !header.MatchString(text) {
			t.Errorf("page %d has product rows but no table header", i+1)
		}
		if footer := fmt.Sprintf("page %d of %d", i+1, pages); !strings.Contains(text, footer) {
			t.Errorf("page %d lacks footer %q", i+1, footer)
		}
	}
}

func TestRenderLongBody(t *testing.T) {
	needTools(t, "pdftotext", "qpdf")
	words := make([]string, 5000)
	for i := range words {
		words[i] = fmt.Sprintf("w%04d", i+1)
	}
	long := strings.Repeat("ABCDEFGHIJ", 30) // wider than the page: must be split, not clipped
	d := sampleDocument("ru", 1, 0)
	d.Body = strings.Join(words[:2500], " ") + "\n\n" + long + "\n" + strings.Join(words[2500:], " ")
	path, _ := MustRenderFile(t, d)
	MustCheckPDF(t, path)
	text := strings.Join(MustText(t, path), "\n")
	seen := map[string]bool{}
	for _, f := range strings.Fields(text) {
		seen[f] = true
	}
	for _, w := range words {
		if !seen[w] {
			t.Errorf("word %s is missing", w)
		}
	}
	if !strings.Contains(strings.Join(strings.Fields(text), ""), long) {
		t.Error("the over-long word is not printed in full")
	}
}

// TestRenderTallRow gives one product a name longer than a page: the row is
// split over pages rather than clipped.
func TestRenderTallRow(t *testing.T) {
	needTools(t, "pdftotext", "qpdf")
	words := make([]string, 1500)
	for i := range words {
		words[i] = fmt.Sprintf("n%04d", i+1)
	}
	d := sampleDocument("uz", 3, 1)
	d.Products[1].Name = strings.Join(words, " ")
	path, pages := MustRenderFile(t, d)
	MustCheckPDF(t, path)
	if pages < 4 {
		t.Errorf("rendered %d pages, want the row to spread over several", pages)
	}
	text := strings.Join(MustText(t, path), "\n")
	seen := map[string]bool{}
	for _, f := range strings.Fields(text) {
		seen[f] = true
	}
	for _, w := range words {
		if !seen[w] {
			t.Fatalf("word %s of the long name is missing", w)
		}
	}
	if !strings.Contains(text, "Product 3") {
		t.Error("the row after the tall one is missing")
	}
}

func TestRenderEmptyDocument(t *testing.T) {
	needTools(t, "qpdf", "pdfinfo")
	path, pages := MustRenderFile(t, &document.Doc{})
	MustCheckPDF(t, path)
	if n := MustPageCount(t, path); n != 2 || pages != 2 {
		t.Errorf("empty document has %d pages (counted %d), want the contract page and the audit page", n, pages)
	}
}

func TestRenderTwoPages(t *testing.T) {
	needTools(t, "pdfinfo")
	path, pages := MustRenderFile(t, benchDocument())
	if n := MustPageCount(t, path); n != 2 || pages != 2 {
		t.Fatalf("benchmark document has %d pages (render counted %d), want 2", n, pages)
	}
}

// TestRenderConcurrent renders from many goroutines; with -race it shows the
// fonts parsed once are shared safely.
func TestRenderConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	sizes := make([]int, 8)
	for i := range sizes {
		wg.Go(func() {
			var buf bytes.Buffer
			if err := Render(&buf, sampleDocument([]string{"uz", "ru", "en"}[i%3], 10, 2)); err != nil {
				t.Error(err)
			}
			sizes[i] = buf.Len()
		})
	}
	wg.Wait()
	for i, n := range sizes {
		if n < 1000 || n != sizes[i%3] {
			t.Errorf("render %d wrote %d bytes, the first in its language wrote %d", i, n, sizes[i%3])
		}
	}
}

func TestFontsCoverScripts(t *testing.T) {
	w := &writer{}
	pdf, err := newPDF()
	if err != nil {
		t.Fatal(err)
	}
	w.pdf = pdf
	for _, bold := range []bool{false, true} {
		w.font(bold, sizeText)
		for _, r := range "oʻgʻ‘’AZaz№«»АЯаяЁёЎўҚқҒғҲҳ" {
			if ok, err := pdf.IsCurrFontContainGlyph(r); err != nil || !ok {
				t.Errorf("bold=%v: no glyph for %q (U+%04X): %v", bold, r, r, err)
			}
		}
	}
}

func BenchmarkRender2Page(b *testing.B) {
	d := benchDocument()
	var buf bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		if err := Render(&buf, d); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "bytes/pdf")
}

// benchDocument is a typical contract without witnesses: a full page of
// contract and the audit page.
func benchDocument() *document.Doc {
	d := sampleDocument("uz", 2, 1)
	d.Witnesses = nil
	return d
}

// TestRenderIsPure: the PDF is a function of the contract alone. The same
// contract version, made into its document anew each time, renders to the
// same bytes in each language (no clock, no random ids, no map order).
func TestRenderIsPure(t *testing.T) {
	for _, lang := range []string{"uz", "ru", "en"} {
		var first []byte
		for range 5 {
			var buf bytes.Buffer
			if err := Render(&buf, sampleDocument(lang, 4, 2)); err != nil {
				t.Fatal(err)
			}
			if first == nil {
				first = buf.Bytes()
			} else if !bytes.Equal(buf.Bytes(), first) {
				t.Fatalf("%s: two renders of the same contract differ", lang)
			}
		}
	}
}
