package cabinet_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"contracts/internal/apitest"
	"contracts/internal/fixture"
	"contracts/signflow"
)

// A stranger's five wrong codes lock the stranger's address out of the
// number, again and again, but never the person: from another address the
// person logs in. Codes are bound to the browser that asked for them, so
// the stranger's guesses never spend the person's code.
func TestLoginLockIsPerAddress(t *testing.T) {
	e := newEnv(t, options{})
	stranger := e.browserFrom(t, "127.0.0.2")
	// lockOut has the stranger ask for a code (it goes to the person's
	// phone; the stranger never sees it) and enter five wrong ones.
	lockOut := func(round int, avoid string) {
		t.Helper()
		if r := stranger.sendCode(fixture.CustomerIN); r.Status != 200 {
			t.Fatalf("round %d: the stranger's code request: %d %v", round, r.Status, r.Header)
		}
		sent := lastCode(t, e.SMS, custPhone)
		guess := fixture.NotCode(sent)
		if guess == avoid {
			guess = fixture.NotCode(guess)
		}
		for left := 4; left >= 1; left-- {
			r := stranger.post("/cabinet/api/login", map[string]string{"number": fixture.CustomerIN, "code": guess})
			if r.Status != 400 || r.Header.Get("X-Attempts-Left") != itoa(left) {
				t.Fatalf("round %d: wrong code, %d left: %d %v", round, left, r.Status, r.Header)
			}
		}
		r := stranger.post("/cabinet/api/login", map[string]string{"number": fixture.CustomerIN, "code": guess})
		if r.Status != 429 || r.Header.Get("X-Sign-Reason") != "locked" || r.Header.Get("Retry-After") != "900" {
			t.Fatalf("round %d: the fifth wrong code: %d %v", round, r.Status, r.Header)
		}
		for _, r := range []apitest.Reply{stranger.post("/cabinet/api/login/code", map[string]string{"number": fixture.CustomerIN}),
			stranger.post("/cabinet/api/login", map[string]string{"number": fixture.CustomerIN, "code": sent})} {
			if r.Status != 429 || r.Header.Get("X-Sign-Reason") != "locked" {
				t.Fatalf("round %d: the stranger while locked: %d %v", round, r.Status, r.Header)
			}
		}
	}

	// The person asks for a code; then the stranger locks its own address
	// out. The person's code, of another browser, is not spent.
	person := e.browserFrom(t, "127.0.0.3")
	if r := person.sendCode(fixture.CustomerIN); r.Status != 200 {
		t.Fatalf("the person's code: %d", r.Status)
	}
	code := lastCode(t, e.SMS, custPhone)
	e.Clock.Advance(signflow.ResendAfter)
	lockOut(1, code)
	if r := person.post("/cabinet/api/login", map[string]string{"number": fixture.CustomerIN, "code": code}); r.Status != 200 {
		t.Fatalf("the person's code after the stranger's lock: %d %s", r.Status, r.Body)
	}

	// The stranger renews its lock as often as it likes; each time the
	// person, from its own address, asks for a code and logs in.
	for round := 2; round <= 3; round++ {
		e.Clock.Advance(signflow.LoginLockTime)
		lockOut(round, "")
		e.Clock.Advance(signflow.ResendAfter)
		again := e.browserFrom(t, "127.0.0.3")
		again.login(fixture.CustomerIN, custPhone)
	}
	if r := stranger.post("/cabinet/api/login/code", map[string]string{"number": fixture.CustomerIN}); r.Status != 429 {
		t.Fatalf("the stranger, still locked: %d", r.Status)
	}
}

// Login codes go out in the background: the answer for a registered
// number does not wait for the SMS gateway, so it is the answer an unknown
// number gets, as quickly, whether the gateway is slow, holds the message
// or refuses it. A refusal is logged without the code; the code stays
// counted, and a new one comes after the usual wait.
func TestLoginCodeDoesNotWaitForTheGateway(t *testing.T) {
	e := newEnv(t, options{gateway: true})
	strip := func(r apitest.Reply) string {
		m := r.JSON(t)
		delete(m, "timestamp")
		return itoa(r.Status) + " " + r.Header.Get("X-Sign-Reason") + " " + r.Header.Get("Retry-After") + " " + toJSON(m)
	}
	asked := map[string]*browser{} // the last browser that asked, by number
	ask := func(in string) (apitest.Reply, time.Duration) {
		b := e.browser(t)
		asked[in] = b
		b.get("/cabinet?lang=en")
		answered := make(chan apitest.Reply, 1)
		start := time.Now()
		go func() { answered <- b.post("/cabinet/api/login/code", map[string]string{"number": in}) }()
		select {
		case r := <-answered:
			return r, time.Since(start)
		case <-time.After(10 * time.Second):
			t.Fatalf("the code request for %s waited for the gateway", in)
			return apitest.Reply{}, 0
		}
	}

	e.gateway.Hold()
	known, tKnown := ask(fixture.CustomerIN)
	e.gateway.WaitRequests(t, 1) // the text reached the gateway, which holds it
	unknown, tUnknown := ask(fixture.UnknownIN)
	if strip(known) != strip(unknown) || known.Status != 200 {
		t.Fatalf("registered %s\nunknown    %s", strip(known), strip(unknown))
	}
	t.Logf("answer with the gateway holding the text: registered %v, unknown %v", tKnown, tUnknown)
	if e.SMS.Count() != 0 {
		t.Fatal("the text was delivered while the gateway held it")
	}
	e.gateway.Release()
	code := lastCode(t, e.SMS, custPhone)
	b := e.browser(t)
	b.get("/cabinet")
	if r := b.post("/cabinet/api/login", map[string]string{"number": fixture.CustomerIN, "code": code}); r.Status != 400 || r.Header.Get("X-Sign-Reason") != "no-code" {
		t.Fatalf("a code used from another browser: %d %v", r.Status, r.Header)
	}

	// The gateway refuses: the same answers, the failure logged without the code.
	e.Clock.Advance(signflow.LoginWindow)
	e.gateway.Fail(true)
	refused, _ := ask(fixture.CustomerIN)
	e.gateway.WaitRequests(t, 2)
	unknown, _ = ask(fixture.UnknownIN)
	if strip(refused) != strip(unknown) {
		t.Fatalf("with a refusing gateway, registered %s\nunknown %s", strip(refused), strip(unknown))
	}
	if err := e.texts.Shutdown(context.Background()); err != nil { // the senders are done: the log is complete
		t.Fatal(err)
	}
	if log := e.textLog.String(); !strings.Contains(log, "SMS not sent") || !strings.Contains(log, "+99890*****67") ||
		strings.Contains(log, custPhone) || strings.Contains(log, "login code") {
		t.Fatalf("the failure log: %s", log)
	}
	// The same browser asking again at once waits, for either number.
	again := func(in string) string {
		b := asked[in]
		return strip(b.post("/cabinet/api/login/code", map[string]string{"number": in}))
	}
	if k, u := again(fixture.CustomerIN), again(fixture.UnknownIN); k != u || !strings.HasPrefix(k, "429 resend-wait") {
		t.Fatalf("asking again at once: registered %s, unknown %s", k, u)
	}
}
