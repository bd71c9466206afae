package signflow_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// The caps per (creator's tenant, signer number) hold when the codes are
// sent and checked at once through two processes on one database: of 10
// sends over 10 contracts, exactly the cap go out, and of the wrong codes
// exactly the cap are checked before the rest are refused.
func TestPartyCapsHoldAcrossProcesses(t *testing.T) {
	eachEngine(t, func(t *testing.T, e engine) {
		store := e.open(t)
		p := newPeersOn(t, store)
		opt := p.Options
		opt.CodesPerPartyPerDay, opt.WrongCodesPerPartyPerDay = 6, 4
		svcs := []*signflow.Service{signflow.NewService(store, opt), signflow.NewService(store, opt)}
		if e.peer != nil {
			svcs[1] = signflow.NewService(e.peer(t, store), opt)
		}
		var toks []string
		for range 10 {
			toks = append(toks, p.open(t, p.contract(t).ID, fixture.CustomerIN))
		}
		run := func(fn func(i int) error) (ok, wrong, capped int) {
			errs := make([]error, len(toks))
			var wg sync.WaitGroup
			for i := range toks {
				wg.Go(func() { errs[i] = fn(i) })
			}
			wg.Wait()
			for _, err := range errs {
				var pc *signflow.PartyCapError
				var we *signflow.WrongCodeError
				switch {
				case err == nil:
					ok++
				case errors.As(err, &we):
					wrong++
				case errors.As(err, &pc):
					capped++
				}
			}
			return ok, wrong, capped
		}
		sent, _, capped := run(func(i int) error {
			_, err := svcs[i%2].SendCode(context.Background(), toks[i], signflow.Actor{})
			return err
		})
		if sent != 6 || capped != 4 {
			t.Fatalf("%d codes sent, %d capped; want 6 and 4", sent, capped)
		}
		// Six sessions hold a code: four wrong codes are checked, two capped.
		guess := "00000"
		for _, m := range p.SMS.WaitFor(t, 0) {
			if m.Code(t) == guess {
				guess = fixture.NotCode(guess)
			}
		}
		_, wrong, capped := run(func(i int) error {
			_, err := svcs[i%2].ConfirmCode(toks[i], guess, signflow.Actor{})
			return err
		})
		if wrong != 4 || capped != 2 {
			t.Fatalf("%d wrong codes checked, %d capped; want 4 and 2", wrong, capped)
		}
		// Whatever the order, the cap is reached: no more checks, sessions or codes.
		var pc *signflow.PartyCapError
		if _, wrong, capped := run(func(i int) error {
			_, err := svcs[i%2].ConfirmCode(toks[i], guess, signflow.Actor{})
			return err
		}); wrong != 0 || capped == 0 {
			t.Fatalf("checks past the wrong cap: %d wrong codes checked, %d capped", wrong, capped)
		}
		if _, _, err := svcs[1].OpenSession(p.app, p.contract(t).ID, signflow.SessionRequest{SignerIN: fixture.CustomerIN}, signflow.Actor{}); !errors.As(err, &pc) {
			t.Fatalf("a session past the wrong cap: %v", err)
		}
	})
}
