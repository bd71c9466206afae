package signflow_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// Four wrong codes tell the attempts left; the fifth closes the session as
// EXPIRED and leaves the contract as it was; a new session signs.
func TestFiveWrongCodesCloseTheSession(t *testing.T) {
	eachEngine(t, func(t *testing.T, e engine) {
		p := newPeersOn(t, e.open(t))
		tok := p.open(t, p.c.ID, fixture.CustomerIN)
		code := p.send(t, tok, custPhone)
		wrong := "00000"
		if code == wrong {
			wrong = "11111"
		}
		for left := 4; left >= 1; left-- {
			_, err := p.Service.ConfirmCode(tok, wrong, signflow.Actor{})
			var we *signflow.WrongCodeError
			if !errors.As(err, &we) || we.Left != left || signflow.ErrorCode(err) != signflow.EINVALID ||
				!strings.Contains(signflow.ErrorMessage(err), "attempt") {
				t.Fatalf("wrong code with %d left: %v", left, err)
			}
		}
		if _, err := p.Service.ConfirmCode(tok, wrong, signflow.Actor{}); err != signflow.ErrTooManyWrong || signflow.ErrorCode(err) != signflow.EFORBIDDEN {
			t.Fatalf("fifth wrong code: %v", err)
		}
		if _, err := p.Service.ConfirmCode(tok, code, signflow.Actor{}); err != signflow.ErrSessionClosed {
			t.Fatalf("right code after closing: %v", err)
		}
		var sess *signflow.SignSession
		fixture.Must(t, func() error {
			return p.Store.View(func(tx signflow.Tx) (err error) { sess, err = tx.SessionByToken(signflow.HashSecret(tok)); return err })
		})
		if sess.Status != signflow.SessionExpired || sess.OTP.CodeHash != nil {
			t.Fatalf("closed session %+v", sess)
		}
		c := p.reload(t, p.c.ID)
		if c.Status != signflow.StatusCreated || c.BuyerStatus != signflow.PartyPending || c.Version != 1 {
			t.Fatalf("contract changed: %s %s v%d", c.Status, c.BuyerStatus, c.Version)
		}
		types := auditTypes(t, p.Service, p.c.ID)
		if count(types, signflow.AuditCodeWrong) != 5 || count(types, signflow.AuditSessionClosed) != 1 {
			t.Fatalf("audit %v", types)
		}
		tok2 := p.open(t, p.c.ID, fixture.CustomerIN)
		if _, err := p.Service.ConfirmCode(tok2, p.send(t, tok2, custPhone), signflow.Actor{}); err != nil {
			t.Fatalf("new session: %v", err)
		}
	})
}

// Resend waits 60 s, at most 5 codes per session, a code lives OTPTTL, a
// new code replaces the old one, wrong codes count across codes, and
// malformed input is refused without counting.
func TestCodeSendingRules(t *testing.T) {
	p := newPeers(t)
	tok := p.open(t, p.c.ID, fixture.CustomerIN)
	ctx := context.Background()
	sent, err := p.Service.SendCode(ctx, tok, signflow.Actor{})
	if err != nil {
		t.Fatal(err)
	}
	if sent.SendsLeft != 4 || sent.ResendIn != time.Minute || sent.ExpiresIn != 5*time.Minute || sent.Phone != "+99890*****67" {
		t.Fatalf("first send %+v", sent)
	}
	first := lastCode(t, p.SMS, custPhone)
	p.Clock.Advance(20 * time.Second)
	_, err = p.Service.SendCode(ctx, tok, signflow.Actor{})
	var wait *signflow.ResendWaitError
	if !errors.As(err, &wait) || wait.After != 40*time.Second || signflow.ErrorCode(err) != signflow.ERATELIMIT {
		t.Fatalf("early resend: %v", err)
	}
	if v, err := p.Service.SigningSession(tok); err != nil || v.Code == nil || v.Code.ResendIn != 40*time.Second || v.Code.Phone != "+99890*****67" {
		t.Fatalf("page view of the code: %+v %v", v, err)
	}
	if _, err := p.Service.ConfirmCode(tok, "12a45", signflow.Actor{}); err != signflow.ErrCodeFormat {
		t.Fatalf("malformed code: %v", err)
	}
	other := "00000"
	if first == other {
		other = "99999"
	}
	var we *signflow.WrongCodeError
	if _, err := p.Service.ConfirmCode(tok, other, signflow.Actor{}); !errors.As(err, &we) || we.Left != 4 {
		t.Fatalf("wrong code: %v", err)
	}
	for i := 2; i <= 5; i++ {
		p.Clock.Advance(time.Minute)
		if _, err := p.Service.SendCode(ctx, tok, signflow.Actor{}); err != nil {
			t.Fatalf("send %d: %v", i, err)
		}
	}
	p.Clock.Advance(time.Minute)
	if _, err := p.Service.SendCode(ctx, tok, signflow.Actor{}); err != signflow.ErrSendsExhausted {
		t.Fatalf("sixth send: %v", err)
	}
	last := lastCode(t, p.SMS, custPhone)
	if first != last {
		if _, err := p.Service.ConfirmCode(tok, first, signflow.Actor{}); !errors.As(err, &we) || we.Left != 3 {
			t.Fatalf("replaced code: %v (wrong codes count across codes)", err)
		}
	}
	p.Clock.Advance(5 * time.Minute)
	if _, err := p.Service.ConfirmCode(tok, last, signflow.Actor{}); err != signflow.ErrCodeExpired {
		t.Fatalf("expired code: %v", err)
	}
	if len(p.SMS.Sent) != 5 {
		t.Fatalf("%d SMS sent, want 5", len(p.SMS.Sent))
	}
	// No code is ever kept in clear: not in the audit trail.
	events, _ := p.Service.AuditTrail(p.c.ID)
	for _, e := range events {
		for _, m := range p.SMS.Sent {
			if code := codeRE.FindString(m.Text); strings.Contains(e.Detail, code) {
				t.Fatalf("audit %s detail %q holds a code", e.Type, e.Detail)
			}
		}
	}
}

// A code cannot be asked for or confirmed through a session of another method.
func TestOTPStepsNeedAnOTPSession(t *testing.T) {
	w := fixture.NewStandard(t)
	c := w.Contract(t)
	_, tok, err := w.Service.OpenSession(w.Access(t, w.AppA), c.ID, signflow.SessionRequest{SignerIN: fixture.OwnerIN}, signflow.Actor{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Service.SendCode(context.Background(), tok, signflow.Actor{}); err != signflow.ErrNotOTP {
		t.Fatalf("send on E_IMZO session: %v", err)
	}
	if _, err := w.Service.ConfirmCode(tok, "12345", signflow.Actor{}); err != signflow.ErrNotOTP {
		t.Fatalf("confirm on E_IMZO session: %v", err)
	}
}

// flakySMS refuses messages while fail is set and keeps the last one it sent.
type flakySMS struct {
	fail  bool
	calls int
	last  string
}

func (f *flakySMS) Send(_ context.Context, _, text string) error {
	f.calls++
	if f.fail {
		return signflow.Errorf(signflow.EUNAVAILABLE, "gateway down")
	}
	f.last = text
	return nil
}

// When the provider fails, the send is undone: no wait, no send counted,
// and the code sent before stays in force.
func TestFailedSendIsUndone(t *testing.T) {
	sms := &flakySMS{fail: true}
	w := fixture.New(t, signflow.Options{SMS: sms})
	fixture.MustOwner(t, w.Service, &signflow.Client{IN: peerIN, FirstName: "D", LastName: "R", Phone: peerPhone})
	fixture.MustClaim(t, w.Service, peerIN, &signflow.Client{IN: fixture.CustomerIN, FirstName: "A", LastName: "K", Phone: custPhone})
	tpl := fixture.MustTemplate(t, w.Service, fixture.TemplateYAML)
	cred := fixture.MustCredential(t, w.Service.CreateApp, &signflow.CredentialInput{Name: "x", OwnerIN: peerIN, Scopes: signflow.AppScopes, AllTemplates: true})
	var app *signflow.Access
	fixture.Must(t, func() error {
		return w.DB.View(func(tx signflow.Tx) error { a, err := tx.App(cred.ID); app = a.Access(); return err })
	})
	c, err := w.Service.CreateContract(app, &signflow.ContractInput{TemplateID: tpl.ID, BuyerIN: fixture.CustomerIN, Price: 100}, signflow.Actor{})
	if err != nil {
		t.Fatal(err)
	}
	_, tok, err := w.Service.OpenSession(app, c.ID, signflow.SessionRequest{SignerIN: fixture.CustomerIN}, signflow.Actor{})
	if err != nil {
		t.Fatal(err)
	}
	send := func() error { _, err := w.Service.SendCode(context.Background(), tok, signflow.Actor{}); return err }
	for i := 1; i <= 2; i++ {
		if err := send(); signflow.ErrorCode(err) != signflow.EUNAVAILABLE {
			t.Fatalf("send %d: %v, want EUNAVAILABLE at once (no resend wait)", i, err)
		}
	}
	if v, err := w.Service.SigningSession(tok); err != nil || v.Code != nil || v.Session.OTP.Sends != 0 || v.Session.OTP.CodeHash != nil {
		t.Fatalf("after failed sends: %+v %v", v.Session.OTP, err)
	}
	sms.fail = false
	if err := send(); err != nil {
		t.Fatal(err)
	}
	code := codeRE.FindString(sms.last)
	w.Clock.Advance(time.Minute)
	sms.fail = true
	if err := send(); signflow.ErrorCode(err) != signflow.EUNAVAILABLE {
		t.Fatalf("failed resend: %v", err)
	}
	if v, _ := w.Service.SigningSession(tok); v.Code == nil || v.Code.SendsLeft != signflow.MaxCodeSends-1 {
		t.Fatalf("after a failed resend: %+v", v.Code)
	}
	if _, err := w.Service.ConfirmCode(tok, code, signflow.Actor{}); err != nil {
		t.Fatalf("the code sent before the failed resend: %v", err)
	}
	if sms.calls != 4 {
		t.Fatalf("provider called %d times", sms.calls)
	}
}

// A signer by SMS code needs a phone the contract's creator's tenant
// holds: another tenant's phone for the number opens nothing; once the
// creator's tenant registers one, the session opens and its codes go there.
func TestSMSCodesGoToTheCreatorsTenantsPhone(t *testing.T) {
	w := fixture.NewStandard(t)
	const otherPhone, ownPhone = "998935550101", "998935550202"
	fixture.MustClaim(t, w.Service, fixture.OtherIN, &signflow.Client{IN: fixture.UnknownIN, FirstName: "Laylo", LastName: "Tosheva", Phone: otherPhone})
	app := w.Access(t, w.AppA)
	c, err := w.Service.CreateContract(app, &signflow.ContractInput{TemplateID: w.Template.ID, BuyerIN: fixture.UnknownIN,
		Price: 150000, Currency: "UZS"}, signflow.Actor{})
	if err != nil {
		t.Fatal(err)
	}
	open := func() (string, error) {
		_, tok, err := w.Service.OpenSession(app, c.ID, signflow.SessionRequest{SignerIN: fixture.UnknownIN, Lang: "en"}, signflow.Actor{})
		return tok, err
	}
	if _, err := open(); signflow.ErrorCode(err) != signflow.EINVALID || !strings.Contains(signflow.ErrorMessage(err), "no registered phone") {
		t.Fatalf("open with only another tenant's phone: %v", err)
	}
	fixture.MustClaim(t, w.Service, fixture.OwnerIN, &signflow.Client{IN: fixture.UnknownIN, FirstName: "Laylo", LastName: "Tosheva", Phone: ownPhone})
	tok, err := open()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Service.SendCode(context.Background(), tok, signflow.Actor{}); err != nil {
		t.Fatal(err)
	}
	if sent := w.SMS.Sent; len(sent) != 1 || sent[0].Phone != ownPhone {
		t.Fatalf("codes sent %+v, want one to %s", sent, ownPhone)
	}
}
