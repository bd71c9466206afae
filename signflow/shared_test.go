package signflow_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"
	"contracts/storage/postgres"
	"contracts/storage/postgres/pgtest"
)

// Two processes on one PostgreSQL database: a secret rotated, an app
// cancelled or a key revoked through one stops working through the other
// at once, though the other has the app in its cache.
func TestCredentialChangesHoldInEveryProcessAtOnce(t *testing.T) {
	url := pgtest.NewDatabase(t)
	w := fixture.NewStandardOn(t, pgtest.OpenURL(t, url))
	other := signflow.NewService(pgtest.OpenURL(t, url), w.Options)

	token, err := other.IssueToken(w.AppA.ID, w.AppA.Secret)
	if err != nil {
		t.Fatal(err)
	}
	// The second process checks the token: the app is in its cache now.
	for range 2 {
		if _, err := other.AuthenticateToken(token); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := other.AuthenticateKey(w.KeyA.Secret); err != nil {
		t.Fatal(err)
	}

	fresh, err := w.Service.RotateAppSecret(w.AppA.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.AuthenticateToken(token); signflow.ErrorCode(err) != signflow.EUNAUTHORIZED {
		t.Fatalf("a token of the old secret, through the other process: %v, want EUNAUTHORIZED", err)
	}
	if _, err := other.IssueToken(w.AppA.ID, w.AppA.Secret); signflow.ErrorCode(err) != signflow.EUNAUTHORIZED {
		t.Fatalf("the old secret, through the other process: %v, want EUNAUTHORIZED", err)
	}
	token, err = other.IssueToken(w.AppA.ID, fresh)
	if err != nil {
		t.Fatalf("the new secret, through the other process: %v", err)
	}
	if _, err := other.AuthenticateToken(token); err != nil {
		t.Fatal(err)
	}

	if err := w.Service.CancelApp(w.AppA.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := other.AuthenticateToken(token); err == nil {
		t.Fatal("a cancelled app's token still works through the other process")
	}

	if err := w.Service.RevokeKey(w.KeyA.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := other.AuthenticateKey(w.KeyA.Secret); signflow.ErrorCode(err) != signflow.EUNAUTHORIZED {
		t.Fatalf("a revoked key through the other process: %v, want EUNAUTHORIZED", err)
	}
	// An app the second process never changed keeps working there.
	tokenB, err := other.IssueToken(w.AppB.ID, w.AppB.Secret)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.AuthenticateToken(tokenB); err != nil {
		t.Fatal(err)
	}
}

// Sweepers of two processes on one database: while one sweeps, the
// other skips its tick; and sweeps that run at once anyway close each
// session once, with one audit event.
func TestOneProcessSweepsAtATime(t *testing.T) {
	url := pgtest.NewDatabase(t)
	first := pgtest.OpenURL(t, url)
	p := newPeersOn(t, first)
	other := signflow.NewService(pgtest.OpenURL(t, url), p.Options)
	for range 3 {
		p.open(t, p.c.ID, fixture.CustomerIN)
	}
	p.Clock.Advance(time.Hour)

	// The first process is sweeping (it holds the sweeper's lock).
	holding, release, done := make(chan struct{}), make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		ran, err := first.Exclusive(signflow.SweeperLock, func() error { close(holding); <-release; return nil })
		if !ran || err != nil {
			t.Errorf("the first sweep did not run: %v", err)
		}
	}()
	<-holding
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	t.Cleanup(func() { free(); <-done }) // before the stores close, even when the test fails
	ticks := make(chan time.Time)
	results := make(chan sweep, 1)
	w := signflow.NewSweeper(other, signflow.SweeperOptions{Ticks: ticks, OnSweep: func(n int, err error) { results <- sweep{n, err} }})
	w.Start()
	defer w.Shutdown(context.Background())
	ticks <- p.Clock.Now()
	if r := <-results; r.err != nil || r.n != 0 {
		t.Fatalf("the second sweeper closed %d (%v) while the first swept, want it to skip", r.n, r.err)
	}
	if types := auditTypes(t, p.Service, p.c.ID); count(types, signflow.AuditSessionClosed) != 0 {
		t.Fatalf("sessions closed while only a skipped sweep ran: %v", types)
	}
	free()
	<-done
	ticks <- p.Clock.Now()
	if r := <-results; r.err != nil || r.n != 3 {
		t.Fatalf("the second sweeper closed %d (%v) once the lock was free, want 3", r.n, r.err)
	}

	// Without the lock, two sweeps at once still close each session once.
	for range 40 {
		p.open(t, p.c.ID, fixture.CustomerIN)
	}
	p.Clock.Advance(time.Hour)
	var wg sync.WaitGroup
	closed := make([]int, 2)
	for i, svc := range []*signflow.Service{p.Service, other} {
		wg.Go(func() {
			n, err := svc.ExpireSessions()
			if err != nil {
				t.Error(err)
			}
			closed[i] = n
		})
	}
	wg.Wait()
	if closed[0]+closed[1] != 40 {
		t.Fatalf("the two sweeps closed %v sessions, want 40 in all", closed)
	}
	if types := auditTypes(t, p.Service, p.c.ID); count(types, signflow.AuditSessionClosed) != 43 {
		t.Fatalf("%d SESSION_CLOSED events, want 43", count(types, signflow.AuditSessionClosed))
	}
}

var _ signflow.Shared = (*postgres.Store)(nil)
