package webhooks_test

import (
	"strings"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"
	"contracts/webhooks"
)

// A target whose address is link-local when the attempt connects (a name
// that resolves there now, or a URL stored before the check at set-up) is
// not connected to: the attempt fails at once with the reason in the
// delivery log. Receivers on loopback are sent to as before.
func TestLinkLocalTargetIsNotConnectedTo(t *testing.T) {
	h := newHarness(t)
	rcv := newReceiver(t, answer(204))
	targets := []string{"http://169.254.169.254:9/latest/meta-data/", "http://[fe80::1]:9/hook", "http://[::ffff:169.254.169.254]:9/"}
	var rows []string
	for _, url := range targets {
		app := h.app(rcv.URL + "/hook")
		fixture.Must(t, func() error {
			return h.store.Update(func(tx signflow.Tx) error {
				a, err := tx.App(app.ID)
				if err != nil {
					return err
				}
				a.WebhookURL = url
				return tx.PutApp(a)
			})
		})
		rows = append(rows, h.only(h.contract(app).ID).ID)
	}
	good := h.only(h.contract(h.app(rcv.URL + "/hook")).ID).ID
	timeout := 5 * time.Second
	h.start(webhooks.Options{AttemptTimeout: timeout})

	for i, id := range rows {
		a := h.waitAttempts(id, 1).Attempts[0]
		if a.StatusCode != 0 || !strings.Contains(a.Error, "refused") || !strings.Contains(a.Error, "link-local") {
			t.Errorf("%s: attempt %+v, want refused as link-local", targets[i], a)
		}
		if a.DurationMs >= timeout.Milliseconds()/2 {
			t.Errorf("%s: the refusal took %d ms: a connection was tried", targets[i], a.DurationMs)
		}
	}
	if d := h.waitStatus(good, signflow.DeliveryDelivered); len(d.Attempts) != 1 || len(rcv.got()) != 1 {
		t.Errorf("the loopback receiver: %d attempts, %d requests", len(d.Attempts), len(rcv.got()))
	}
}
