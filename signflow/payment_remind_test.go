package signflow_test

import (
	"testing"
	"time"

	"contracts/signflow"
)

// Payment reminders as a running appliance sends them (their text, the pay
// link, turned off) are checked by server/payment_remind_env_test.go
// (TestPaymentReminders, TestPaymentRemindersOff); here,
// payment_remind.go's rule: each item due after activation is reminded
// PaymentRemindBefore ahead, once, and not when it is paid by then.
func TestPaymentRemindedBeforeDueUnlessPaid(t *testing.T) {
	p := newPeers(t)
	opt := p.Options
	opt.PaymentRemindBefore = 72 * time.Hour
	p.Service = signflow.NewService(p.Store, opt)
	c := p.instalment(t, nil) // 50000 at activation, 100000 on 2026-12-22 and on 2027-01-22
	texts := p.SMS.Count
	run := func(to time.Time, want int) {
		t.Helper()
		p.Clock.Advance(to.Sub(p.Clock.Now()))
		if n, err := p.Service.RunTimers(); err != nil || n != want {
			t.Fatalf("at %v: ran %d timers, %v; want %d", to, n, err, want)
		}
	}
	before := texts()
	run(time.Date(2026, 12, 18, 23, 59, 0, 0, time.UTC), 0)
	run(time.Date(2026, 12, 19, 0, 0, 0, 0, time.UTC), 1)
	if got := texts() - before; got != 1 || p.SMS.Last().Phone != custPhone {
		t.Fatalf("%d texts three days before the first instalment, the last to %s; want 1 to the buyer", got, p.SMS.Last().Phone)
	}
	run(time.Date(2026, 12, 20, 0, 0, 0, 0, time.UTC), 0)
	p.pay(t, c.ID, 250000, "all")
	run(time.Date(2027, 1, 19, 0, 0, 0, 0, time.UTC), 1)
	if got := texts() - before; got != 1 {
		t.Fatalf("%d texts in all, want the second item, paid, not reminded", got)
	}
}
