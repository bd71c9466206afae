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
