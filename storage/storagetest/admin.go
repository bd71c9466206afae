package storagetest

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// adminWorld holds contracts of two tenants over several days, some
// cancelled, and a party whose name only tenant B knows.
func adminWorld(t *testing.T, e Engine) (*fixture.Standard, []*signflow.Contract) {
	w := fixture.NewStandardOn(t, e.Open(t))
	appA, appB := w.Access(t, w.AppA), w.Access(t, w.AppB)
	fixture.MustClaim(t, w.Service, fixture.OtherIN, &signflow.Client{IN: "32200000000001", FirstName: "Dilnoza", LastName: "Rahimova", Phone: "998901112200"})
	var all []*signflow.Contract
	for i := 0; i < 14; i++ {
		a, buyer := appA, fixture.CustomerIN
		if i%3 == 1 {
			a, buyer = appB, "32200000000001"
		}
		c, err := w.Service.CreateContract(a, &signflow.ContractInput{TemplateID: w.Template.ID, BuyerIN: buyer, Price: int64(100 * (i + 1)), Currency: "UZS"}, signflow.Actor{})
		if err != nil {
			t.Fatal(err)
		}
		if i%4 == 0 {
			if _, err := w.Service.Cancel(a, c.ID, signflow.Actor{}); err != nil {
				t.Fatal(err)
			}
			c.Status = signflow.StatusCancelled
		}
		all = append(all, c)
		if i%5 == 4 {
			w.Clock.Advance(26 * time.Hour)
		}
	}
	return w, all
}

// The administrator's list holds every tenant's contracts, newest first,
// filtered, searched and paged as a walk over all of them would answer,
// whichever way the store gathers the matches.
func testAdminContractsEveryone(t *testing.T, e Engine) {
	w, all := adminWorld(t, e)
	slices.Reverse(all)
	want := func(keep func(*signflow.Contract) bool) []string {
		var out []string
		for _, c := range all {
			if keep(c) {
				out = append(out, c.Number)
			}
		}
		return out
	}
	cancelled := func(c *signflow.Contract) bool { return c.Status == signflow.StatusCancelled }
	cases := []struct {
		name string
		q    signflow.ContractQuery
		keep func(*signflow.Contract) bool
	}{
		{"everything", signflow.ContractQuery{}, func(*signflow.Contract) bool { return true }},
		{"status", signflow.ContractQuery{Statuses: []string{signflow.StatusCancelled}}, cancelled},
		{"number", signflow.ContractQuery{Search: all[3].Number}, func(c *signflow.Contract) bool { return c.ID == all[3].ID }},
		{"full party number", signflow.ContractQuery{Search: "32200000000001"}, func(c *signflow.Contract) bool { return c.BuyerIN == "32200000000001" }},
		{"party number prefix", signflow.ContractQuery{Search: "3220000"}, func(c *signflow.Contract) bool { return c.BuyerIN == "32200000000001" }},
		{"short prefix", signflow.ContractQuery{Search: "3"}, func(*signflow.Contract) bool { return true }},
		{"owner number", signflow.ContractQuery{Search: fixture.OtherIN}, func(c *signflow.Contract) bool { return c.HasParty(fixture.OtherIN) }},
		{"name only B knows", signflow.ContractQuery{Search: "rahim"}, func(c *signflow.Contract) bool { return c.BuyerIN == "32200000000001" }},
		{"owner name", signflow.ContractQuery{Search: "Alpha savdo"}, func(c *signflow.Contract) bool { return c.HasParty(fixture.OwnerIN) }},
		{"name and status", signflow.ContractQuery{Search: "Karimov", Statuses: []string{signflow.StatusCancelled}},
			func(c *signflow.Contract) bool { return c.BuyerIN == fixture.CustomerIN && cancelled(c) }},
		{"nothing", signflow.ContractQuery{Search: "nobody"}, func(*signflow.Contract) bool { return false }},
	}
	for variant, restore := range e.variants() {
		for _, tc := range cases {
			expect := want(tc.keep)
			var got []string
			for page := 0; ; page++ {
				q := tc.q
				q.Page, q.Size = page, 4
				views, total, err := w.Service.AdminContracts(q)
				if err != nil {
					t.Fatalf("%s: %v", tc.name, err)
				}
				if total != len(expect) {
					t.Errorf("%s (%s): total %d, want %d", tc.name, variant, total, len(expect))
				}
				for _, v := range views {
					got = append(got, v.Number)
				}
				if len(views) < 4 {
					break
				}
			}
			if !slices.Equal(got, expect) {
				t.Errorf("%s (%s): %v, want %v", tc.name, variant, got, expect)
			}
		}
		restore()
	}
	e.check(t, w.Store)
	if _, _, err := w.Service.AdminContracts(signflow.ContractQuery{Statuses: []string{"LOST"}, Size: 1}); signflow.ErrorCode(err) != signflow.EINVALID {
		t.Errorf("unknown status: %v", err)
	}
}

// The counts by status and by day follow every creation and change.
func testContractStats(t *testing.T, e Engine) {
	w, all := adminWorld(t, e)
	stats, err := w.Service.Stats()
	if err != nil {
		t.Fatal(err)
	}
	byStatus, perDay := map[string]int{}, map[string]int{}
	for _, c := range all {
		byStatus[c.Status]++
		perDay[signflow.Day(c.CreatedAt)]++
	}
	if fmt.Sprint(stats.ByStatus) != fmt.Sprint(byStatus) || fmt.Sprint(stats.PerDay) != fmt.Sprint(perDay) {
		t.Errorf("stats %v %v, want %v %v", stats.ByStatus, stats.PerDay, byStatus, perDay)
	}
	// Days before the last 30 are left out.
	w.Clock.Advance(time.Duration(signflow.StatsDays-1) * 24 * time.Hour)
	stats, _ = w.Service.Stats()
	if len(stats.PerDay) >= len(perDay) || len(stats.PerDay) == 0 {
		t.Errorf("30 days on, per-day counts %v", stats.PerDay)
	}
}

// Owners, apps and keys are listed whole; templates whatever their status.
func testAdminLists(t *testing.T, e Engine) {
	w := fixture.NewStandardOn(t, e.Open(t))
	owners, err := w.Service.Owners()
	if err != nil || len(owners) != 2 || owners[0].IN != fixture.OwnerIN || owners[1].IN != fixture.OtherIN {
		t.Errorf("owners %v %v", owners, err)
	}
	apps, err := w.Service.Apps()
	if err != nil || len(apps) != 2 {
		t.Errorf("apps %d %v", len(apps), err)
	}
	keys, err := w.Service.Keys()
	var names []string
	for _, k := range keys {
		names = append(names, k.Name)
	}
	slices.Sort(names)
	if err != nil || strings.Join(names, ",") != "Key A,Key B,Limited" {
		t.Errorf("keys %v %v", names, err)
	}
	tpls, err := w.Service.AdminTemplates()
	if err != nil || len(tpls) != 3 {
		t.Errorf("templates %d %v", len(tpls), err)
	}
}

// The failed and the pending deliveries are listed by status in outbox
// order, and a delivery leaves the failed list when it is sent again.
func testDeliveriesByStatus(t *testing.T, e Engine) {
	w := fixture.NewStandardOn(t, e.Open(t))
	c := w.Contract(t)
	statuses := []string{signflow.DeliveryFailed, signflow.DeliveryDelivered, signflow.DeliveryPending, signflow.DeliveryFailed, signflow.DeliveryFailed}
	var ids []string
	fixture.Must(t, func() error {
		return w.Store.Update(func(tx signflow.Tx) error {
			for _, st := range statuses {
				d := &signflow.Delivery{ID: signflow.NewID(), Event: signflow.EventCreated, ContractID: c.ID, Status: signflow.DeliveryPending}
				if err := tx.AddDelivery(d); err != nil {
					return err
				}
				d.Status = st
				if err := tx.PutDelivery(d); err != nil {
					return err
				}
				ids = append(ids, d.ID)
			}
			return nil
		})
	})
	list := func(status string) []string {
		ds, err := w.Service.Deliveries(signflow.DeliveryFilter{Status: status})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, d := range ds {
			if d.Status != status {
				t.Errorf("a %s delivery listed as %s", d.Status, status)
			}
			out = append(out, d.ID)
		}
		return out
	}
	if got := list(signflow.DeliveryFailed); !slices.Equal(got, []string{ids[0], ids[3], ids[4]}) {
		t.Errorf("failed: %v", got)
	}
	if err := w.Service.Redeliver(ids[3]); err != nil {
		t.Fatal(err)
	}
	if got := list(signflow.DeliveryFailed); !slices.Equal(got, []string{ids[0], ids[4]}) {
		t.Errorf("failed after a redelivery: %v", got)
	}
	pending := list(signflow.DeliveryPending)
	if !slices.Contains(pending, ids[2]) || !slices.Contains(pending, ids[3]) || slices.Contains(pending, ids[0]) {
		t.Errorf("pending: %v", pending)
	}
	if got := list(signflow.DeliveryDelivered); !slices.Equal(got, []string{ids[1]}) {
		t.Errorf("delivered: %v", got)
	}
}
