package signflow_test

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"sync"
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"

	"github.com/google/uuid"
)

// Numbers of the peers world: an individual owner selling to the customer,
// so that both parties sign with SMS codes.
const (
	peerIN    = "32222222222222"
	peerPhone = "998901111111"
	custPhone = "998901234567"
)

// peers is a Standard world plus an individual owner with an app that has
// a webhook, and a contract between that owner (seller, creator) and the
// customer (buyer).
type peers struct {
	*fixture.Standard
	app *signflow.Access
	c   *signflow.Contract
}

func newPeers(t *testing.T) *peers { return newPeersOn(t, nil) }

// newPeersOn builds the peers world on store; nil means a bbolt file.
func newPeersOn(t *testing.T, store signflow.Store) *peers {
	t.Helper()
	var w *fixture.Standard
	if store == nil {
		w = fixture.NewStandard(t)
	} else {
		w = fixture.NewStandardOn(t, store)
	}
	fixture.MustOwner(t, w.Service, &signflow.Client{IN: peerIN, FirstName: "Dilnoza", LastName: "Rahimova", Phone: peerPhone})
	fixture.MustClaim(t, w.Service, peerIN, &signflow.Client{IN: fixture.CustomerIN, FirstName: "Aziz", LastName: "Karimov", Phone: custPhone})
	cred := fixture.MustCredential(t, w.Service.CreateApp, &signflow.CredentialInput{Name: "Peer shop", OwnerIN: peerIN,
		Scopes: signflow.AppScopes, AllTemplates: true, WebhookURL: "http://127.0.0.1:9/hook"})
	p := &peers{Standard: w, app: w.Access(t, cred)}
	p.c = p.contract(t)
	return p
}

func (p *peers) contract(t *testing.T) *signflow.Contract {
	t.Helper()
	c, err := p.Service.CreateContract(p.app, &signflow.ContractInput{TemplateID: p.Template.ID, BuyerIN: fixture.CustomerIN,
		Price: 250000, Currency: "UZS"}, signflow.Actor{IP: "10.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// open opens a session for the signer and returns its token.
func (p *peers) open(t *testing.T, contractID, signer string) string {
	t.Helper()
	_, token, err := p.Service.OpenSession(p.app, contractID, signflow.SessionRequest{SignerIN: signer, Lang: "en"}, signflow.Actor{})
	if err != nil {
		t.Fatal(err)
	}
	return token
}

// send asks for a code and returns it as the SMS recorder saw it.
func (p *peers) send(t *testing.T, token, phone string) string {
	t.Helper()
	if _, err := p.Service.SendCode(context.Background(), token, signflow.Actor{IP: "10.0.0.2"}); err != nil {
		t.Fatal(err)
	}
	return lastCode(t, p.SMS, phone)
}

var codeRE = regexp.MustCompile(`\b(\d{5})\b`)

// lastCode reads the code of the last SMS sent to phone.
func lastCode(t *testing.T, sms *fixture.SMS, phone string) string {
	t.Helper()
	for i := len(sms.Sent) - 1; i >= 0; i-- {
		if sms.Sent[i].Phone == phone {
			if m := codeRE.FindStringSubmatch(sms.Sent[i].Text); m != nil {
				return m[1]
			}
			t.Fatalf("no code in %q", sms.Sent[i].Text)
		}
	}
	t.Fatalf("no SMS to %s", phone)
	return ""
}

func (p *peers) reload(t *testing.T, id string) *signflow.Contract {
	t.Helper()
	var c *signflow.Contract
	fixture.Must(t, func() error {
		return p.Store.View(func(tx signflow.Tx) (err error) { c, err = tx.Contract(id); return err })
	})
	return c
}

func auditTypes(t *testing.T, svc *signflow.Service, contractID string) []string {
	t.Helper()
	events, err := svc.AuditTrail(contractID)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range events {
		out = append(out, e.Type)
	}
	return out
}

func count(list []string, s string) int {
	n := 0
	for _, v := range list {
		if v == s {
			n++
		}
	}
	return n
}

// Both parties sign through their sessions: the first signature keeps the
// contract CREATED, the second makes it ACTIVE; each transition writes its
// audit event (actor, IP, user agent, method, document hash) and its
// webhook rows in the same transaction.
func TestTwoSignaturesMakeTheContractActive(t *testing.T) {
	p := newPeers(t)
	buyerTok := p.open(t, p.c.ID, fixture.CustomerIN)
	code := p.send(t, buyerTok, custPhone)
	if sms := p.SMS.Last().Text; !regexp.MustCompile(regexp.QuoteMeta(p.c.Number)).MatchString(sms) {
		t.Fatalf("SMS %q lacks the contract number %s", sms, p.c.Number)
	}
	res, err := p.Service.ConfirmCode(buyerTok, code, signflow.Actor{IP: "10.0.0.3", UserAgent: "Browser/1"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Session.Status != signflow.SessionSigned || res.Session.CompletedAt == nil {
		t.Fatalf("session %+v", res.Session)
	}
	c := p.reload(t, p.c.ID)
	if c.Status != signflow.StatusCreated || c.BuyerStatus != signflow.PartyAccepted || c.SellerStatus != signflow.PartyPending || c.Version != 2 {
		t.Fatalf("after one signature: %s buyer %s seller %s version %d", c.Status, c.BuyerStatus, c.SellerStatus, c.Version)
	}
	sig := c.Signatures[fixture.CustomerIN]
	if sig == nil || sig.Hash != p.c.Hash || sig.Hash != signflow.DocumentHash(c) || sig.Method != signflow.MethodOTP || sig.IP != "10.0.0.3" {
		t.Fatalf("signature %+v, want hash %s", sig, p.c.Hash)
	}

	sellerTok := p.open(t, p.c.ID, peerIN)
	if _, err := p.Service.ConfirmCode(sellerTok, p.send(t, sellerTok, peerPhone), signflow.Actor{IP: "10.0.0.4"}); err != nil {
		t.Fatal(err)
	}
	c = p.reload(t, p.c.ID)
	if c.Status != signflow.StatusActive || c.BuyerStatus != signflow.PartyAccepted || c.SellerStatus != signflow.PartyAccepted || c.Version != 3 {
		t.Fatalf("after two signatures: %s buyer %s seller %s version %d", c.Status, c.BuyerStatus, c.SellerStatus, c.Version)
	}

	events, _ := p.Service.AuditTrail(p.c.ID)
	var signed []*signflow.AuditEvent
	for _, e := range events {
		if e.Hash != p.c.Hash {
			t.Errorf("audit %s has hash %q, want the document hash", e.Type, e.Hash)
		}
		if e.Type == signflow.EventSigned || e.Type == signflow.EventActive {
			signed = append(signed, e)
		}
	}
	if len(signed) != 3 || signed[0].Type != signflow.EventSigned || signed[1].Type != signflow.EventSigned || signed[2].Type != signflow.EventActive {
		t.Fatalf("signature events %v", auditTypes(t, p.Service, p.c.ID))
	}
	if e := signed[0]; e.ActorIN != fixture.CustomerIN || e.IP != "10.0.0.3" || e.UserAgent != "Browser/1" || e.Method != signflow.MethodOTP || e.SessionID == "" {
		t.Fatalf("first signature audit %+v", e)
	}
	deliveries, err := p.Service.Deliveries(signflow.DeliveryFilter{ContractID: p.c.ID})
	if err != nil {
		t.Fatal(err)
	}
	var hooks []string
	for _, d := range deliveries {
		hooks = append(hooks, d.Event)
	}
	if count(hooks, signflow.EventSigned) != 2 || count(hooks, signflow.EventActive) != 1 || count(hooks, signflow.EventCreated) != 1 {
		t.Fatalf("webhook outbox %v", hooks)
	}
	// Delivery ids are time-ordered (UUID version 7): outbox rows go to the
	// end of their buckets.
	for i, d := range deliveries {
		if u, err := uuid.Parse(d.ID); err != nil || u.Version() != 7 || (i > 0 && d.ID <= deliveries[i-1].ID) {
			t.Fatalf("delivery %d id %s: want UUIDs of version 7 in outbox order", i, d.ID)
		}
	}

	// One signature per party: the used token is closed, a new session is refused.
	if _, err := p.Service.SigningSession(buyerTok); err != signflow.ErrSessionClosed {
		t.Fatalf("used token: %v", err)
	}
	_, _, err = p.Service.OpenSession(p.app, p.c.ID, signflow.SessionRequest{SignerIN: fixture.CustomerIN}, signflow.Actor{})
	if signflow.ErrorCode(err) != signflow.EINVALID {
		t.Fatalf("second session for a signed party: %v", err)
	}
}

// Both parties confirm their codes at the same moment, on a real bbolt
// file: every time, exactly one ACTIVE results with both ACCEPTED.
func TestConcurrentSignaturesYieldOneActive(t *testing.T) {
	eachEngine(t, func(t *testing.T, e engine) {
		p := newPeersOn(t, e.open(t))
		// The seller signs through a second process where the engine has them.
		svcs := []*signflow.Service{p.Service, p.Service}
		if e.peer != nil {
			svcs[1] = signflow.NewService(e.peer(t, p.Store), p.Options)
		}
		for round := 0; round < 15; round++ {
			c := p.contract(t)
			toks := []string{p.open(t, c.ID, fixture.CustomerIN), p.open(t, c.ID, peerIN)}
			codes := []string{p.send(t, toks[0], custPhone), p.send(t, toks[1], peerPhone)}
			start := make(chan struct{})
			errs := make([]error, 2)
			var wg sync.WaitGroup
			for i := range toks {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					_, errs[i] = svcs[i].ConfirmCode(toks[i], codes[i], signflow.Actor{IP: "10.0.0.9"})
				}()
			}
			close(start)
			wg.Wait()
			if errs[0] != nil || errs[1] != nil {
				t.Fatalf("round %d: %v", round, errs)
			}
			got := p.reload(t, c.ID)
			types := auditTypes(t, p.Service, c.ID)
			if got.Status != signflow.StatusActive || got.BuyerStatus != signflow.PartyAccepted || got.SellerStatus != signflow.PartyAccepted ||
				got.Version != 3 || count(types, signflow.EventActive) != 1 || count(types, signflow.EventSigned) != 2 {
				t.Fatalf("round %d: %s %s/%s v%d %v", round, got.Status, got.BuyerStatus, got.SellerStatus, got.Version, types)
			}
			// The app's webhook hears of the contract becoming ACTIVE once.
			rows, err := p.Service.Deliveries(signflow.DeliveryFilter{ContractID: c.ID})
			if err != nil {
				t.Fatal(err)
			}
			var events []string
			for _, d := range rows {
				events = append(events, d.Event)
			}
			if count(events, signflow.EventActive) != 1 || count(events, signflow.EventSigned) != 2 {
				t.Fatalf("round %d: outbox %v", round, events)
			}
		}
	})
}

// A rejection by the counterparty rejects the contract; by the creator's
// own party it cancels it. Either way it is confirmed with the SMS code,
// named OTP_SMS in the trail, and the session is REJECTED and closed.
// Without a code, or with a wrong one, nothing changes.
func TestRejectThroughSession(t *testing.T) {
	cases := []struct {
		name, signer, phone, status, event string
		party                              func(*signflow.Contract) string
		partyStatus                        string
	}{
		{"counterparty rejects", fixture.CustomerIN, custPhone, signflow.StatusRejected, signflow.EventRejected,
			func(c *signflow.Contract) string { return c.BuyerStatus }, signflow.PartyRejected},
		{"creator's party rejects", peerIN, peerPhone, signflow.StatusCancelled, signflow.EventCancelled,
			func(c *signflow.Contract) string { return c.SellerStatus }, signflow.PartyCancelled},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := newPeers(t)
			tok := p.open(t, p.c.ID, tc.signer)
			if err := p.Service.RejectUnconfirmed(tok); signflow.ErrorCode(err) != signflow.EINVALID {
				t.Fatalf("unconfirmed reject: %v", err)
			}
			if _, err := p.Service.RejectWithCode(tok, "12345", signflow.Actor{}); err != signflow.ErrNoCode {
				t.Fatalf("reject before a code was sent: %v", err)
			}
			// A code sent to sign does not reject, nor one sent to reject sign.
			if _, err := p.Service.SendCode(context.Background(), tok, signflow.Actor{}); err != nil {
				t.Fatal(err)
			}
			if _, err := p.Service.RejectWithCode(tok, lastCode(t, p.SMS, tc.phone), signflow.Actor{}); err != signflow.ErrCodeIntent {
				t.Fatalf("reject with a signing code: %v", err)
			}
			p.Clock.Advance(signflow.ResendAfter)
			if _, err := p.Service.SendCodeFor(context.Background(), tok, signflow.IntentReject, signflow.Actor{}); err != nil {
				t.Fatal(err)
			}
			code := lastCode(t, p.SMS, tc.phone)
			if text := p.SMS.Last().Text; !strings.Contains(text, "to reject contract No. "+p.c.Number) {
				t.Fatalf("the rejection's code says %q", text)
			}
			if _, err := p.Service.ConfirmCode(tok, code, signflow.Actor{}); err != signflow.ErrCodeIntent {
				t.Fatalf("sign with a rejection's code: %v", err)
			}
			wrong := "00000"
			if code == wrong {
				wrong = "99999"
			}
			var we *signflow.WrongCodeError
			if _, err := p.Service.RejectWithCode(tok, wrong, signflow.Actor{}); !errors.As(err, &we) || we.Left != 4 {
				t.Fatalf("wrong code: %v", err)
			}
			if c := p.reload(t, p.c.ID); c.Status != signflow.StatusCreated || c.Version != 1 {
				t.Fatalf("refused rejections changed the contract: %s v%d", c.Status, c.Version)
			}
			res, err := p.Service.RejectWithCode(tok, code, signflow.Actor{IP: "10.0.0.5", UserAgent: "UA"})
			if err != nil {
				t.Fatal(err)
			}
			trail, err := p.Service.AuditTrail(p.c.ID)
			if err != nil {
				t.Fatal(err)
			}
			if last := trail[len(trail)-1]; last.Type != tc.event || last.Method != signflow.MethodOTP || last.ActorIN != tc.signer {
				t.Fatalf("rejection's audit event %+v", last)
			}
			c := p.reload(t, p.c.ID)
			if res.Session.Status != signflow.SessionRejected || c.Status != tc.status || tc.party(c) != tc.partyStatus || c.Version != 2 {
				t.Fatalf("session %s, contract %s party %s v%d", res.Session.Status, c.Status, tc.party(c), c.Version)
			}
			if types := auditTypes(t, p.Service, p.c.ID); count(types, tc.event) != 1 {
				t.Fatalf("audit %v lacks %s", types, tc.event)
			}
			if _, err := p.Service.RejectWithCode(tok, code, signflow.Actor{}); err != signflow.ErrSessionClosed {
				t.Fatalf("second reject: %v", err)
			}
		})
	}
}
