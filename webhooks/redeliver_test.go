package webhooks_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"contracts/server"
	"contracts/server/admin"
	"contracts/signflow"
	"contracts/webhooks"

	"github.com/rs/zerolog"
)

// Redelivery through the admin API, wired to the pool as in the appliance:
// a FAILED row gets a fresh round of four attempts under its id.
func TestRedeliverFailedThroughAdminAPI(t *testing.T) {
	h := newHarness(t)
	var healthy atomic.Bool
	rcv := newReceiver(t, func(int) int {
		if healthy.Load() {
			return 204
		}
		return 500
	})
	pool := h.start(webhooks.Options{})
	e := server.NewEcho("admin", zerolog.Nop(), server.NewMetrics(), true)
	admin.Register(e, admin.Deps{Service: h.svc, DB: h.DB, Token: "admin-token", Metrics: server.NewMetrics(), Redelivered: pool.Redelivered})
	api := httptest.NewServer(e)
	t.Cleanup(api.Close)
	call := func(method, path string, out any) {
		t.Helper()
		req, _ := http.NewRequest(method, api.URL+path, nil)
		req.Header.Set("Authorization", "Bearer admin-token")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if resp.StatusCode/100 != 2 {
			t.Fatalf("%s %s: %s", method, path, resp.Status)
		}
		if out != nil {
			if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
				t.Fatal(err)
			}
		}
	}

	c := h.contract(h.app(rcv.URL))
	id := h.only(c.ID).ID
	h.runRound(id, 0, 4)
	h.waitStatus(id, signflow.DeliveryFailed)

	// A second round fails the same way: four more attempts, same spacing.
	h.clock.Advance(time.Hour)
	call(http.MethodPost, "/admin/v1/deliveries/"+id+"/redeliver", nil)
	h.runRound(id, 4, 4)
	d := h.waitStatus(id, signflow.DeliveryFailed)
	if d.RoundStart != 4 || !d.Attempts[4].At.Equal(d.Attempts[3].At.Add(time.Hour)) {
		t.Errorf("second round starts at attempt %d at %v, want attempt 4 at once after the redelivery", d.RoundStart, d.Attempts[4].At)
	}
	checkSpacing(t, d.Attempts[4:], 2*time.Second, 4*time.Second, 8*time.Second)

	// The third round reaches a receiver that answers again.
	healthy.Store(true)
	call(http.MethodPost, "/admin/v1/deliveries/"+id+"/redeliver", nil)
	h.waitStatus(id, signflow.DeliveryDelivered)

	var log []struct {
		ID       string `json:"id"`
		Status   string `json:"status"`
		Attempts []struct {
			StatusCode int `json:"statusCode"`
		} `json:"attempts"`
	}
	call(http.MethodGet, "/admin/v1/deliveries?contractId="+c.ID, &log)
	if len(log) != 1 || log[0].ID != id || log[0].Status != signflow.DeliveryDelivered || len(log[0].Attempts) != 9 || log[0].Attempts[8].StatusCode != 204 {
		t.Errorf("admin delivery log %+v, want %s DELIVERED after 8 failed attempts and a 204", log, id)
	}
	got := rcv.got()
	if len(got) != 9 {
		t.Fatalf("receiver saw %d requests, want 9", len(got))
	}
	for i, r := range got {
		if r.header.Get("X-Contracts-Delivery") != id {
			t.Errorf("request %d carried delivery id %q, want %q", i+1, r.header.Get("X-Contracts-Delivery"), id)
		}
	}
}
