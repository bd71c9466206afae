package cabinet_test

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// The review's second finding: five login-code requests for a number from
// fresh cookie jars, 61 s apart, and the person's own request got 429 "A
// new code can be sent in 592 seconds"; repeated, it kept the person out
// and texted the person's phone each time. Now each browser waits only for
// its own codes; strangers' browsers together text the phone at most
// ratelimit.cabinetCodesPerNumberPerDay (10) times a day; and the browser
// the person logged in with before still gets its code past that.
func TestStrangersNeitherKeepThePersonOutNorTextWithoutEnd(t *testing.T) {
	e := newEnv(t, options{codesPerDay: 10})

	// The person logged in once before on their own browser, which keeps
	// its mark when the session ends.
	person := e.browserFrom(t, "127.0.0.3")
	person.login(fixture.CustomerIN, custPhone)
	if r := person.post("/cabinet/api/logout", nil); r.Status != 204 {
		t.Fatalf("log out: %d", r.Status)
	}
	texts := e.SMS.Count()

	// The review's five requests, then the person's: a code, no wait.
	for i := range 5 {
		if r := e.browserFrom(t, fmt.Sprintf("127.0.1.%d", i+1)).sendCode(fixture.CustomerIN); r.Status != 200 {
			t.Fatalf("stranger %d: %d %s", i+1, r.Status, r.Body)
		}
		e.Clock.Advance(61 * time.Second)
	}
	e.SMS.WaitFor(t, texts+5)
	e.SMS.Newest(t, custPhone)                // the strangers' texts are read: the next is the person's
	newcomer := e.browserFrom(t, "127.0.0.4") // the person on a browser never used
	if r := newcomer.sendCode(fixture.CustomerIN); r.Status != 200 {
		t.Fatalf("the person's own request after five strangers': %d %s", r.Status, r.Body)
	}
	code := lastCode(t, e.SMS, custPhone)

	// Strangers from 20 more browsers and addresses: the day's texts from
	// browsers the number does not know stop at 10 (the person's first
	// login counted too).
	refused := 0
	for i := range 20 {
		r := e.browserFrom(t, fmt.Sprintf("127.0.2.%d", i+1)).sendCode(fixture.CustomerIN)
		switch r.Status {
		case 200:
		case 429:
			refused++
			if after, _ := strconv.Atoi(r.Header.Get("Retry-After")); r.Header.Get("X-Sign-Reason") != "resend-wait" || after <= 0 || after > 86400 {
				t.Fatalf("refusal past the cap: %v", r.Header)
			}
		default:
			t.Fatalf("stranger: %d %s", r.Status, r.Body)
		}
	}
	if sent := len(e.SMS.WaitFor(t, texts+9)) - texts; sent != 9 || refused != 17 {
		t.Fatalf("%d texts to the phone, %d requests refused; want 9 and 17", sent, refused)
	}
	e.SMS.Newest(t, custPhone)

	// The code the newcomer browser was sent is still good there.
	if r := newcomer.post("/cabinet/api/login", map[string]string{"number": fixture.CustomerIN, "code": code}); r.Status != 200 {
		t.Fatalf("the code already sent, past the cap: %d %s", r.Status, r.Body)
	}
	// The person's known browser gets a code of its own and logs in.
	person.login(fixture.CustomerIN, custPhone)

	// The next day, strangers' browsers are counted afresh.
	e.Clock.Advance(signflow.LoginDay)
	if r := e.browserFrom(t, "127.0.3.1").sendCode(fixture.CustomerIN); r.Status != 200 {
		t.Fatalf("a day later: %d", r.Status)
	}
}
