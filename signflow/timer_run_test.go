package signflow_test

import (
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// Deadlines and reminders as the sweeper runs them on a running appliance
// are checked by server/deadline_env_test.go (TestSignByDeadline,
// TestSignByDeadlineOnce), server/notify_env_test.go and
// server/payment_remind_env_test.go, and the store's timers on both
// engines by storage/storagetest (Timers); here, timer_run.go's rule: a
// timer runs once it is due, not before, and once only.
func TestRunTimersWhenDueOnce(t *testing.T) {
	w := fixture.NewStandard(t)
	signBy := w.Clock.Now().Add(time.Hour)
	c, err := w.Service.CreateContract(w.Access(t, w.AppA), &signflow.ContractInput{TemplateID: w.Template.ID,
		BuyerIN: fixture.CustomerIN, Price: 1000, Currency: "UZS", SignBy: &signBy}, signflow.Actor{})
	if err != nil {
		t.Fatal(err)
	}
	status := func() string {
		t.Helper()
		var got *signflow.Contract
		fixture.Must(t, func() error {
			return w.Store.View(func(tx signflow.Tx) (err error) { got, err = tx.Contract(c.ID); return err })
		})
		return got.Status
	}
	w.Clock.Advance(time.Hour - time.Second)
	if n, err := w.Service.RunTimers(); err != nil || n != 0 || status() != signflow.StatusCreated {
		t.Fatalf("before signBy: ran %d, %v; status %s", n, err, status())
	}
	w.Clock.Advance(time.Second)
	if n, err := w.Service.RunTimers(); err != nil || n != 1 || status() != signflow.StatusCancelled {
		t.Fatalf("at signBy: ran %d, %v; status %s", n, err, status())
	}
	if n, err := w.Service.RunTimers(); err != nil || n != 0 {
		t.Fatalf("again: ran %d, %v", n, err)
	}
}
