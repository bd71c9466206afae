package storagetest

import (
	"fmt"
	"slices"
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// testIndexesFollowChanges creates contracts, cancels some, registers,
// fills in and renames clients, and then checks that the status filter and
// the name search see the records as they now are (and the engine's own
// check, its indexes against the records).
func testIndexesFollowChanges(t *testing.T, e Engine) {
	w := fixture.NewStandardOn(t, e.Open(t))
	appA := w.Access(t, w.AppA)
	customers := []string{fixture.CustomerIN}
	for i := 0; i < 4; i++ {
		in := fmt.Sprintf("3100000000000%d", i)
		customers = append(customers, in)
		fixture.MustClaim(t, w.Service, fixture.OwnerIN, &signflow.Client{IN: in, FirstName: "Olim", LastName: fmt.Sprintf("Sobirov%d", i), Phone: "998901112233"})
	}
	var created []*signflow.Contract
	for i := 0; i < 12; i++ {
		in := &signflow.ContractInput{TemplateID: w.Template.ID, BuyerIN: customers[i%len(customers)], Price: int64(1000 * (i + 1))}
		if i%4 == 3 { // the owner buys from someone never registered
			in = &signflow.ContractInput{TemplateID: w.Other.ID, SellerIN: fixture.UnknownIN}
		}
		c, err := w.Service.CreateContract(appA, in, signflow.Actor{})
		if err != nil {
			t.Fatalf("contract %d: %v", i, err)
		}
		created = append(created, c)
	}
	cancelled := map[string]bool{}
	for i, c := range created {
		if i%3 == 0 {
			if _, err := w.Service.Cancel(appA, c.ID, signflow.Actor{}); err != nil {
				t.Fatalf("cancel %s: %v", c.Number, err)
			}
			cancelled[c.ID] = true
		}
	}
	// Filling in an empty field adds name words; a rename replaces them.
	fixture.MustClaim(t, w.Service, fixture.OwnerIN, &signflow.Client{IN: customers[1], FirstName: "X", LastName: "Y", MidName: "Rustamovich", Phone: "998901112233"})
	fixture.Must(t, func() error {
		return w.Store.Update(func(tx signflow.Tx) error {
			c, err := tx.Claim(fixture.OwnerIN, customers[2])
			if err != nil {
				return err
			}
			c.FirstName, c.LastName = "Zarina", "Nazarova-Qodirova"
			return tx.PutClaim(fixture.OwnerIN, c)
		})
	})
	fixture.MustOwner(t, w.Service, &signflow.Client{IN: fixture.OtherIN, Type: signflow.ClientCompany, LegalName: "Gamma Group"})
	// Another tenant's claim on a customer of A's never matches A's search.
	fixture.MustClaim(t, w.Service, fixture.OtherIN, &signflow.Client{IN: customers[3], FirstName: "Secret", LastName: "Sobirov3", Phone: "998901112299"})

	e.check(t, w.Store)

	fixture.Must(t, func() error {
		return w.Store.View(func(tx signflow.Tx) error {
			page, err := tx.ListContracts(signflow.ContractQuery{OwnerIN: fixture.OwnerIN, AllTemplates: true,
				Statuses: []string{signflow.StatusCancelled}, Size: 100})
			if err != nil {
				return err
			}
			if page.Total != len(cancelled) || len(page.Contracts) != len(cancelled) {
				return fmt.Errorf("CANCELLED filter found %d (%d on the page), want %d", page.Total, len(page.Contracts), len(cancelled))
			}
			for _, c := range page.Contracts {
				if !cancelled[c.ID] || c.Status != signflow.StatusCancelled {
					return fmt.Errorf("CANCELLED filter returned %s in status %s", c.Number, c.Status)
				}
			}
			// Old name words are gone from search; new ones are found.
			for search, want := range map[string]int{"sobirov1": 0, "zarina": 1, "nazarova": 1, "qodirova": 1, "rustamovich": 2,
				"sobirov": 5, "secret": 0, "gamma": 0} {
				page, err := tx.ListContracts(signflow.ContractQuery{OwnerIN: fixture.OwnerIN, AllTemplates: true, Search: search, Size: 100})
				if err != nil {
					return err
				}
				if page.Total != want {
					return fmt.Errorf("search %q found %d contracts, want %d", search, page.Total, want)
				}
			}
			return nil
		})
	})
}

// CustomerContracts has app A create n contracts with the customer, every
// third of the other template, and cancel the first cancelled of them; it
// returns their ids in the order made.
func CustomerContracts(t *testing.T, w *fixture.Standard, n, cancelled int) []string {
	t.Helper()
	appA := w.Access(t, w.AppA)
	var ids []string
	for i := range n {
		tpl := w.Template.ID
		if i%3 == 0 {
			tpl = w.Other.ID
		}
		c, err := w.Service.CreateContract(appA, &signflow.ContractInput{TemplateID: tpl, BuyerIN: fixture.CustomerIN, Price: 100}, signflow.Actor{})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, c.ID)
	}
	for _, id := range ids[:cancelled] {
		if _, err := w.Service.Cancel(appA, id, signflow.Actor{}); err != nil {
			t.Fatal(err)
		}
	}
	return ids
}

// CountScenario creates contracts of two templates in a Standard world and
// cancels some; the check it returns asserts that the totals lists report
// on store (the world's, or the same data reopened) equal a tally made by
// hand, for every kind of filter the counts answer.
func CountScenario(t *testing.T, w *fixture.Standard) (check func(store signflow.Store, when string)) {
	t.Helper()
	ids := CustomerContracts(t, w, 12, 5)
	queries := map[string]signflow.ContractQuery{
		"all":                {AllTemplates: true},
		"created":            {AllTemplates: true, Statuses: []string{signflow.StatusCreated}},
		"created twice":      {AllTemplates: true, Statuses: []string{signflow.StatusCreated, signflow.StatusCreated}},
		"cancelled+created":  {AllTemplates: true, Statuses: []string{signflow.StatusCancelled, signflow.StatusCreated}},
		"template":           {AllTemplates: true, TemplateID: w.Other.ID},
		"template+status":    {AllTemplates: true, TemplateID: w.Template.ID, Statuses: []string{signflow.StatusCancelled}},
		"limited":            {TemplateIDs: []string{w.Template.ID, w.Template.ID}},
		"limited, other tpl": {TemplateIDs: []string{w.Template.ID}, TemplateID: w.Other.ID},
		"no template":        {TemplateIDs: []string{}},
	}
	// The tally by hand, from the contracts themselves.
	want := map[string]int{}
	for name, q := range queries {
		for _, id := range ids {
			var c *signflow.Contract
			fixture.Must(t, func() (err error) {
				return w.Store.View(func(tx signflow.Tx) error { c, err = tx.Contract(id); return err })
			})
			okTpl := (q.TemplateID == "" || c.TemplateID == q.TemplateID) && (q.AllTemplates || slices.Contains(q.TemplateIDs, c.TemplateID))
			okStatus := len(q.Statuses) == 0 || slices.Contains(q.Statuses, c.Status)
			if okTpl && okStatus {
				want[name]++
			}
		}
	}
	if want["all"] != 12 || want["template+status"] == 0 || want["limited"] == 0 {
		t.Fatalf("the scenario does not exercise the counts: %v", want)
	}
	return func(store signflow.Store, when string) {
		t.Helper()
		for name, q := range queries {
			for _, in := range []string{fixture.OwnerIN, fixture.CustomerIN} {
				q.OwnerIN, q.Size = in, 2
				var got int
				fixture.Must(t, func() error {
					return store.View(func(tx signflow.Tx) error {
						p, err := tx.ListContracts(q)
						if err == nil {
							got = p.Total
						}
						return err
					})
				})
				if got != want[name] {
					t.Errorf("%s, %s of %s: total %d, want %d", when, name, in, got, want[name])
				}
			}
		}
	}
}

// The totals a list reports come from counts kept with each contract
// write: after status changes they equal a tally made by hand.
func testCountsFollowStatusChanges(t *testing.T, e Engine) {
	w := fixture.NewStandardOn(t, e.Open(t))
	check := CountScenario(t, w)
	check(w.Store, "kept with writes")
	check(e.peer(t, w.Store), "read by another process")
}
