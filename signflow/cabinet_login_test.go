package signflow_test

import (
	"errors"
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// Logging in as the cabinet's pages do it is checked by
// server/cabinet/login_test.go (TestLogin, TestLoginLockAfterFiveWrongCodes,
// TestLoginAnswersDoNotTellWhichNumbersExist, TestIdleTimeout),
// server/cabinet/login_abuse_test.go (TestLoginLockIsPerAddress) and, for
// the purge of what a login leaves, storage/storagetest/cabinet.go
// (testCabinetPurgeFollowsWrites) on both engines; the codes' limits are
// signflow/cabinet_test.go. Here, the rule of cabinet_login.go: a code is
// good only for the browser it was sent to and once, wrong codes in a row
// count and lock per address, bad input is refused, and the session opened
// reaches the contracts by the phone the code went to, until LogOut.
func TestCabinetLoginCodeIsTheBrowsersAndLocksPerAddress(t *testing.T) {
	w := newCabinetWorld(t)
	for name, tc := range map[string]struct {
		in, code, binding string
		want              error
	}{
		"bad number":  {"3123", "12345", browser, signflow.ErrLoginNumber},
		"bad code":    {fixture.CustomerIN, "12a45", browser, signflow.ErrCodeFormat},
		"no binding":  {fixture.CustomerIN, "12345", "", signflow.ErrCSRF},
		"never asked": {fixture.CustomerIN, "12345", browser, signflow.ErrNoCode},
	} {
		if _, _, err := w.cab.LogIn(tc.in, tc.code, tc.binding, signflow.Actor{IP: "10.0.0.1"}); err != tc.want {
			t.Errorf("%s: %v, want %v", name, err, tc.want)
		}
	}

	if _, err := w.cab.SendLoginCode(fixture.CustomerIN, "en", browser, signflow.Actor{}); err != nil {
		t.Fatal(err)
	}
	code := lastCode(t, w.SMS, custPhone)
	if _, _, err := w.cab.LogIn(fixture.CustomerIN, code, "another-browser", signflow.Actor{IP: "10.0.0.1"}); err != signflow.ErrNoCode {
		t.Errorf("the code from another browser: %v, want ErrNoCode", err)
	}
	for i := 1; i < signflow.LoginWrongLimit; i++ {
		_, _, err := w.cab.LogIn(fixture.CustomerIN, wrongFor(code), browser, signflow.Actor{IP: "10.0.0.66"})
		var wrong *signflow.WrongCodeError
		if !errors.As(err, &wrong) || wrong.Left != signflow.LoginWrongLimit-i {
			t.Fatalf("wrong code %d from one address: %v", i, err)
		}
	}
	token, s, err := w.cab.LogIn(fixture.CustomerIN, code, browser, signflow.Actor{IP: "10.0.0.1"})
	if err != nil {
		t.Fatalf("the right code from another address after wrong ones: %v", err)
	}
	if s.IN != fixture.CustomerIN || s.Phone != custPhone || s.Known == "" || s.Access().Phone != custPhone {
		t.Errorf("session %+v", s)
	}
	if _, _, err := w.cab.LogIn(fixture.CustomerIN, code, browser, signflow.Actor{IP: "10.0.0.1"}); err != signflow.ErrNoCode {
		t.Errorf("the code used twice: %v", err)
	}
	if got, err := w.cab.Session(token); err != nil || got.IN != fixture.CustomerIN {
		t.Fatalf("session of the token: %v, %v", got, err)
	}

	// The address's wrong codes outlive the other address's login: its
	// next wrong code locks it, and only it, out of the number.
	if _, err := w.cab.SendLoginCode(fixture.CustomerIN, "en", browser, signflow.Actor{}); err != nil {
		t.Fatal(err)
	}
	code = lastCode(t, w.SMS, custPhone)
	var locked *signflow.LoginLockedError
	if _, _, err := w.cab.LogIn(fixture.CustomerIN, wrongFor(code), browser, signflow.Actor{IP: "10.0.0.66"}); !errors.As(err, &locked) {
		t.Fatalf("wrong code %d in a row from one address: %v, want locked", signflow.LoginWrongLimit, err)
	}
	if _, _, err := w.cab.LogIn(fixture.CustomerIN, code, browser, signflow.Actor{IP: "10.0.0.66"}); !errors.As(err, &locked) {
		t.Errorf("the locked address with the right code: %v, want locked", err)
	}
	if _, _, err := w.cab.LogIn(fixture.CustomerIN, code, browser, signflow.Actor{IP: "10.0.0.1"}); err != signflow.ErrNoCode {
		t.Errorf("another address after the lock spent the request: %v, want ErrNoCode (not locked)", err)
	}

	fixture.Must(t, func() error { return w.cab.LogOut(token) })
	if _, err := w.cab.Session(token); err != signflow.ErrCabinetSession {
		t.Errorf("session after LogOut: %v", err)
	}
}
