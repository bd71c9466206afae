package pdf

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"contracts/internal/fixture"
	"contracts/server/document"
	"contracts/signflow"
)

// cacheWorld is a stored contract of n products, read as the routes read it.
type cacheWorld struct {
	*fixture.Standard
	t testing.TB
	a *signflow.Access
	c *signflow.Contract
}

func newCacheWorld(t testing.TB, products int) *cacheWorld {
	t.Helper()
	w := fixture.NewStandard(t)
	in := &signflow.ContractInput{TemplateID: w.Template.ID, BuyerIN: fixture.CustomerIN, Price: 150000}
	for i := range products {
		in.Products = append(in.Products, signflow.Product{Name: "Televizor " + string(rune('A'+i%26)), Quantity: 1, Price: 150000})
	}
	a := w.Access(t, w.AppA)
	c, err := w.Service.CreateContract(a, in, signflow.Actor{IP: "10.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	return &cacheWorld{Standard: w, t: t, a: a, c: c}
}

// get serves the contract's PDF in lang from the cache, as a route does.
func (w *cacheWorld) get(ctx context.Context, pdfs *Cache, lang string) ([]byte, error) {
	w.t.Helper()
	v, err := w.Service.Contract(w.a, w.c.ID)
	if err != nil {
		w.t.Fatal(err)
	}
	audit, err := w.Service.AuditTrail(w.c.ID)
	if err != nil {
		w.t.Fatal(err)
	}
	return pdfs.Contract(ctx, v, audit, lang, signflow.VerifyURL("https://sign.example", w.c))
}

func (w *cacheWorld) mustGet(pdfs *Cache, lang string) []byte {
	w.t.Helper()
	doc, err := w.get(context.Background(), pdfs, lang)
	if err != nil || !bytes.HasPrefix(doc, []byte("%PDF-")) {
		w.t.Fatalf("PDF in %s: %v", lang, err)
	}
	return doc
}

func wantStats(t *testing.T, pdfs *Cache, renders, hits int64, entries int) {
	t.Helper()
	if s := pdfs.Stats(); s.Renders != renders || s.Hits != hits || s.Entries != entries {
		t.Fatalf("stats %+v, want %d renders, %d hits, %d entries", s, renders, hits, entries)
	}
}

// A PDF asked for again is the same bytes, not rendered again; another
// language is another PDF; what changes without the contract's version (an
// audit-only event, a party's record) changes nothing of it; and a new
// version renders it anew in place of the old one, with the parties' records
// as that change found them.
func TestCacheServesUnchangedPDFs(t *testing.T) {
	w := newCacheWorld(t, 1)
	pdfs := NewCache(DefaultCacheBytes)
	first := w.mustGet(pdfs, "uz")
	if again := w.mustGet(pdfs, "uz"); !bytes.Equal(again, first) {
		t.Fatal("the cached PDF differs")
	}
	wantStats(t, pdfs, 1, 1, 1)
	w.mustGet(pdfs, "ru")
	wantStats(t, pdfs, 2, 1, 2)

	// A session opened: a new audit event, the same contract version.
	if _, _, err := w.Service.OpenSession(w.a, w.c.ID, signflow.SessionRequest{SignerIN: fixture.CustomerIN},
		signflow.Actor{IP: "10.0.0.2"}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(w.mustGet(pdfs, "uz"), first) {
		t.Fatal("an audit-only event changed the PDF of the version")
	}
	wantStats(t, pdfs, 2, 2, 2)
	// The buyer's record changes: the version's PDF does not.
	if _, err := w.Service.RegisterClient(w.a, &signflow.Client{IN: fixture.CustomerIN, FirstName: "Aziz", LastName: "Karimov",
		Phone: "+998 90 123-45-67", Passport: "AB1234567"}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(w.mustGet(pdfs, "uz"), first) {
		t.Fatal("a party's new record changed the PDF of the version")
	}
	wantStats(t, pdfs, 2, 3, 2)
	// The contract's version changes: the change records the new passport.
	if _, err := w.Service.Cancel(w.a, w.c.ID, signflow.Actor{}); err != nil {
		t.Fatal(err)
	}
	cancelled := w.mustGet(pdfs, "uz")
	w.mustGet(pdfs, "uz")
	wantStats(t, pdfs, 3, 4, 2)
	if bytes.Equal(cancelled, first) {
		t.Fatal("the new version is the old PDF")
	}
	needTools(t, "pdftotext")
	path := filepath.Join(t.TempDir(), "cancelled.pdf")
	if err := os.WriteFile(path, cancelled, 0o600); err != nil {
		t.Fatal(err)
	}
	if text := strings.Join(MustText(t, path), ""); !strings.Contains(text, "AB1234567") {
		t.Fatalf("the cancelled version does not show the passport its change recorded:\n%s", text)
	}
}

// A hundred requests for the PDF of a contract of 1,000 products, a
// hundred at once then a hundred more, cost one render: the concurrent
// ones wait for it, the later ones read it.
func TestCacheOneRenderForAHundredRequests(t *testing.T) {
	w := newCacheWorld(t, 1000)
	pdfs := NewCache(DefaultCacheBytes)
	var wg sync.WaitGroup
	docs := make([][]byte, 100)
	for i := range docs {
		wg.Go(func() { docs[i], _ = w.get(context.Background(), pdfs, "en") })
	}
	wg.Wait()
	for i := range docs {
		if !bytes.Equal(docs[i], docs[0]) || len(docs[i]) == 0 {
			t.Fatalf("answer %d differs (%d bytes)", i, len(docs[i]))
		}
		w.mustGet(pdfs, "en")
	}
	if s := pdfs.Stats(); s.Renders != 1 || s.Hits < 100 {
		t.Fatalf("stats %+v, want 1 render", s)
	}
}

// The cache keeps at most its bound in bytes, dropping the least recently
// used PDF first, and does not keep a PDF larger than a quarter of it.
func TestCacheBoundInBytes(t *testing.T) {
	w := newCacheWorld(t, 1)
	size := int64(len(w.mustGet(NewCache(DefaultCacheBytes), "uz")))
	pdfs := NewCache(4*size + size/2) // room for four, not five
	for _, lang := range []string{"uz", "ru", "en"} {
		w.mustGet(pdfs, lang)
	}
	other := &cacheWorld{Standard: w.Standard, t: t, a: w.a, c: w.Contract(t)}
	w.mustGet(pdfs, "uz") // uz is now the most recently used
	other.mustGet(pdfs, "uz")
	other.mustGet(pdfs, "ru") // the fifth: ru of the first contract goes
	if s := pdfs.Stats(); s.Entries != 4 || s.Bytes > 4*size+size/2 {
		t.Fatalf("stats %+v", s)
	}
	w.mustGet(pdfs, "uz")
	w.mustGet(pdfs, "ru")
	if s := pdfs.Stats(); s.Renders != 6 {
		t.Fatalf("%d renders: the least recently used was not the one dropped", s.Renders)
	}
	small := NewCache(3 * size)
	w.mustGet(small, "uz")
	if s := small.Stats(); s.Entries != 0 || s.Bytes != 0 {
		t.Fatalf("a PDF over a quarter of the bound was kept: %+v", s)
	}
}

// A queue of large documents never holds up the usual ones: with every
// heavy slot taken, a two-page contract still renders at once; past the
// heavy queue's bound a large document is refused (503 with Retry-After)
// instead of waiting in memory; and a request that goes away stops waiting
// while another waiting for the same PDF renders it itself.
func TestCacheLanes(t *testing.T) {
	big, small := newCacheWorld(t, heavyRows), newCacheWorld(t, 3)
	pdfs := NewCache(DefaultCacheBytes)
	for range cap(heavyLane.slots) {
		heavyLane.slots <- struct{}{}
	}
	freed := false
	free := func() {
		if !freed {
			for range cap(heavyLane.slots) {
				<-heavyLane.slots
			}
			freed = true
		}
	}
	defer free()
	small.mustGet(pdfs, "uz")

	// Requests for the large PDF wait; the first of them leads its render.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	leader := make(chan error, 1)
	go func() { _, err := big.get(ctx, pdfs, "uz"); leader <- err }()
	waitFor(t, func() bool { return heavyLane.waiting.Load() == 1 })
	follower := make(chan error, 1)
	go func() { _, err := big.get(context.Background(), pdfs, "uz"); follower <- err }()
	waitFor(t, func() bool { pdfs.mu.Lock(); defer pdfs.mu.Unlock(); return len(pdfs.flights) == 1 })

	// Fill the heavy queue with other large PDFs (other languages).
	others, cancelOthers := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for i := 1; i < int(heavyLane.maxWaiting); i++ {
		d := document.New(&signflow.ContractView{Contract: big.c}, nil, []string{"ru", "en"}[i%2], document.Options{})
		d.Number = string(rune('a' + i))
		wg.Go(func() { renderIn(others, &bytes.Buffer{}, d) })
	}
	waitFor(t, func() bool { return heavyLane.waiting.Load() == heavyLane.maxWaiting })
	_, err := big.get(context.Background(), pdfs, "ru")
	var busy *BusyError
	if !errors.As(err, &busy) || signflow.ErrorCode(err) != signflow.EUNAVAILABLE || busy.RetryAfter() != busyWait {
		t.Fatalf("a large PDF past the heavy queue: %v", err)
	}
	cancelOthers()
	wg.Wait()

	// The leader goes away; the follower takes over and renders once a slot frees.
	cancel()
	if err := <-leader; signflow.ErrorCode(err) != signflow.EUNAVAILABLE {
		t.Fatalf("the request that went away: %v", err)
	}
	waitFor(t, func() bool { return heavyLane.waiting.Load() == 1 })
	free()
	if err := <-follower; err != nil {
		t.Fatalf("the request that stayed: %v", err)
	}
	if s := pdfs.Stats(); s.Renders != 2 || s.Entries != 2 {
		t.Fatalf("stats %+v", s)
	}
}

// waitFor yields until cond holds: the goroutines it waits for need no
// time to pass, only to run.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for i := 0; !cond(); i++ {
		if i > 1e7 {
			t.Fatal("condition never held")
		}
		runtime.Gosched()
	}
}

// BenchmarkCachedPDF1000Products serves the PDF of a contract of 1,000
// products from the cache; BenchmarkRenderPDF1000Products renders it each
// time. Their ratio is what the cache saves a repeated download.
func BenchmarkCachedPDF1000Products(b *testing.B) {
	benchmarkPDF(b, true)
}

func BenchmarkRenderPDF1000Products(b *testing.B) {
	benchmarkPDF(b, false)
}

func benchmarkPDF(b *testing.B, cached bool) {
	w := newCacheWorld(b, 1000)
	pdfs := NewCache(DefaultCacheBytes)
	for b.Loop() {
		if !cached {
			pdfs = NewCache(DefaultCacheBytes)
		}
		if _, err := w.get(context.Background(), pdfs, "uz"); err != nil {
			b.Fatal(err)
		}
	}
}
