package signflow_test

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// instalment creates, on the peers world, a sale of 250000 with 50000
// down and two instalments of 100000 a month and two months on, on the
// template (nil: the standard one), and has both parties sign it through
// their SMS sessions.
func (p *peers) instalment(t *testing.T, tpl *signflow.Template) *signflow.Contract {
	t.Helper()
	if tpl == nil {
		tpl = p.Template
	}
	day := time.Date(2026, 12, 22, 0, 0, 0, 0, time.UTC)
	c, err := p.Service.CreateContract(p.app, &signflow.ContractInput{TemplateID: tpl.ID, BuyerIN: fixture.CustomerIN,
		Price: 250000, InitialPayment: 50000, Currency: "UZS",
		Payments: []signflow.Payment{{Amount: 100000, PaymentDate: day.AddDate(0, 1, 0)}, {Amount: 100000, PaymentDate: day}}},
		signflow.Actor{IP: "10.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []struct{ in, phone string }{{fixture.CustomerIN, custPhone}, {peerIN, peerPhone}} {
		tok := p.open(t, c.ID, s.in)
		if _, err := p.Service.ConfirmCode(tok, p.send(t, tok, s.phone), signflow.Actor{IP: "10.0.0.5"}); err != nil {
			t.Fatal(err)
		}
	}
	return p.reload(t, c.ID)
}

func (p *peers) pay(t *testing.T, id string, amount int64, ref string) *signflow.Receipt {
	t.Helper()
	r, err := p.Service.RecordPayment(p.app, id, signflow.PaymentInput{Amount: amount, PaidAt: p.Clock.Now(), Method: signflow.PayCash,
		Reference: ref}, signflow.Actor{IP: "10.0.0.6"})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func (p *peers) ledger(t *testing.T, id string) *signflow.Ledger {
	t.Helper()
	l, err := p.Service.Ledger(p.app, id)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// statuses renders the items as "kind amount paid status" lines.
func statuses(l *signflow.Ledger) []string {
	var out []string
	for _, it := range l.Items {
		out = append(out, fmt.Sprintf("%d %s %d %d %s", it.N, it.Kind, it.Amount, it.Paid, it.Status))
	}
	return out
}

// The plan follows the contract: the initial payment due at activation,
// then the schedule by date; receipts pay the oldest items first, and an
// item is OVERDUE once its due day has passed unpaid.
func TestLedgerPlanAndReceipts(t *testing.T) {
	p := newPeers(t)
	c := p.instalment(t, nil)
	l := p.ledger(t, c.ID)
	want := []string{"1 INITIAL 50000 0 PENDING", "2 SCHEDULED 100000 0 PENDING", "3 SCHEDULED 100000 0 PENDING"}
	if fmt.Sprint(statuses(l)) != fmt.Sprint(want) || l.Total != 250000 || l.Balance != 250000 || l.Currency != "UZS" {
		t.Fatalf("fresh ledger %v total %d balance %d", statuses(l), l.Total, l.Balance)
	}
	if !l.Items[0].Due.Equal(p.Clock.Now().Truncate(time.Second)) || l.Items[1].Due.Day() != 22 || l.Items[1].Due.Month() != 12 {
		t.Fatalf("due dates %v %v", l.Items[0].Due, l.Items[1].Due)
	}
	p.pay(t, c.ID, 30000, "")
	p.Clock.Advance(24 * time.Hour)
	if got := statuses(p.ledger(t, c.ID)); got[0] != "1 INITIAL 50000 30000 OVERDUE" {
		t.Fatalf("a day on, part paid: %v", got)
	}
	p.pay(t, c.ID, 70000, "")
	l = p.ledger(t, c.ID)
	want = []string{"1 INITIAL 50000 50000 PAID", "2 SCHEDULED 100000 50000 PARTIAL", "3 SCHEDULED 100000 0 PENDING"}
	if fmt.Sprint(statuses(l)) != fmt.Sprint(want) || l.Paid != 100000 || l.Balance != 150000 || len(l.Receipts) != 2 {
		t.Fatalf("after 100000: %v paid %d balance %d receipts %d", statuses(l), l.Paid, l.Balance, len(l.Receipts))
	}
	// Without completeWhenPaid the contract stays ACTIVE when all is paid.
	p.pay(t, c.ID, 150000, "")
	if got := p.reload(t, c.ID); got.Status != signflow.StatusActive || p.ledger(t, c.ID).Balance != 0 {
		t.Fatalf("paid in full without completeWhenPaid: %s", got.Status)
	}
	// A contract without a schedule owes the price less the initial payment at activation.
	plain := signflow.BuildLedger(&signflow.Contract{Status: signflow.StatusCreated, Price: 1000, InitialPayment: 100, Currency: "USD"}, nil, p.Clock.Now())
	if fmt.Sprint(statuses(plain)) != "[1 INITIAL 100 0 PENDING 2 SCHEDULED 900 0 PENDING]" || plain.Items[0].Due != nil {
		t.Fatalf("no schedule, not active: %v due %v", statuses(plain), plain.Items[0].Due)
	}
}

// Refusals change nothing: no receipt, no version, no event.
func TestRecordPaymentRefusals(t *testing.T) {
	p := newPeers(t)
	c := p.instalment(t, nil)
	now := p.Clock.Now()
	// Owner A buys from the peer: a party, but not the one who receives the money.
	buyerSide := fixture.MustCredential(t, p.Service.CreateApp, &signflow.CredentialInput{Name: "buyer shop", OwnerIN: fixture.OwnerIN,
		Scopes: signflow.AppScopes, AllTemplates: true})
	bought, err := p.Service.CreateContract(p.app, &signflow.ContractInput{TemplateID: p.Template.ID, BuyerIN: fixture.OwnerIN,
		Price: 1000, Currency: "UZS"}, signflow.Actor{})
	if err != nil {
		t.Fatal(err)
	}
	readOnly := *p.app
	readOnly.Scopes = []string{signflow.ScopeContractsRead}
	cases := []struct {
		name string
		a    *signflow.Access
		id   string
		in   signflow.PaymentInput
		code string
	}{
		{"zero", p.app, c.ID, signflow.PaymentInput{Amount: 0, PaidAt: now, Method: signflow.PayCash}, signflow.EINVALID},
		{"negative", p.app, c.ID, signflow.PaymentInput{Amount: -5, PaidAt: now, Method: signflow.PayCash}, signflow.EINVALID},
		{"above the balance", p.app, c.ID, signflow.PaymentInput{Amount: 250001, PaidAt: now, Method: signflow.PayCash}, signflow.EINVALID},
		{"in the future", p.app, c.ID, signflow.PaymentInput{Amount: 5, PaidAt: now.Add(time.Minute), Method: signflow.PayBank}, signflow.EINVALID},
		{"provider method", p.app, c.ID, signflow.PaymentInput{Amount: 5, PaidAt: now, Method: signflow.PayPayme}, signflow.EINVALID},
		{"no paidAt", p.app, c.ID, signflow.PaymentInput{Amount: 5, Method: signflow.PayCard}, signflow.EINVALID},
		{"not ACTIVE", p.app, p.c.ID, signflow.PaymentInput{Amount: 5, PaidAt: now, Method: signflow.PayCash}, signflow.EINVALID},
		{"the buyer's tenant", p.Access(t, buyerSide), bought.ID, signflow.PaymentInput{Amount: 5, PaidAt: now, Method: signflow.PayCash}, signflow.EFORBIDDEN},
		{"no part in it", p.Access(t, p.AppB), c.ID, signflow.PaymentInput{Amount: 5, PaidAt: now, Method: signflow.PayCash}, signflow.EFORBIDDEN},
		{"without CONTRACTS_WRITE", &readOnly, c.ID, signflow.PaymentInput{Amount: 5, PaidAt: now, Method: signflow.PayCash}, signflow.EFORBIDDEN},
		{"unknown contract", p.app, signflow.NewID(), signflow.PaymentInput{Amount: 5, PaidAt: now, Method: signflow.PayCash}, signflow.ENOTFOUND},
	}
	for _, tc := range cases {
		if _, err := p.Service.RecordPayment(tc.a, tc.id, tc.in, signflow.Actor{}); signflow.ErrorCode(err) != tc.code {
			t.Errorf("%s: %v, want %s", tc.name, err, tc.code)
		}
	}
	after := p.reload(t, c.ID)
	if after.Version != c.Version || len(p.ledger(t, c.ID).Receipts) != 0 || count(auditTypes(t, p.Service, c.ID), signflow.EventPaymentAccepted) != 0 {
		t.Fatalf("a refusal changed the contract: version %d -> %d", c.Version, after.Version)
	}
}

// The same reference again answers the first receipt and records nothing.
func TestRecordPaymentByReferenceOnce(t *testing.T) {
	p := newPeers(t)
	c := p.instalment(t, nil)
	first := p.pay(t, c.ID, 50000, "PKO-17")
	again := p.pay(t, c.ID, 50000, "PKO-17")
	if again.ID != first.ID || len(p.ledger(t, c.ID).Receipts) != 1 || count(auditTypes(t, p.Service, c.ID), signflow.EventPaymentAccepted) != 1 {
		t.Fatalf("repeated reference: %s vs %s", again.ID, first.ID)
	}
}

// With completeWhenPaid, the receipt that brings the balance to 0 makes the
// contract COMPLETED in its own transaction; each receipt sends
// PAYMENT_ACCEPTED with the payment and the balance in the target's unit.
func TestCompleteWhenPaid(t *testing.T) {
	p := newPeers(t)
	tpl := fixture.MustTemplate(t, p.Service, fixture.TemplateYAML+"completeWhenPaid: true\n")
	c := p.instalment(t, tpl)
	p.pay(t, c.ID, 50000, "a")
	if got := p.reload(t, c.ID); got.Status != signflow.StatusActive {
		t.Fatalf("part paid: %s", got.Status)
	}
	last := p.pay(t, c.ID, 200000, "b")
	got := p.reload(t, c.ID)
	if got.Status != signflow.StatusCompleted || count(auditTypes(t, p.Service, c.ID), signflow.AuditCompleted) != 1 {
		t.Fatalf("paid in full: %s %v", got.Status, auditTypes(t, p.Service, c.ID))
	}
	if _, err := p.Service.RecordPayment(p.app, c.ID, signflow.PaymentInput{Amount: 1, PaidAt: p.Clock.Now(), Method: signflow.PayCash},
		signflow.Actor{}); signflow.ErrorCode(err) != signflow.EINVALID {
		t.Fatalf("payment on a COMPLETED contract: %v", err)
	}
	rows, err := p.Service.Deliveries(signflow.DeliveryFilter{ContractID: c.ID})
	if err != nil {
		t.Fatal(err)
	}
	var bodies []map[string]any
	for _, d := range rows {
		if d.Event == signflow.EventPaymentAccepted {
			var b map[string]any
			if err := json.Unmarshal(d.Body, &b); err != nil {
				t.Fatal(err)
			}
			bodies = append(bodies, b)
		}
	}
	if len(bodies) != 2 {
		t.Fatalf("%d PAYMENT_ACCEPTED rows", len(bodies))
	}
	b := bodies[1]
	pay, _ := b["payment"].(map[string]any)
	if b["status"] != "COMPLETED" || b["balance"] != float64(0) || pay["id"] != last.ID || pay["amount"] != float64(2000) ||
		pay["method"] != "CASH" || pay["reference"] != "b" || pay["paidAt"] != p.Clock.Now().UTC().Format(time.RFC3339) {
		t.Fatalf("webhook body %v", b)
	}
	if bodies[0]["balance"] != float64(2000) || bodies[0]["status"] != "ACTIVE" {
		t.Fatalf("first body %v", bodies[0])
	}
}

// Two receipts of the whole balance at once, through two processes where
// the engine has them: exactly one is taken, the balance never below 0.
func TestConcurrentReceiptsTakeOne(t *testing.T) {
	eachEngine(t, func(t *testing.T, e engine) {
		p := newPeersOn(t, e.open(t))
		svcs := []*signflow.Service{p.Service, p.Service}
		if e.peer != nil {
			svcs[1] = signflow.NewService(e.peer(t, p.Store), p.Options)
		}
		for round := 0; round < 5; round++ {
			c := p.instalment(t, nil)
			p.pay(t, c.ID, 150000, "")
			start := make(chan struct{})
			errs := make([]error, 2)
			var wg sync.WaitGroup
			for i := range svcs {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					_, errs[i] = svcs[i].RecordPayment(p.app, c.ID, signflow.PaymentInput{Amount: 100000, PaidAt: p.Clock.Now(),
						Method: signflow.PayBank, Reference: fmt.Sprint("wire ", i)}, signflow.Actor{})
				}()
			}
			close(start)
			wg.Wait()
			ok := 0
			for _, err := range errs {
				if err == nil {
					ok++
				} else if signflow.ErrorCode(err) != signflow.EINVALID {
					t.Fatalf("round %d: %v", round, err)
				}
			}
			l := p.ledger(t, c.ID)
			if ok != 1 || l.Balance != 0 || l.Paid != 250000 || len(l.Receipts) != 2 ||
				count(auditTypes(t, p.Service, c.ID), signflow.EventPaymentAccepted) != 2 {
				t.Fatalf("round %d: %d taken, paid %d, %d receipts", round, ok, l.Paid, len(l.Receipts))
			}
		}
	})
}
