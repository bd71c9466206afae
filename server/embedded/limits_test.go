package embedded

import (
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// Each app's authenticated requests are limited per second
// (ratelimit.appPerSecond): 429 with Retry-After, on any route, without
// touching another app, and refilled with the clock.
func TestAppPerSecond(t *testing.T) {
	e := newEnvWith(t, func(d *Deps) { d.AppPerSecond = 3 }, nil)
	tokA, tokB := e.token(e.AppA), e.token(e.AppB)
	path := "/v1/clients/" + fixture.CustomerIN
	for i := range 3 {
		if r := e.do("GET", path, tokA, nil); r.Status != 200 {
			t.Fatalf("request %d: %d %s", i+1, r.Status, r)
		}
	}
	for _, p := range []string{path, "/v1/templates", "/v1/contracts/" + signflow.NewID()} {
		r := e.do("GET", p, tokA, nil)
		if r.Status != 429 || r.Header.Get("Retry-After") != "1" {
			t.Fatalf("%s past the app's limit: %d Retry-After %q %s", p, r.Status, r.Header.Get("Retry-After"), r)
		}
		e.api.Check(t, p, r)
	}
	if r := e.do("GET", path, tokB, nil); r.Status != 200 {
		t.Fatalf("another app: %d %s", r.Status, r)
	}
	if r := e.do("GET", path, "not.a.valid.token", nil); r.Status != 401 {
		t.Fatalf("a bad token is refused before the limit: %d %s", r.Status, r)
	}
	e.Clock.Advance(time.Second)
	if r := e.do("GET", path, tokA, nil); r.Status != 200 {
		t.Fatalf("a second later: %d %s", r.Status, r)
	}
}

// Past ratelimit.sessionsPerPartyPerHour, opening a session for the same
// party of the contract is 429 with Retry-After until the oldest of the
// hour's sessions turns an hour old.
func TestSessionsPerPartyPerHourOnTheWire(t *testing.T) {
	e := newEnvWith(t, nil, func(o *signflow.Options) { o.SessionsPerPartyPerHour = 2 })
	tok := e.token(e.AppA)
	id := e.createContract(tok, map[string]any{"templateId": e.Template.ID, "buyerIn": fixture.CustomerIN})
	path := "/v1/contracts/" + id + "/sign-sessions"
	body := map[string]any{"signerIn": fixture.CustomerIN}
	for i := range 2 {
		if r := e.do("POST", path, tok, body); r.Status != 200 {
			t.Fatalf("session %d: %d %s", i+1, r.Status, r)
		}
		e.Clock.Advance(15 * time.Minute)
	}
	r := e.do("POST", path, tok, body)
	if r.Status != 429 || r.Header.Get("Retry-After") != "1800" {
		t.Fatalf("3rd session: %d Retry-After %q %s", r.Status, r.Header.Get("Retry-After"), r)
	}
	e.api.Check(t, path, r)
	if r := e.do("POST", path, tok, map[string]any{"signerIn": fixture.OwnerIN}); r.Status != 200 {
		t.Fatalf("the other party: %d %s", r.Status, r)
	}
	e.Clock.Advance(30 * time.Minute)
	if r := e.do("POST", path, e.token(e.AppA), body); r.Status != 200 {
		t.Fatalf("once the first is an hour old: %d %s", r.Status, r)
	}
}
