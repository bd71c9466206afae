package storagetest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"contracts/signflow"
)

func requestsOf(t *testing.T, s signflow.Store) signflow.Requests {
	t.Helper()
	r, ok := s.(signflow.Requests)
	if !ok {
		t.Fatalf("%T keeps no idempotency keys", s)
	}
	return r
}

// testRequests: a key claimed once, seen by another process while it runs
// and once finished, apart for each caller, freed by a release, taken
// again once expired, and purged after its time.
func testRequests(t *testing.T, e Engine) {
	ctx := context.Background()
	s := e.Open(t)
	db, peer := requestsOf(t, s), requestsOf(t, e.peer(t, s))
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	req := func(caller string) *signflow.IdempotentRequest {
		return &signflow.IdempotentRequest{Caller: caller, Key: "order-1", Fingerprint: []byte{1, 2},
			ExpiresAt: now.Add(time.Minute)}
	}
	if held, err := db.ClaimRequest(ctx, req("app-a"), now); err != nil || held != nil {
		t.Fatalf("a first claim: %+v, %v", held, err)
	}
	held, err := peer.ClaimRequest(ctx, req("app-a"), now)
	if err != nil || held == nil || held.Done || string(held.Fingerprint) != "\x01\x02" {
		t.Fatalf("a repeat while running: %+v, %v", held, err)
	}
	if held, err := peer.ClaimRequest(ctx, req("app-b"), now); err != nil || held != nil {
		t.Fatalf("another caller's same key: %+v, %v", held, err)
	}
	done := req("app-a")
	done.Done, done.Status, done.Body = true, 200, []byte(`{"id":"x"}`)
	done.Header = map[string]string{"Content-Type": "application/json"}
	done.ExpiresAt = now.Add(24 * time.Hour)
	must(t, db.FinishRequest(ctx, done))
	held, err = peer.ClaimRequest(ctx, req("app-a"), now.Add(time.Hour))
	if err != nil || held == nil || !held.Done || held.Status != 200 || string(held.Body) != `{"id":"x"}` ||
		held.Header["Content-Type"] != "application/json" {
		t.Fatalf("a repeat once finished: %+v, %v", held, err)
	}
	must(t, peer.ReleaseRequest(ctx, "app-b", "order-1"))
	if held, _ := db.ClaimRequest(ctx, req("app-b"), now); held != nil {
		t.Fatalf("a released key is still held: %+v", held)
	}
	// app-b's claim lapses at now+1m; app-a's answer at now+24h.
	if held, _ := db.ClaimRequest(ctx, req("app-b"), now.Add(time.Minute)); held != nil {
		t.Fatalf("an expired claim still holds: %+v", held)
	}
	n, err := db.PurgeRequests(ctx, now.Add(2*time.Minute), 100)
	if err != nil || n != 1 {
		t.Fatalf("purge at +2m: %d, %v; want 1 (app-b's claim)", n, err)
	}
	if held, _ := peer.ClaimRequest(ctx, req("app-a"), now.Add(2*time.Minute)); held == nil || !held.Done {
		t.Fatalf("a purge took a kept answer: %+v", held)
	}
	if n, err := db.PurgeRequests(ctx, now.Add(25*time.Hour), 100); err != nil || n != 1 {
		t.Fatalf("purge at +25h: %d, %v; want 1", n, err)
	}
	if held, _ := db.ClaimRequest(ctx, req("app-a"), now.Add(25*time.Hour)); held != nil {
		t.Fatalf("a purged key is still held: %+v", held)
	}
}

// testRequestsRace: of many processes claiming one key at once, exactly
// one gets it.
func testRequestsRace(t *testing.T, e Engine) {
	ctx := context.Background()
	s := e.Open(t)
	stores := []signflow.Requests{requestsOf(t, s), requestsOf(t, e.peer(t, s))}
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for round := range 5 {
		var wg sync.WaitGroup
		var mu sync.Mutex
		claimed := 0
		for i := range 16 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := &signflow.IdempotentRequest{Caller: "app", Key: fmt.Sprint("k", round), ExpiresAt: now.Add(time.Minute)}
				held, err := stores[i%2].ClaimRequest(ctx, r, now)
				if err != nil {
					t.Error(err)
					return
				}
				if held == nil {
					mu.Lock()
					claimed++
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		if claimed != 1 {
			t.Fatalf("round %d: %d claims won, want 1", round, claimed)
		}
	}
}
