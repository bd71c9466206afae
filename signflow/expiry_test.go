package signflow_test

import (
	"context"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"
)

type sweep struct {
	n   int
	err error
}

// An expired session is refused before any sweep; the sweeper, driven by
// injected ticks, stores it as EXPIRED with a SESSION_CLOSED audit event;
// a new session opens and signs afterwards; Shutdown stops the loop.
func TestSweeperExpiresSessions(t *testing.T) {
	eachEngine(t, func(t *testing.T, e engine) {
		p := newPeersOn(t, e.open(t))
		tok := p.open(t, p.c.ID, fixture.CustomerIN)
		code := p.send(t, tok, custPhone)
		live := p.open(t, p.c.ID, peerIN) // opened later: still valid after the first expires
		p.Clock.Advance(29 * time.Minute)
		live2 := p.open(t, p.c.ID, peerIN)
		p.Clock.Advance(time.Minute) // the first two sessions are now exactly at expiresAt

		if _, err := p.Service.SigningSession(tok); err != signflow.ErrSessionExpired {
			t.Fatalf("page of an expired session before the sweep: %v", err)
		}
		if _, err := p.Service.ConfirmCode(tok, code, signflow.Actor{}); err != signflow.ErrSessionExpired {
			t.Fatalf("right code on an expired session: %v", err)
		}

		ticks := make(chan time.Time)
		results := make(chan sweep, 1)
		w := signflow.NewSweeper(p.Service, signflow.SweeperOptions{Ticks: ticks, OnSweep: func(n int, err error) { results <- sweep{n, err} }})
		w.Start()
		ticks <- p.Clock.Now()
		if r := <-results; r.err != nil || r.n != 2 {
			t.Fatalf("first sweep closed %d (%v), want 2", r.n, r.err)
		}
		ticks <- p.Clock.Now()
		if r := <-results; r.err != nil || r.n != 0 {
			t.Fatalf("second sweep closed %d (%v), want 0", r.n, r.err)
		}

		var first, second *signflow.SignSession
		fixture.Must(t, func() error {
			return p.Store.View(func(tx signflow.Tx) (err error) {
				if first, err = tx.SessionByToken(signflow.HashSecret(tok)); err == nil {
					second, err = tx.SessionByToken(signflow.HashSecret(live2))
				}
				return err
			})
		})
		if first.Status != signflow.SessionExpired || first.CompletedAt == nil || !first.CompletedAt.Equal(first.ExpiresAt) || first.OTP.CodeHash != nil {
			t.Fatalf("swept session %+v", first)
		}
		if second.Status != signflow.SessionPending {
			t.Fatalf("unexpired session %s", second.Status)
		}
		if types := auditTypes(t, p.Service, p.c.ID); count(types, signflow.AuditSessionClosed) != 2 {
			t.Fatalf("audit %v", types)
		}
		if _, err := p.Service.SigningSession(live); err != signflow.ErrSessionExpired {
			t.Fatalf("swept session page: %v", err)
		}

		fresh := p.open(t, p.c.ID, fixture.CustomerIN)
		if _, err := p.Service.ConfirmCode(fresh, p.send(t, fresh, custPhone), signflow.Actor{}); err != nil {
			t.Fatalf("new session after expiry: %v", err)
		}

		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := w.Shutdown(ctx); err != nil {
			t.Fatal(err)
		}
		if err := w.Shutdown(ctx); err != nil {
			t.Fatalf("second shutdown: %v", err)
		}
		select {
		case ticks <- time.Now():
			t.Fatal("the loop still reads ticks after Shutdown")
		default:
		}
	})
}

// A sweep closes more sessions than one batch holds.
func TestExpireSessionsInBatches(t *testing.T) {
	eachEngine(t, func(t *testing.T, e engine) {
		p := newPeersOn(t, e.open(t))
		for i := 0; i < 450; i++ {
			p.open(t, p.c.ID, fixture.CustomerIN)
		}
		p.Clock.Advance(time.Hour)
		n, err := p.Service.ExpireSessions()
		if err != nil || n != 450 {
			t.Fatalf("closed %d (%v), want 450", n, err)
		}
		if n, _ := p.Service.ExpireSessions(); n != 0 {
			t.Fatalf("second run closed %d", n)
		}
	})
}
