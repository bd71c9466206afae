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

// cabinetWorld is the peers world with its cabinet and a company that has
// no phone.
type cabinetWorld struct {
	*peers
	cab *signflow.Cabinet
}

func newCabinetWorld(t *testing.T) *cabinetWorld {
	t.Helper()
	p := newPeers(t)
	fixture.Must(t, func() error {
		_, err := p.Service.RegisterClient(&signflow.Client{IN: noPhoneIN, Type: signflow.ClientCompany, LegalName: "Silent LLC"})
		return err
	})
	return &cabinetWorld{peers: p, cab: p.Service.Cabinet(signflow.CabinetOptions{IdleTimeout: 30 * time.Minute})}
}

// login asks for a code for a party with a phone and logs in with it.
func (w *cabinetWorld) login(t *testing.T, in, phone string) (string, *signflow.CabinetSession) {
	t.Helper()
	if _, err := w.cab.SendLoginCode(context.Background(), in, "en"); err != nil {
		t.Fatal(err)
	}
	token, s, err := w.cab.LogIn(in, lastCode(t, w.SMS, phone), signflow.Actor{IP: "10.0.0.9"})
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
	sent, err := w.cab.SendLoginCode(context.Background(), " "+fixture.CustomerIN+" ", "en")
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
	if len(stored.CodeHash) != 32 || stored.Sends != 1 {
		t.Fatalf("stored login %+v: want the code as an HMAC", stored)
	}

	token, s, err := w.cab.LogIn(fixture.CustomerIN, lastCode(t, w.SMS, custPhone), signflow.Actor{IP: "10.0.0.9", UserAgent: "ua"})
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
	if _, _, err := w.cab.LogIn(fixture.CustomerIN, lastCode(t, w.SMS, custPhone), signflow.Actor{}); err != signflow.ErrNoCode {
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
	if _, err := w.cab.SendLoginCode(context.Background(), fixture.CustomerIN, "uz"); err != nil {
		t.Fatal(err)
	}
	code := lastCode(t, w.SMS, custPhone)
	for left := 4; left >= 1; left-- {
		_, _, err := w.cab.LogIn(fixture.CustomerIN, wrongFor(code), signflow.Actor{})
		var we *signflow.WrongCodeError
		if !errors.As(err, &we) || we.Left != left || signflow.ErrorCode(err) != signflow.EINVALID {
			t.Fatalf("wrong code with %d left: %v", left, err)
		}
	}
	_, _, err := w.cab.LogIn(fixture.CustomerIN, wrongFor(code), signflow.Actor{})
	var locked *signflow.LoginLockedError
	if !errors.As(err, &locked) || locked.After != 15*time.Minute || signflow.ErrorCode(err) != signflow.ERATELIMIT {
		t.Fatalf("fifth wrong code: %v", err)
	}
	w.Clock.Advance(14 * time.Minute)
	if _, _, err := w.cab.LogIn(fixture.CustomerIN, code, signflow.Actor{}); !errors.As(err, &locked) || locked.After != time.Minute {
		t.Fatalf("right code while locked: %v", err)
	}
	if _, err := w.cab.SendLoginCode(context.Background(), fixture.CustomerIN, "uz"); !errors.As(err, &locked) {
		t.Fatalf("send while locked: %v", err)
	}
	w.Clock.Advance(time.Minute)
	if _, _, err := w.cab.LogIn(fixture.CustomerIN, code, signflow.Actor{}); err != signflow.ErrNoCode {
		t.Fatalf("the code of before the lock: %v", err)
	}
	w.login(t, fixture.CustomerIN, custPhone)
}

// A number that is unknown, or registered without a phone, is answered
// exactly as one with a phone: the same answer, the same waits, every
// code wrong, the same lock. Only no SMS goes out.
func TestCabinetUnknownNumbersAreAnsweredAlike(t *testing.T) {
	w := newCabinetWorld(t)
	ctx := context.Background()
	known, err := w.cab.SendLoginCode(ctx, fixture.CustomerIN, "en")
	if err != nil {
		t.Fatal(err)
	}
	sms := len(w.SMS.Sent)
	for _, in := range []string{fixture.UnknownIN, noPhoneIN} {
		sent, err := w.cab.SendLoginCode(ctx, in, "en")
		if err != nil || *sent != *known {
			t.Fatalf("%s: %+v %v, want %+v", in, sent, err, known)
		}
		var wait *signflow.ResendWaitError
		if _, err := w.cab.SendLoginCode(ctx, in, "en"); !errors.As(err, &wait) {
			t.Fatalf("%s: second send at once: %v", in, err)
		}
		for left := 4; left >= 1; left-- {
			var we *signflow.WrongCodeError
			if _, _, err := w.cab.LogIn(in, "12345", signflow.Actor{}); !errors.As(err, &we) || we.Left != left {
				t.Fatalf("%s: code with %d left: %v", in, left, err)
			}
		}
		var locked *signflow.LoginLockedError
		if _, _, err := w.cab.LogIn(in, "54321", signflow.Actor{}); !errors.As(err, &locked) {
			t.Fatalf("%s: fifth code: %v", in, err)
		}
	}
	if len(w.SMS.Sent) != sms {
		t.Fatalf("SMS sent for numbers without a phone: %+v", w.SMS.Sent[sms:])
	}
	if _, err := w.cab.SendLoginCode(ctx, "12345", "en"); err != signflow.ErrLoginNumber {
		t.Fatalf("malformed number: %v", err)
	}
	if _, _, err := w.cab.LogIn(fixture.CustomerIN, "12a45", signflow.Actor{}); err != signflow.ErrCodeFormat {
		t.Fatalf("malformed code: %v", err)
	}
}

// Resend waits 60 s; at most 5 codes per 15 minutes; a code lives OTPTTL;
// a new code replaces the old one.
func TestCabinetLoginCodeLimits(t *testing.T) {
	w := newCabinetWorld(t)
	ctx := context.Background()
	if _, _, err := w.cab.LogIn(fixture.CustomerIN, "12345", signflow.Actor{}); err != signflow.ErrNoCode {
		t.Fatalf("code before any was sent: %v", err)
	}
	var first string
	for i := 1; i <= signflow.LoginMaxSends; i++ {
		if _, err := w.cab.SendLoginCode(ctx, fixture.CustomerIN, "en"); err != nil {
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
		if _, err := w.cab.SendLoginCode(ctx, fixture.CustomerIN, "en"); !errors.As(err, &wait) || wait.After != want {
			t.Fatalf("send %d again at once: %v, want a wait of %v", i, err, want)
		}
		w.Clock.Advance(time.Minute)
	}
	var wait *signflow.ResendWaitError
	if _, err := w.cab.SendLoginCode(ctx, fixture.CustomerIN, "en"); !errors.As(err, &wait) || wait.After != 10*time.Minute {
		t.Fatalf("sixth send in the window: %v", err)
	}
	last := lastCode(t, w.SMS, custPhone)
	if first != last {
		if _, _, err := w.cab.LogIn(fixture.CustomerIN, first, signflow.Actor{}); signflow.ErrorCode(err) != signflow.EINVALID {
			t.Fatalf("a replaced code: %v", err)
		}
	}
	w.Clock.Advance(4 * time.Minute) // the last code was sent 1 min ago: 5 min in all
	if _, _, err := w.cab.LogIn(fixture.CustomerIN, last, signflow.Actor{}); err != signflow.ErrCodeExpired {
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
	other := signflow.NewService(w.DB, signflow.Options{Secret: []byte("another secret")}).Cabinet(signflow.CabinetOptions{})
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

// A send the provider refuses is undone: the error reaches the caller and
// a new code may be asked for at once.
func TestCabinetFailedSendIsUndone(t *testing.T) {
	sms := &failingSMS{}
	w := fixture.New(t, signflow.Options{SMS: sms})
	fixture.Must(t, func() error {
		_, err := w.Service.RegisterClient(&signflow.Client{IN: fixture.CustomerIN, FirstName: "A", LastName: "K", Phone: custPhone})
		return err
	})
	cab := w.Service.Cabinet(signflow.CabinetOptions{})
	for i := 0; i < 2; i++ {
		if _, err := cab.SendLoginCode(context.Background(), fixture.CustomerIN, "en"); signflow.ErrorCode(err) != signflow.EUNAVAILABLE {
			t.Fatalf("send %d: %v", i, err)
		}
	}
	if sms.calls != 2 {
		t.Fatalf("provider called %d times, want 2 (no wait after a failed send)", sms.calls)
	}
	if _, _, err := cab.LogIn(fixture.CustomerIN, "12345", signflow.Actor{}); err != signflow.ErrNoCode {
		t.Fatalf("login after failed sends: %v", err)
	}
}

// Dead login records and sessions are deleted by later logins.
func TestCabinetPurgesDeadRecords(t *testing.T) {
	w := newCabinetWorld(t)
	token, s := w.login(t, fixture.CustomerIN, custPhone)
	if _, err := w.cab.SendLoginCode(context.Background(), fixture.UnknownIN, "en"); err != nil {
		t.Fatal(err)
	}
	w.Clock.Advance(31 * time.Minute)
	w.login(t, peerIN, peerPhone)
	fixture.Must(t, func() error {
		return w.DB.View(func(tx signflow.Tx) error {
			if _, err := tx.CabinetSession(s.TokenHash); signflow.ErrorCode(err) != signflow.ENOTFOUND {
				t.Errorf("expired session kept: %v", err)
			}
			if _, err := tx.CabinetLogin(fixture.UnknownIN); signflow.ErrorCode(err) != signflow.ENOTFOUND {
				t.Errorf("dead login record kept: %v", err)
			}
			_, err := tx.CabinetLogin(peerIN)
			return err
		})
	})
	if _, err := w.cab.Session(token); err != signflow.ErrCabinetSession {
		t.Fatalf("purged session: %v", err)
	}
}

// The cabinet lists only the party's contracts, those awaiting it first;
// it acts only on signing sessions the party opened there; only the
// creator cancels; every change is the state machine's, with its events.
func TestCabinetContracts(t *testing.T) {
	w := newCabinetWorld(t)
	ctx := context.Background()
	_, cust := w.login(t, fixture.CustomerIN, custPhone)
	_, peer := w.login(t, peerIN, peerPhone)
	w.Clock.Advance(time.Second)
	older := w.Contract(t) // owner A sells to the customer
	w.Clock.Advance(time.Second)
	foreign, err := w.Service.CreateContract(w.Access(t, w.AppA), &signflow.ContractInput{TemplateID: w.Template.ID,
		BuyerIN: fixture.OtherIN, Price: 100, Currency: "UZS"}, signflow.Actor{})
	if err != nil {
		t.Fatal(err)
	}
	newer := w.contract(t) // the peer sells to the customer

	list, err := w.cab.Contracts(cust, 0)
	if err != nil || ids(list.Open) != ids2(newer.ID, older.ID, w.c.ID) || list.OpenTotal != 3 || len(list.Closed) != 0 {
		t.Fatalf("open %v (%d), closed %d, %v", ids(list.Open), list.OpenTotal, len(list.Closed), err)
	}
	if _, err := w.cab.Contract(cust, foreign.ID); signflow.ErrorCode(err) != signflow.EFORBIDDEN {
		t.Fatalf("another party's contract: %v", err)
	}

	// The customer signs the newest: it goes after the one still awaiting them.
	_, tok, err := w.cab.OpenSigning(cust, newer.ID, "en", signflow.Actor{IP: "10.0.0.9"})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.cab.CheckSigning(peer, tok); err != signflow.ErrSessionNotFound {
		t.Fatalf("another party's signing token: %v", err)
	}
	if err := w.cab.CheckSigning(cust, tok); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Service.SendCode(ctx, tok, signflow.Actor{}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Service.ConfirmCode(tok, lastCode(t, w.SMS, custPhone), signflow.Actor{}); err != nil {
		t.Fatal(err)
	}
	if list, _ = w.cab.Contracts(cust, 0); ids(list.Open) != ids2(older.ID, w.c.ID, newer.ID) {
		t.Fatalf("open after signing %v", ids(list.Open))
	}
	appTok := w.open(t, w.c.ID, fixture.CustomerIN)
	if err := w.cab.CheckSigning(cust, appTok); err != signflow.ErrSessionNotFound {
		t.Fatalf("a session opened by an app: %v", err)
	}

	// Only the creator cancels; then the contract is closed for both.
	if _, err := w.cab.Cancel(cust, newer.ID, signflow.Actor{}); signflow.ErrorCode(err) != signflow.EFORBIDDEN {
		t.Fatalf("cancel by the counterparty: %v", err)
	}
	got, err := w.cab.Cancel(peer, newer.ID, signflow.Actor{IP: "10.0.0.8"})
	if err != nil || got.Status != signflow.StatusCancelled || got.SellerStatus != signflow.PartyCancelled {
		t.Fatalf("cancel by the creator: %+v %v", got, err)
	}
	if types := auditTypes(t, w.Service, newer.ID); count(types, signflow.EventCancelled) != 1 || count(types, signflow.EventSigned) != 1 {
		t.Fatalf("audit %v", types)
	}
	list, _ = w.cab.Contracts(cust, 0)
	if ids(list.Open) != ids2(older.ID, w.c.ID) || ids(list.Closed) != ids2(newer.ID) || list.ClosedTotal != 1 {
		t.Fatalf("after cancel: open %v closed %v", ids(list.Open), ids(list.Closed))
	}
}

func ids(vs []*signflow.ContractView) string {
	out := ""
	for _, v := range vs {
		out += v.ID + " "
	}
	return out
}

func ids2(id ...string) string {
	out := ""
	for _, v := range id {
		out += v + " "
	}
	return out
}
