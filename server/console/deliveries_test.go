package console_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"contracts/internal/apitest"
	"contracts/signflow"
)

// Redeliver queues a failed delivery again under its id and wakes the workers.
func TestConsoleRedeliver(t *testing.T) {
	e := newEnv(t)
	c := e.contract(t)
	d := e.failedDelivery(t, c.ID)
	b := e.loggedIn(t)
	apitest.Run(t, b.api, []apitest.Scenario{
		{Name: "failed deliveries", Path: "/console/deliveries?status=FAILED", Status: 200},
		{Name: "redeliver", Method: "POST", Path: "/console/deliveries/" + d.ID + "/redeliver", As: pageToken, Body: url.Values{"status": {"FAILED"}},
			Status: http.StatusSeeOther, Check: func(t *testing.T, r apitest.Reply) {
				if loc := r.Header.Get("Location"); !strings.HasPrefix(loc, "/console/deliveries?") {
					t.Fatalf("redeliver: %s", loc)
				}
				b.then(apitest.Scenario{Name: "redelivered", Status: 200, Want: []string{"The delivery is queued again."}})(t, r)
				ds, _ := e.Service.Deliveries(signflow.DeliveryFilter{ContractID: c.ID})
				for _, got := range ds {
					if got.ID == d.ID && got.Status != signflow.DeliveryPending {
						t.Fatalf("after redeliver: %s", got.Status)
					}
				}
				if e.redelivered.Load() != 1 {
					t.Fatalf("the workers were told %d times", e.redelivered.Load())
				}
			}},
		{Name: "unknown delivery", Method: "POST", Path: "/console/deliveries/nothing/redeliver", As: pageToken, Body: url.Values{},
			Status: http.StatusNotFound, Want: []string{"<h1>Delivery not found</h1>"}},
	})
}
