package signflow_test

import (
	"strings"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// Reminders as a running appliance sends them (their texts per language,
// the fresh session's link, the cap on sessions) are checked by
// server/notify_env_test.go (TestReminders, TestRemindersWithinSessionCap);
// here, remind.go's rule: a notified signer who has not signed is reminded
// every RemindEvery, Reminders times, and then no more.
func TestRemindersSpentThenStop(t *testing.T) {
	w := fixture.NewStandard(t)
	opt := w.Options
	opt.Reminders, opt.RemindEvery = 2, time.Hour
	svc := signflow.NewService(w.Store, opt)
	a := w.Access(t, w.AppA)
	c, err := svc.CreateContract(a, &signflow.ContractInput{TemplateID: w.Template.ID, BuyerIN: fixture.CustomerIN,
		Price: 1000, Currency: "UZS"}, signflow.Actor{})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := svc.OpenSession(a, c.ID, signflow.SessionRequest{SignerIN: fixture.CustomerIN, Notify: signflow.NotifySMS,
		LinkBase: "https://keys.example/sign/"}, signflow.Actor{}); err != nil {
		t.Fatal(err)
	}
	sent := w.SMS.Count()
	run := func(after time.Duration, want int) {
		t.Helper()
		w.Clock.Advance(after)
		if n, err := svc.RunTimers(); err != nil || n != want {
			t.Fatalf("after %v more: ran %d timers, %v; want %d", after, n, err, want)
		}
	}
	run(time.Hour-time.Second, 0)
	run(time.Second, 1)
	if w.SMS.Count() != sent+1 || !strings.Contains(w.SMS.Newest(t, "998901234567").Text, "https://keys.example/sign/") {
		t.Fatalf("the first reminder: %d texts, newest %+v", w.SMS.Count()-sent, w.SMS.Newest(t, "998901234567"))
	}
	run(time.Hour, 1)
	run(time.Hour, 0)
	run(24*time.Hour, 0)
	if got := w.SMS.Count() - sent; got != 2 {
		t.Fatalf("%d reminders sent, want 2", got)
	}
}
