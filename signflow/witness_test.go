package signflow_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// Witnesses of the peers world's tenant, each with its own phone.
var witnessPeople = []signflow.Client{
	{IN: "41111111111111", FirstName: "Guli", LastName: "Saidova", Phone: "998907000001"},
	{IN: "41111111111112", FirstName: "Bobur", LastName: "Aliyev", Phone: "998907000002"},
}

const witnessTemplateYAML = `name: {uz: "Guvohli", ru: "Со свидетелями", en: "Witnessed"}
sellerName: {uz: "Sotuvchi", ru: "Продавец", en: "Seller"}
buyerName: {uz: "Xaridor", ru: "Покупатель", en: "Buyer"}
witnessEnabled: true
witnessCount: 2
`

// witnessed is the peers world with a two-witness template and the
// records of its two witnesses, as the owner's tenant registered them.
type witnessed struct {
	*peers
	tpl *signflow.Template
	ids []string
}

func newWitnessed(t *testing.T, store signflow.Store) *witnessed {
	w := &witnessed{peers: newPeersOn(t, store), tpl: nil}
	w.tpl = fixture.MustTemplate(t, w.Service, witnessTemplateYAML)
	for _, c := range witnessPeople {
		c := c
		w.ids = append(w.ids, fixture.MustClaim(t, w.Service, peerIN, &c).ID)
	}
	return w
}

func (w *witnessed) create(ids ...string) (*signflow.Contract, error) {
	return w.Service.CreateContract(w.app, &signflow.ContractInput{TemplateID: w.tpl.ID, BuyerIN: fixture.CustomerIN,
		Price: 100000, Currency: "UZS", WitnessIDs: ids}, signflow.Actor{IP: "10.0.0.1"})
}

// sign signs for in through a session and its SMS code.
func (w *witnessed) sign(t *testing.T, c *signflow.Contract, in, phone string) {
	t.Helper()
	tok := w.open(t, c.ID, in)
	if _, err := w.Service.ConfirmCode(tok, w.send(t, tok, phone), signflow.Actor{IP: "10.0.0.7"}); err != nil {
		t.Fatalf("sign for %s: %v", in, err)
	}
}

// The contract of a two-witness template becomes ACTIVE with the last of
// the four signatures, whoever gives it; every signature is a
// CONTRACT_SIGNED by its signer, audited and sent in the same order.
func TestWitnessesSign(t *testing.T) {
	type signer struct{ in, phone string }
	buyer, seller := signer{fixture.CustomerIN, custPhone}, signer{peerIN, peerPhone}
	w1, w2 := signer{witnessPeople[0].IN, witnessPeople[0].Phone}, signer{witnessPeople[1].IN, witnessPeople[1].Phone}
	orders := map[string][]signer{"parties first": {buyer, seller, w1, w2}, "witnesses first": {w2, w1, seller, buyer}}
	eachEngine(t, func(t *testing.T, e engine) {
		w := newWitnessed(t, e.open(t))
		for name, order := range orders {
			t.Run(name, func(t *testing.T) {
				c, err := w.create(w.ids...)
				if err != nil {
					t.Fatal(err)
				}
				if len(c.Witnesses) != 2 || c.Witnesses[0].ID != w.ids[0] || c.Witnesses[0].IN != w1.in || c.Witnesses[1].IN != w2.in ||
					c.Witnesses[0].LastName != "Saidova" || c.Witnesses[1].Status != signflow.PartyPending {
					t.Fatalf("witnesses %+v", c.Witnesses)
				}
				for i, s := range order {
					w.sign(t, c, s.in, s.phone)
					got := w.reload(t, c.ID)
					if want := map[bool]string{true: signflow.StatusActive, false: signflow.StatusCreated}[i == 3]; got.Status != want {
						t.Fatalf("after %d signatures: %s, want %s", i+1, got.Status, want)
					}
					if got.PartyStatus(s.in) != signflow.PartyAccepted || got.Signatures[s.in] == nil || got.Signatures[s.in].Method != signflow.MethodOTP {
						t.Fatalf("signer %s: %s %+v", s.in, got.PartyStatus(s.in), got.Signatures[s.in])
					}
				}
				events, err := w.Service.AuditTrail(c.ID)
				if err != nil {
					t.Fatal(err)
				}
				var trail []string
				for _, ev := range events {
					if ev.Type == signflow.EventSigned || ev.Type == signflow.EventActive {
						trail = append(trail, ev.Type+" "+ev.ActorIN)
					}
				}
				want := []string{}
				for _, s := range order {
					want = append(want, signflow.EventSigned+" "+s.in)
				}
				want = append(want, signflow.EventActive+" "+order[3].in)
				if fmt.Sprint(trail) != fmt.Sprint(want) {
					t.Fatalf("audit %v, want %v", trail, want)
				}
				rows, err := w.Service.Deliveries(signflow.DeliveryFilter{ContractID: c.ID})
				if err != nil {
					t.Fatal(err)
				}
				var hooks []string
				for _, d := range rows {
					hooks = append(hooks, d.Event)
				}
				if fmt.Sprint(hooks) != fmt.Sprint([]string{"CONTRACT_CREATED", "CONTRACT_SIGNED", "CONTRACT_SIGNED", "CONTRACT_SIGNED",
					"CONTRACT_SIGNED", "CONTRACT_ACTIVE"}) {
					t.Fatalf("outbox %v", hooks)
				}
			})
		}
	})
}

// Witness ids are refused, naming the id, unless each is a record the
// creator's tenant holds of someone who is not a party, given once; a
// witness cannot reject, and only the creator's tenant opens its sessions.
func TestWitnessRefusals(t *testing.T) {
	eachEngine(t, func(t *testing.T, e engine) { testWitnessRefusals(t, e) })
}

func testWitnessRefusals(t *testing.T, e engine) {
	w := newWitnessed(t, e.open(t))
	other := fixture.MustClaim(t, w.Service, fixture.OtherIN, &signflow.Client{IN: "51111111111111", FirstName: "X", LastName: "Y", Phone: "998907000009"})
	buyerClaim, err := w.Service.FindClient(w.app, fixture.CustomerIN)
	if err != nil {
		t.Fatal(err)
	}
	unknown := signflow.NewID()
	for _, tc := range []struct {
		name string
		ids  []string
		want string
	}{
		{"unknown id", []string{w.ids[0], unknown}, unknown},
		{"another tenant's claim", []string{other.ID, w.ids[0]}, other.ID},
		{"duplicate", []string{w.ids[1], w.ids[1]}, w.ids[1] + `" is given twice`},
		{"a party as its own witness", []string{w.ids[0], buyerClaim.ID}, buyerClaim.ID + `" is a party`},
		{"not a UUID", []string{w.ids[0], "x"}, `"x" is not a UUID`},
	} {
		before := w.SMS.Count()
		_, err := w.create(tc.ids...)
		if signflow.ErrorCode(err) != signflow.EINVALID || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want 400 naming %s", tc.name, err, tc.want)
		}
		if w.SMS.Count() != before {
			t.Errorf("%s: texts sent", tc.name)
		}
	}
	page, total, err := w.Service.ListContracts(w.app, signflow.ContractQuery{TemplateID: w.tpl.ID, Size: 10})
	if err != nil || total != 0 || len(page) != 0 {
		t.Fatalf("refused creates stored %d contracts (%v)", total, err)
	}

	c, err := w.create(w.ids...)
	if err != nil {
		t.Fatal(err)
	}
	tok := w.open(t, c.ID, witnessPeople[0].IN)
	if _, err := w.Service.SendCodeFor(context.Background(), tok, signflow.IntentReject, signflow.Actor{}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Service.RejectWithCode(tok, lastCode(t, w.SMS, witnessPeople[0].Phone), signflow.Actor{}); signflow.ErrorCode(err) != signflow.EINVALID ||
		!strings.Contains(err.Error(), "witness cannot reject") {
		t.Fatalf("witness rejects: %v", err)
	}
	if got := w.reload(t, c.ID); got.Status != signflow.StatusCreated || got.Version != c.Version {
		t.Fatalf("refused rejection changed the contract: %s v%d", got.Status, got.Version)
	}
	// Another tenant's app neither reads the contract nor opens a session for its witness.
	_, _, err = w.Service.OpenSession(w.Access(t, w.AppB), c.ID, signflow.SessionRequest{SignerIN: witnessPeople[0].IN}, signflow.Actor{})
	if signflow.ErrorCode(err) != signflow.EFORBIDDEN {
		t.Fatalf("other tenant's session for a witness: %v", err)
	}
	// The code goes to the phone the creator's tenant holds for the witness.
	w.Clock.Advance(time.Minute)
	w.send(t, tok, witnessPeople[0].Phone)
	// An owner's record may witness; its own apps and keys still do not read the contract.
	owner, err := w.Service.Owner(fixture.OtherIN)
	if err != nil {
		t.Fatal(err)
	}
	oc, err := w.create(owner.ID, w.ids[0])
	if err != nil || oc.Witnesses[0].IN != fixture.OtherIN || oc.Witnesses[0].LegalName != "Beta Trade LLC" {
		t.Fatalf("an owner as witness: %v %+v", err, oc)
	}
	if _, err := w.Service.Contract(w.Access(t, w.KeyB), oc.ID); signflow.ErrorCode(err) != signflow.EFORBIDDEN {
		t.Fatalf("the witnessing owner's key reads the contract: %v", err)
	}
}

// The last party and the last witness confirm their codes at once: every
// time, exactly one CONTRACT_ACTIVE, with everyone ACCEPTED.
func TestLastPartyAndLastWitnessAtOnce(t *testing.T) {
	eachEngine(t, func(t *testing.T, e engine) {
		w := newWitnessed(t, e.open(t))
		svcs := []*signflow.Service{w.Service, w.Service}
		if e.peer != nil {
			svcs[1] = signflow.NewService(e.peer(t, w.Store), w.Options)
		}
		for round := 0; round < 8; round++ {
			c, err := w.create(w.ids...)
			if err != nil {
				t.Fatal(err)
			}
			w.sign(t, c, peerIN, peerPhone)
			w.sign(t, c, witnessPeople[0].IN, witnessPeople[0].Phone)
			toks := []string{w.open(t, c.ID, fixture.CustomerIN), w.open(t, c.ID, witnessPeople[1].IN)}
			codes := []string{w.send(t, toks[0], custPhone), w.send(t, toks[1], witnessPeople[1].Phone)}
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
			got := w.reload(t, c.ID)
			types := auditTypes(t, w.Service, c.ID)
			if got.Status != signflow.StatusActive || got.Version != 5 || count(types, signflow.EventActive) != 1 || count(types, signflow.EventSigned) != 4 {
				t.Fatalf("round %d: %s v%d %v", round, got.Status, got.Version, types)
			}
			for _, wi := range got.Witnesses {
				if wi.Status != signflow.PartyAccepted {
					t.Fatalf("round %d: witness %+v", round, wi)
				}
			}
		}
	})
}

// A witness in the cabinet: it finds the contracts that name it, as the
// phone it logged in with reaches them, and signs there; it cannot
// reject. A phone another tenant holds for the same number reaches none.
func TestWitnessInTheCabinet(t *testing.T) {
	eachEngine(t, func(t *testing.T, e engine) {
		w := newWitnessed(t, e.open(t))
		cw := &cabinetWorld{peers: w.peers, cab: w.Service.Cabinet(signflow.CabinetOptions{IdleTimeout: 30 * time.Minute})}
		wit := witnessPeople[0]
		fixture.MustClaim(t, w.Service, fixture.OtherIN, &signflow.Client{IN: wit.IN, FirstName: "Planted", LastName: "Phone", Phone: "998907000099"})
		older, err := w.create(w.ids...)
		if err != nil {
			t.Fatal(err)
		}
		c, err := w.create(w.ids...)
		if err != nil {
			t.Fatal(err)
		}
		_, s := cw.login(t, wit.IN, wit.Phone)
		list, err := cw.cab.Contracts(s, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(list.Witnessed) != 2 || list.Witnessed[0].ID != c.ID || list.Witnessed[1].ID != older.ID || list.OpenTotal != 0 {
			t.Fatalf("witnessed %d, open %d", len(list.Witnessed), list.OpenTotal)
		}
		_, tok, err := cw.cab.OpenSigning(s, c.ID, "en", signflow.Actor{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cw.cab.Reject(s, tok, signflow.Actor{}); signflow.ErrorCode(err) != signflow.EINVALID {
			t.Fatalf("witness rejects in the cabinet: %v", err)
		}
		if _, err := w.Service.ConfirmCode(tok, w.send(t, tok, wit.Phone), signflow.Actor{}); err != nil {
			t.Fatal(err)
		}
		if got := w.reload(t, c.ID); got.Witness(wit.IN).Status != signflow.PartyAccepted || got.Status != signflow.StatusCreated {
			t.Fatalf("after the witness signed in the cabinet: %s %+v", got.Status, got.Witness(wit.IN))
		}
		// The phone the other tenant planted logs in but reaches nothing of X's.
		w.Clock.Advance(2 * time.Minute) // past the login code's resend wait
		_, planted := cw.login(t, wit.IN, "998907000099")
		if list, err := cw.cab.Contracts(planted, 0); err != nil || len(list.Witnessed) != 0 {
			t.Fatalf("planted phone lists %v (%v)", list, err)
		}
		if _, err := cw.cab.Contract(planted, c.ID); signflow.ErrorCode(err) != signflow.EFORBIDDEN {
			t.Fatalf("planted phone reads the contract: %v", err)
		}
		if _, _, err := cw.cab.OpenSigning(planted, older.ID, "en", signflow.Actor{}); signflow.ErrorCode(err) != signflow.EFORBIDDEN {
			t.Fatalf("planted phone opens a session: %v", err)
		}
	})
}
