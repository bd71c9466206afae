package pdf

import (
	"context"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// What the tenant next door sees under the review's third finding: while
// tenant A has several of its 190-product contracts (long names, long
// field values) rendering, tenant B's ordinary two-page contract PDF is
// answered within a second, as it is on an idle appliance.
func TestOtherTenantsPDFUnderHeavyRenders(t *testing.T) {
	w := fixture.NewStandard(t)
	in := &signflow.ContractInput{TemplateID: w.Template.ID, BuyerIN: fixture.CustomerIN, Price: 150000}
	for i := range 190 {
		in.Products = append(in.Products, signflow.Product{Name: strings.Repeat("Televizor ", 50)[:497] + string(rune('A'+i%26)),
			Quantity: 1, Price: 150000, Values: map[string]any{"color": strings.Repeat("graphite ", 555)}})
	}
	a, b := w.Access(t, w.AppA), w.Access(t, w.AppB)
	hostile, err := w.Service.CreateContract(a, in, signflow.Actor{IP: "10.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	ordinary, err := w.Service.CreateContract(b, &signflow.ContractInput{TemplateID: w.Template.ID, BuyerIN: fixture.CustomerIN,
		Price: 150000, Products: []signflow.Product{{Name: "Televizor", Quantity: 1, Price: 150000}}}, signflow.Actor{IP: "10.0.0.2"})
	if err != nil {
		t.Fatal(err)
	}
	// Each request a cache of its own, so that every one renders.
	render := func(ctx context.Context, acc *signflow.Access, c *signflow.Contract) error {
		v, err := w.Service.Contract(acc, c.ID)
		if err != nil {
			return err
		}
		_, err = NewCache(DefaultCacheBytes).Contract(ctx, v, nil, "en", signflow.VerifyURL("https://sign.example", c))
		return err
	}

	// More heavy renders in flight than the light lane has slots.
	hostiles := cap(lightLane.slots) + 2
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	var refused atomic.Int32 // past a full queue, on a machine of many CPUs
	for range hostiles {
		wg.Go(func() {
			if render(ctx, a, hostile) != nil {
				refused.Add(1)
			}
		})
	}
	waitFor(t, func() bool {
		in := len(heavyLane.slots) + len(lightLane.slots) + int(heavyLane.waiting.Load()+lightLane.waiting.Load())
		return in+int(refused.Load()) == hostiles
	})
	// The first request meets the whole load (without the heavy lane it
	// waits for the heavy renders to end, then the rest pass): each is
	// checked, the median against a second and every one against a
	// bound that only a wait behind the heavy renders exceeds.
	var took []time.Duration
	for range 3 {
		start := time.Now()
		if err := render(context.Background(), b, ordinary); err != nil {
			t.Fatal(err)
		}
		took = append(took, time.Since(start))
	}
	t.Logf("B's PDF took %v", took)
	sorted := slices.Sorted(slices.Values(took))
	if sorted[1] > time.Second || sorted[2] > 3*time.Second {
		t.Fatalf("B's two-page PDF took %v behind %d heavy renders of A", took, hostiles)
	}
}
