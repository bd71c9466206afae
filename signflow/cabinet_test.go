package signflow_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// noPhoneIN is a registered company without a phone.
const noPhoneIN = "305555555"

// browser is the login page's binding of the tests' browser.
const browser = "binding-of-the-test-browser"

// cabinetWorld is the peers world with its cabinet and a company that has
// no phone.
type cabinetWorld struct {
	*peers
	cab *signflow.Cabinet
}

func newCabinetWorld(t *testing.T) *cabinetWorld {
	t.Helper()
	p := newPeers(t)
	fixture.MustClaim(t, p.Service, fixture.OwnerIN, &signflow.Client{IN: noPhoneIN, Type: signflow.ClientCompany, LegalName: "Silent LLC"})
	return &cabinetWorld{peers: p, cab: p.Service.Cabinet(signflow.CabinetOptions{IdleTimeout: 30 * time.Minute})}
}

// login asks for a code for a party with a phone and logs in with it.
func (w *cabinetWorld) login(t *testing.T, in, phone string) (string, *signflow.CabinetSession) {
	t.Helper()
	if _, err := w.cab.SendLoginCode(in, "en", browser, signflow.Actor{}); err != nil {
		t.Fatal(err)
	}
	token, s, err := w.cab.LogIn(in, lastCode(t, w.SMS, phone), browser, signflow.Actor{IP: "10.0.0.9"})
	if err != nil {
		t.Fatal(err)
	}
	return token, s
}

func wrongFor(code string) string {
	if code == "00000" {
		return "11111"
	}
	return "00000"
}

func TestCabinetLoginSendsACodeAndOpensASession(t *testing.T) {
	w := newCabinetWorld(t)
	sent, err := w.cab.SendLoginCode(" "+fixture.CustomerIN+" ", "en", browser, signflow.Actor{})
	if err != nil {
		t.Fatal(err)
	}
	if sent.ExpiresIn != 5*time.Minute || sent.ResendIn != time.Minute || sent.SendsLeft != signflow.LoginMaxSends-1 {
		t.Fatalf("answer %+v", sent)
	}
	m := w.SMS.Last()
	if m.Phone != custPhone || m.Text != "Your cabinet login code: "+lastCode(t, w.SMS, custPhone)+". Do not share it with anyone." {
		t.Fatalf("SMS %+v", m)
	}
	var stored *signflow.CabinetLogin
	fixture.Must(t, func() error {
		return w.DB.View(func(tx signflow.Tx) (err error) { stored, err = tx.CabinetLogin(fixture.CustomerIN); return err })
	})
	if len(stored.Requests) != 1 || len(stored.Requests[0].Codes) != 1 || len(stored.Requests[0].Codes[0].Hash) != 32 || stored.Requests[0].Sends != 1 {
		t.Fatalf("stored login %+v: want the code as an HMAC", stored)
	}

	token, s, err := w.cab.LogIn(fixture.CustomerIN, lastCode(t, w.SMS, custPhone), browser, signflow.Actor{IP: "10.0.0.9", UserAgent: "ua"})
	if err != nil {
		t.Fatal(err)
	}
	if len(token) < 40 || s.IN != fixture.CustomerIN || s.IP != "10.0.0.9" || !s.ExpiresAt.Equal(w.Clock.Now().Add(30*time.Minute)) {
		t.Fatalf("session %+v token %q", s, token)
	}
	got, err := w.cab.Session(token)
	if err != nil || got.IN != fixture.CustomerIN {
		t.Fatalf("session of the token: %+v %v", got, err)
	}
	// The code works once.
	if _, _, err := w.cab.LogIn(fixture.CustomerIN, lastCode(t, w.SMS, custPhone), browser, signflow.Actor{}); err != signflow.ErrNoCode {
		t.Fatalf("code used twice: %v", err)
	}
	if err := w.cab.LogOut(token); err != nil {
		t.Fatal(err)
	}
	if _, err := w.cab.Session(token); err != signflow.ErrCabinetSession {
		t.Fatalf("session after logout: %v", err)
	}
}

// Wrong codes count down; the fifth in a row locks the number for 15
// minutes (no code is sent or accepted meanwhile); then it works again.
func TestCabinetFiveWrongCodesLockTheNumber(t *testing.T) {
	w := newCabinetWorld(t)
	if _, err := w.cab.SendLoginCode(fixture.CustomerIN, "uz", browser, signflow.Actor{}); err != nil {
		t.Fatal(err)
	}
	code := lastCode(t, w.SMS, custPhone)
	for left := 4; left >= 1; left-- {
		_, _, err := w.cab.LogIn(fixture.CustomerIN, wrongFor(code), browser, signflow.Actor{})
		var we *signflow.WrongCodeError
		if !errors.As(err, &we) || we.Left != left || signflow.ErrorCode(err) != signflow.EINVALID {
			t.Fatalf("wrong code with %d left: %v", left, err)
		}
	}
	_, _, err := w.cab.LogIn(fixture.CustomerIN, wrongFor(code), browser, signflow.Actor{})
	var locked *signflow.LoginLockedError
	if !errors.As(err, &locked) || locked.After != 15*time.Minute || signflow.ErrorCode(err) != signflow.ERATELIMIT {
		t.Fatalf("fifth wrong code: %v", err)
	}
	w.Clock.Advance(14 * time.Minute)
	if _, _, err := w.cab.LogIn(fixture.CustomerIN, code, browser, signflow.Actor{}); !errors.As(err, &locked) || locked.After != time.Minute {
		t.Fatalf("right code while locked: %v", err)
	}
	if _, err := w.cab.SendLoginCode(fixture.CustomerIN, "uz", browser, signflow.Actor{}); !errors.As(err, &locked) {
		t.Fatalf("send while locked: %v", err)
	}
	w.Clock.Advance(time.Minute)
	if _, _, err := w.cab.LogIn(fixture.CustomerIN, code, browser, signflow.Actor{}); err != signflow.ErrNoCode {
		t.Fatalf("the code of before the lock: %v", err)
	}
	w.login(t, fixture.CustomerIN, custPhone)
}

// A number that is unknown, or registered without a phone, is answered
// exactly as one with a phone: the same answer, the same waits, every
// code wrong, the same lock. Only no SMS goes out.
func TestCabinetUnknownNumbersAreAnsweredAlike(t *testing.T) {
	w := newCabinetWorld(t)
	known, err := w.cab.SendLoginCode(fixture.CustomerIN, "en", browser, signflow.Actor{})
	if err != nil {
		t.Fatal(err)
	}
	sms := len(w.SMS.Sent)
	for _, in := range []string{fixture.UnknownIN, noPhoneIN} {
		sent, err := w.cab.SendLoginCode(in, "en", browser, signflow.Actor{})
		if err != nil || *sent != *known {
			t.Fatalf("%s: %+v %v, want %+v", in, sent, err, known)
		}
		var wait *signflow.ResendWaitError
		if _, err := w.cab.SendLoginCode(in, "en", browser, signflow.Actor{}); !errors.As(err, &wait) {
			t.Fatalf("%s: second send at once: %v", in, err)
		}
		for left := 4; left >= 1; left-- {
			var we *signflow.WrongCodeError
			if _, _, err := w.cab.LogIn(in, "12345", browser, signflow.Actor{}); !errors.As(err, &we) || we.Left != left {
				t.Fatalf("%s: code with %d left: %v", in, left, err)
			}
		}
		var locked *signflow.LoginLockedError
		if _, _, err := w.cab.LogIn(in, "54321", browser, signflow.Actor{}); !errors.As(err, &locked) {
			t.Fatalf("%s: fifth code: %v", in, err)
		}
	}
	if len(w.SMS.Sent) != sms {
		t.Fatalf("SMS sent for numbers without a phone: %+v", w.SMS.Sent[sms:])
	}
	if _, err := w.cab.SendLoginCode("12345", "en", browser, signflow.Actor{}); err != signflow.ErrLoginNumber {
		t.Fatalf("malformed number: %v", err)
	}
	if _, _, err := w.cab.LogIn(fixture.CustomerIN, "12a45", browser, signflow.Actor{}); err != signflow.ErrCodeFormat {
		t.Fatalf("malformed code: %v", err)
	}
}

// Resend waits 60 s; at most 5 codes per 15 minutes; a code lives OTPTTL;
// a new code replaces the old one.
func TestCabinetLoginCodeLimits(t *testing.T) {
	w := newCabinetWorld(t)
	if _, _, err := w.cab.LogIn(fixture.CustomerIN, "12345", browser, signflow.Actor{}); err != signflow.ErrNoCode {
		t.Fatalf("code before any was sent: %v", err)
	}
	var first string
	for i := 1; i <= signflow.LoginMaxSends; i++ {
		if _, err := w.cab.SendLoginCode(fixture.CustomerIN, "en", browser, signflow.Actor{}); err != nil {
			t.Fatalf("send %d: %v", i, err)
		}
		if i == 1 {
			first = lastCode(t, w.SMS, custPhone)
		}
		want := time.Minute
		if i == signflow.LoginMaxSends {
			want = 15*time.Minute - time.Duration(i-1)*time.Minute // the rest of the window
		}
		var wait *signflow.ResendWaitError
		if _, err := w.cab.SendLoginCode(fixture.CustomerIN, "en", browser, signflow.Actor{}); !errors.As(err, &wait) || wait.After != want {
			t.Fatalf("send %d again at once: %v, want a wait of %v", i, err, want)
		}
		w.Clock.Advance(time.Minute)
	}
	var wait *signflow.ResendWaitError
	if _, err := w.cab.SendLoginCode(fixture.CustomerIN, "en", browser, signflow.Actor{}); !errors.As(err, &wait) || wait.After != 10*time.Minute {
		t.Fatalf("sixth send in the window: %v", err)
	}
	last := lastCode(t, w.SMS, custPhone)
	if first != last {
		if _, _, err := w.cab.LogIn(fixture.CustomerIN, first, browser, signflow.Actor{}); signflow.ErrorCode(err) != signflow.EINVALID {
			t.Fatalf("a replaced code: %v", err)
		}
	}
	w.Clock.Advance(4 * time.Minute) // the last code was sent 1 min ago: 5 min in all
	if _, _, err := w.cab.LogIn(fixture.CustomerIN, last, browser, signflow.Actor{}); err != signflow.ErrCodeExpired {
		t.Fatalf("expired code: %v", err)
	}
	w.Clock.Advance(6 * time.Minute) // the window is over
	w.login(t, fixture.CustomerIN, custPhone)
}

// The idle time-out ends a session left alone; requests keep it alive,
// but never past CabinetMaxAge.
func TestCabinetSessionIdleTimeout(t *testing.T) {
	w := newCabinetWorld(t)
	token, _ := w.login(t, fixture.CustomerIN, custPhone)
	w.Clock.Advance(29 * time.Minute)
	if _, err := w.cab.Session(token); err != nil {
		t.Fatalf("after 29 idle minutes: %v", err)
	}
	w.Clock.Advance(29 * time.Minute)
	if _, err := w.cab.Session(token); err != nil {
		t.Fatalf("29 minutes after the last request: %v", err)
	}
	w.Clock.Advance(30 * time.Minute)
	if _, err := w.cab.Session(token); err != signflow.ErrCabinetSession {
		t.Fatalf("after 30 idle minutes: %v", err)
	}

	token, _ = w.login(t, fixture.CustomerIN, custPhone)
	for range 12 * 3 {
		w.Clock.Advance(20 * time.Minute)
		if _, err := w.cab.Session(token); err != nil {
			break
		}
	}
	if _, err := w.cab.Session(token); err != signflow.ErrCabinetSession {
		t.Fatalf("an active session past 12 hours: %v", err)
	}
	if _, err := w.cab.Session(""); err != signflow.ErrCabinetSession {
		t.Fatalf("no token: %v", err)
	}
}

func TestCabinetCSRFToken(t *testing.T) {
	w := newCabinetWorld(t)
	tok := w.cab.CSRFToken("binding-a")
	if tok == "" || tok != w.cab.CSRFToken("binding-a") || tok == w.cab.CSRFToken("binding-b") {
		t.Fatalf("tokens %q %q", tok, w.cab.CSRFToken("binding-b"))
	}
	for _, c := range []struct{ binding, token string }{{"binding-a", ""}, {"", tok}, {"binding-b", tok}, {"binding-a", tok + "x"}} {
		if err := w.cab.CheckCSRF(c.binding, c.token); err != signflow.ErrCSRF {
			t.Errorf("CheckCSRF(%q, %q) = %v", c.binding, c.token, err)
		}
	}
	if err := w.cab.CheckCSRF("binding-a", tok); err != nil {
		t.Fatal(err)
	}
	other := signflow.NewService(w.DB, fixture.Configured(signflow.Options{Secret: []byte("another secret")})).Cabinet(signflow.CabinetOptions{IdleTimeout: fixture.CabinetIdle()})
	if other.CSRFToken("binding-a") == tok {
		t.Fatal("the token does not depend on the service secret")
	}
}

// failingSMS refuses every message as an unavailable provider would.
type failingSMS struct{ calls int }

func (f *failingSMS) Send(context.Context, string, string) error {
	f.calls++
	return signflow.Errorf(signflow.EUNAVAILABLE, "The SMS service did not answer.")
}

// A send the provider refuses is not told to the caller, whose answer is
// the one every number gets: the code stays counted and a new one may be
// asked for after the usual wait.
func TestCabinetFailedSendIsNotTold(t *testing.T) {
	sms := &failingSMS{}
	w := fixture.New(t, signflow.Options{SMS: sms})
	fixture.MustClaim(t, w.Service, fixture.OwnerIN, &signflow.Client{IN: fixture.CustomerIN, FirstName: "A", LastName: "K", Phone: custPhone})
	cab := w.Service.Cabinet(signflow.CabinetOptions{IdleTimeout: fixture.CabinetIdle()})
	sent, err := cab.SendLoginCode(fixture.CustomerIN, "en", browser, signflow.Actor{})
	if err != nil || sent.SendsLeft != signflow.LoginMaxSends-1 || sms.calls != 1 {
		t.Fatalf("send: %+v %v, provider called %d times", sent, err, sms.calls)
	}
	var wait *signflow.ResendWaitError
	if _, err := cab.SendLoginCode(fixture.CustomerIN, "en", browser, signflow.Actor{}); !errors.As(err, &wait) {
		t.Fatalf("second send at once: %v", err)
	}
	var wrong *signflow.WrongCodeError
	if _, _, err := cab.LogIn(fixture.CustomerIN, "12345", browser, signflow.Actor{}); !errors.As(err, &wrong) {
		t.Fatalf("login after a failed send: %v", err)
	}
}
