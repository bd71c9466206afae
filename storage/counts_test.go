package storage_test

import (
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
	"contracts/storage"

	bolt "go.etcd.io/bbolt"
)

// The totals a list reports come from counters kept with each contract
// write. After status changes they must equal a tally made by hand, and a
// rebuild by the schema-3 migration must give the same figures.
func TestCountsFollowStatusChanges(t *testing.T) {
	w := fixture.NewStandard(t)
	appA := w.Access(t, w.AppA)
	var ids []string
	for i := 0; i < 12; i++ {
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
	for _, id := range ids[:5] {
		if _, err := w.Service.Cancel(appA, id, signflow.Actor{}); err != nil {
			t.Fatal(err)
		}
	}
	queries := map[string]signflow.ContractQuery{
		"all":                {AllTemplates: true},
		"created":            {AllTemplates: true, Statuses: []string{signflow.StatusCreated}},
		"created twice":      {AllTemplates: true, Statuses: []string{signflow.StatusCreated, signflow.StatusCreated}},
		"cancelled+created":  {AllTemplates: true, Statuses: []string{signflow.StatusCancelled, signflow.StatusCreated}},
		"template":           {AllTemplates: true, TemplateID: w.Other.ID},
		"template+status":    {AllTemplates: true, TemplateID: w.Template.ID, Statuses: []string{signflow.StatusCancelled}},
		"limited":            {TemplateIDs: []string{w.Template.ID, w.Template.ID}},
		"limited, other tpl": {TemplateIDs: []string{w.Template.ID}, TemplateID: w.Other.ID},
	}
	// The tally by hand, from the contracts themselves.
	want := map[string]int{}
	for name, q := range queries {
		for _, id := range ids {
			var c *signflow.Contract
			fixture.Must(t, func() (err error) {
				return w.DB.View(func(tx signflow.Tx) error { c, err = tx.Contract(id); return err })
			})
			okTpl := (q.TemplateID == "" || c.TemplateID == q.TemplateID) && (q.AllTemplates || contains(q.TemplateIDs, c.TemplateID))
			okStatus := len(q.Statuses) == 0 || contains(q.Statuses, c.Status)
			if okTpl && okStatus {
				want[name]++
			}
		}
	}
	check := func(db signflow.Store, when string) {
		t.Helper()
		for name, q := range queries {
			for _, in := range []string{fixture.OwnerIN, fixture.CustomerIN} {
				q.OwnerIN, q.Size = in, 2
				var got int
				fixture.Must(t, func() error {
					return db.View(func(tx signflow.Tx) error {
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
	check(w.DB, "kept with writes")

	// Drop the counts and go back to schema 2: reopening rebuilds them.
	path := w.DB.Path()
	w.DB.Close()
	b, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = b.Update(func(btx *bolt.Tx) error {
		if err := btx.DeleteBucket([]byte("contract_counts")); err != nil {
			return err
		}
		return btx.Bucket([]byte("meta")).Put([]byte("schema"), []byte{0, 0, 0, 0, 0, 0, 0, 2})
	})
	b.Close()
	if err != nil {
		t.Fatal(err)
	}
	db, err := storage.Open(path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if v, _ := db.SchemaVersion(); v != storage.CurrentSchema() {
		t.Fatalf("schema %d after reopening", v)
	}
	check(db, "rebuilt by the migration")
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
