package pdf

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"contracts/internal/fixture"
	"contracts/server/document"
	"contracts/signflow"
)

// The review's third finding: 190 products with long names and long
// field values (a 1 MB body) counted as ~193 rows and rendered 444 pages
// in the light lane, where the usual two-page contracts waited behind
// them. Admission is now by estimated pages: that contract is heavy, and
// a two-page contract is not.
func TestRenderAdmittedByEstimatedCost(t *testing.T) {
	w := fixture.NewStandard(t)
	in := &signflow.ContractInput{TemplateID: w.Template.ID, BuyerIN: fixture.CustomerIN, Price: 150000}
	for i := range 190 {
		in.Products = append(in.Products, signflow.Product{Name: strings.Repeat("Televizor ", 50)[:500-3] + string(rune('A'+i%26)) + "  ",
			Quantity: 1, Price: 150000, Values: map[string]any{"color": strings.Repeat("graphite ", 555)}})
	}
	a := w.Access(t, w.AppA)
	hostile, err := w.Service.CreateContract(a, in, signflow.Actor{IP: "10.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	doc := func(c *signflow.Contract) *document.Doc {
		v, err := w.Service.Contract(a, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		return document.New(v, nil, "en", document.Options{})
	}
	big := doc(hostile)
	if big.Pages() < 300 || laneFor(big) != heavyLane {
		t.Fatalf("the review's contract: %d pages estimated, heavy %v", big.Pages(), laneFor(big) == heavyLane)
	}
	if small := doc(w.Contract(t)); small.Pages() > 2 || laneFor(small) != lightLane {
		t.Fatalf("a two-page contract: %d pages estimated", small.Pages())
	}
}

// The light lane's queue is bounded too: with every slot taken and its
// queue full, a render is refused (503 with Retry-After) instead of
// waiting in memory.
func TestLightLaneQueueBounded(t *testing.T) {
	small := newCacheWorld(t, 3)
	for range cap(lightLane.slots) {
		lightLane.slots <- struct{}{}
	}
	defer func() {
		for range cap(lightLane.slots) {
			<-lightLane.slots
		}
	}()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	d := document.New(&signflow.ContractView{Contract: small.c}, nil, "en", document.Options{})
	for range lightLane.maxWaiting {
		wg.Go(func() { renderIn(ctx, &bytes.Buffer{}, d) })
	}
	waitFor(t, func() bool { return lightLane.waiting.Load() == lightLane.maxWaiting })
	_, err := small.get(context.Background(), NewCache(DefaultCacheBytes), "uz")
	var busy *BusyError
	if !errors.As(err, &busy) || signflow.ErrorCode(err) != signflow.EUNAVAILABLE || busy.RetryAfter() != busyWait {
		t.Fatalf("a render past the light queue: %v", err)
	}
	cancel()
	wg.Wait()
}
