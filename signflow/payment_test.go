package signflow_test

import (
	"fmt"
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
