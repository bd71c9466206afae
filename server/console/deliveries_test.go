package console_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"contracts/internal/apitest"
	"contracts/internal/fixture"
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

// The log is paged newest first, 50 to a page, each filter on its own:
// the failed, the delivered, a contract's, all; a page past the last is
// the last, and Redeliver comes back to the page it was on.
func TestConsoleDeliveriesPaging(t *testing.T) {
	e := newEnv(t)
	c := e.contract(t)
	other := e.contract(t)
	// 60 failed and 60 delivered, in turn; the other contract's are every third.
	var failed, delivered, all, ofOther []string // newest first
	fixture.Must(t, func() error {
		return e.DB.Update(func(tx signflow.Tx) error {
			for i := 0; i < 120; i++ {
				d := &signflow.Delivery{ID: signflow.NewID(), Event: signflow.EventCreated, ContractID: c.ID, Target: signflow.AppTarget(e.AppA.ID),
					TargetName: "App A", URL: "http://127.0.0.1:9/hook", Body: json.RawMessage(`{}`), Status: signflow.DeliveryFailed, CreatedAt: e.Clock.Now()}
				if i%3 == 0 {
					d.ContractID = other.ID
					ofOther = append([]string{d.ID}, ofOther...)
				}
				if i%2 == 1 {
					d.Status = signflow.DeliveryDelivered
					delivered = append([]string{d.ID}, delivered...)
				} else {
					failed = append([]string{d.ID}, failed...)
				}
				all = append([]string{d.ID}, all...)
				if err := tx.AddDelivery(d); err != nil {
					return err
				}
			}
			return nil
		})
	})
	b := e.loggedIn(t)
	lists := func(want []string) func(*testing.T, apitest.Reply) {
		return func(t *testing.T, r apitest.Reply) {
			if got := deliveryIDs(r.Body); !slices.Equal(got, want) {
				t.Fatalf("%d deliveries listed, want %d, in this order:\n%v\n%v", len(got), len(want), got, want)
			}
		}
	}
	apitest.Run(t, b.api, []apitest.Scenario{
		{Name: "failed, the newest", Path: "/console/deliveries?status=FAILED", Status: 200, Check: lists(failed[:50]),
			Want: []string{"Found: 60", "Page 1 of 2", `href="/console/deliveries?page=1&amp;status=FAILED">Older →`}, Not: []string{"Newer"}},
		{Name: "failed, the older", Path: "/console/deliveries?status=FAILED&page=1", Status: 200, Check: lists(failed[50:]),
			Want: []string{"Page 2 of 2", `href="/console/deliveries?page=0&amp;status=FAILED">← Newer`}, Not: []string{"Older"}},
		{Name: "past the last page", Path: "/console/deliveries?status=FAILED&page=7", Status: 200, Check: lists(failed[50:])},
		{Name: "delivered", Path: "/console/deliveries?status=DELIVERED&page=1", Status: 200, Check: lists(delivered[50:]),
			Want: []string{"Found: 60", "Page 2 of 2"}},
		{Name: "a contract's", Path: "/console/deliveries?contract=" + other.ID, Status: 200, Check: lists(ofOther),
			Want: []string{"Found: 40"}, Not: []string{"Page 1"}},
		{Name: "all, the newest", Path: "/console/deliveries", Status: 200, Check: lists(all[:50]), Want: []string{"Found: 120", "Page 1 of 3"}},
		{Name: "all, the oldest", Path: "/console/deliveries?page=2", Status: 200, Check: lists(all[100:]), Want: []string{"Page 3 of 3"}},
		{Name: "the dashboard's newest failed", Path: "/console", Status: 200, Want: []string{"And 55 more."}, Check: func(t *testing.T, r apitest.Reply) {
			for i, id := range failed[:5] {
				if !strings.Contains(r.Body, "#d-"+id+`"`) || (i > 0 && strings.Index(r.Body, "#d-"+id) < strings.Index(r.Body, "#d-"+failed[i-1])) {
					t.Fatalf("failed delivery %d (%s) is not in its place", i, id)
				}
			}
		}},
		{Name: "redeliver on the older page", Method: "POST", Path: "/console/deliveries/" + failed[55] + "/redeliver", As: pageToken,
			Body: url.Values{"status": {"FAILED"}, "page": {"1"}}, Status: http.StatusSeeOther,
			WantHeader: map[string]string{"Location": "/console/deliveries?page=1&redelivered=1&status=FAILED#d-" + failed[55]}},
	})
}

// A log longer than a page of the whole log reads says that not all of
// it is listed.
func TestConsoleDeliveriesLogCut(t *testing.T) {
	e := newEnv(t)
	c := e.contract(t)
	fixture.Must(t, func() error {
		return e.DB.Update(func(tx signflow.Tx) error {
			for i := 0; i < 1001; i++ {
				d := &signflow.Delivery{ID: signflow.NewID(), Event: signflow.EventCreated, ContractID: c.ID, Target: signflow.AppTarget(e.AppA.ID),
					URL: "http://127.0.0.1:9/hook", Body: json.RawMessage(`{}`), Status: signflow.DeliveryDelivered, CreatedAt: e.Clock.Now()}
				if err := tx.AddDelivery(d); err != nil {
					return err
				}
			}
			return nil
		})
	})
	b := e.loggedIn(t)
	apitest.Run(t, b.api, []apitest.Scenario{
		{Name: "all", Path: "/console/deliveries", Status: 200, Want: []string{"More than 1000 deliveries match; 1000 of them are listed", "Page 1 of 20"},
			Not: []string{"Found:"}},
		{Name: "a contract's, read by its index", Path: "/console/deliveries?contract=" + c.ID, Status: 200, Want: []string{"Found: 1001", "Page 1 of 21"},
			Not: []string{"More than"}},
	})
}

var deliveryIDRE = regexp.MustCompile(`<li class="card delivery" id="d-([0-9a-f-]+)"`)

// deliveryIDs lists the deliveries of a page, in its order.
func deliveryIDs(body string) []string {
	var out []string
	for _, m := range deliveryIDRE.FindAllStringSubmatch(body, -1) {
		out = append(out, m[1])
	}
	return out
}
