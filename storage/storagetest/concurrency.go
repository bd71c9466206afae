package storagetest

import (
	"fmt"
	"slices"
	"sync"
	"testing"

	"contracts/signflow"
)

// Writers that read a record and write it back, at once and through two
// handles of the database where the engine has them, lose no update: each
// sees the other's write or runs again.
func testNoLostUpdates(t *testing.T, e Engine) {
	db := e.Open(t)
	stores := []signflow.Store{db, e.peer(t, db)}
	must(t, db.Update(func(tx signflow.Tx) error { return tx.PutApp(&signflow.App{ID: "counter", SecretGen: 0}) }))
	const writers, each = 8, 15
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for g := 0; g < writers; g++ {
		wg.Go(func() {
			for i := 0; i < each; i++ {
				err := stores[g%2].Update(func(tx signflow.Tx) error {
					a, err := tx.App("counter")
					if err != nil {
						return err
					}
					a.SecretGen++
					return tx.PutApp(a)
				})
				if err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	var a *signflow.App
	must(t, db.View(func(tx signflow.Tx) (err error) { a, err = tx.App("counter"); return err }))
	if a.SecretGen != writers*each {
		t.Fatalf("%d increments survived of %d", a.SecretGen, writers*each)
	}
}

// The contract sequence never gives a number twice, whoever asks.
func testContractSequence(t *testing.T, e Engine) {
	db := e.Open(t)
	stores := []signflow.Store{db, e.peer(t, db)}
	const askers, each = 6, 20
	got := make([][]uint64, askers)
	var wg sync.WaitGroup
	for g := 0; g < askers; g++ {
		wg.Go(func() {
			for i := 0; i < each; i++ {
				var n uint64
				err := stores[g%2].Update(func(tx signflow.Tx) (err error) { n, err = tx.NextContractSeq(); return err })
				if err != nil {
					t.Error(err)
					return
				}
				got[g] = append(got[g], n)
			}
		})
	}
	wg.Wait()
	var all []uint64
	for g, list := range got {
		if !slices.IsSorted(list) {
			t.Errorf("asker %d got a smaller number after a larger one: %v", g, list)
		}
		all = append(all, list...)
	}
	slices.Sort(all)
	if len(slices.Compact(slices.Clone(all))) != askers*each || all[0] == 0 {
		t.Fatalf("numbers given twice or zero: %v", all)
	}
}

// Keys that no record can have — bytes that are not UTF-8, NUL — find
// nothing and break nothing: the callers' answers stay 404s and empty lists.
func testImpossibleKeys(t *testing.T, e Engine) {
	db := e.Open(t)
	for _, k := range []string{"\xff\xfe", "a\x00b", ""} {
		must(t, db.View(func(tx signflow.Tx) error {
			lookups := map[string]func() error{
				"Contract":       func() error { _, err := tx.Contract(k); return err },
				"App":            func() error { _, err := tx.App(k); return err },
				"Template":       func() error { _, err := tx.Template(k); return err },
				"Key":            func() error { _, err := tx.Key(k); return err },
				"Owner":          func() error { _, err := tx.Owner(k); return err },
				"Claim":          func() error { _, err := tx.Claim(k, k); return err },
				"Session":        func() error { _, err := tx.Session(k); return err },
				"Delivery":       func() error { _, err := tx.Delivery(k); return err },
				"CabinetLogin":   func() error { _, err := tx.CabinetLogin(k); return err },
				"CabinetSession": func() error { _, err := tx.CabinetSession([]byte(k)); return err },
				"SessionByToken": func() error { _, err := tx.SessionByToken([]byte(k)); return err },
				"KeyByHash":      func() error { _, err := tx.KeyByHash([]byte(k)); return err },
			}
			for name, fn := range lookups {
				if err := fn(); signflow.ErrorCode(err) != signflow.ENOTFOUND {
					return fmt.Errorf("%s(%q) = %v, want ENOTFOUND", name, k, err)
				}
			}
			lists := map[string]func() (int, error){
				"KeysByOwner": func() (int, error) { l, err := tx.KeysByOwner(k); return len(l), err },
				"Claims":      func() (int, error) { l, err := tx.Claims(k); return len(l), err },
				"AuditEvents": func() (int, error) { l, err := tx.AuditEvents(k); return len(l), err },
				"Deliveries": func() (int, error) {
					l, err := tx.Deliveries(signflow.DeliveryFilter{ContractID: k, Status: k})
					return len(l), err
				},
			}
			for _, q := range []signflow.ContractQuery{{OwnerIN: k, AllTemplates: true, Size: 5}, {OwnerIN: "301234567", Search: k, AllTemplates: true, Size: 5},
				{OwnerIN: "301234567", Statuses: []string{k}, TemplateID: k, Counterparties: []string{k}, Size: 5}} {
				lists[fmt.Sprintf("ListContracts %+v", q)] = func() (int, error) {
					p, err := tx.ListContracts(q)
					if err != nil {
						return 0, err
					}
					return p.Total + len(p.Contracts), nil
				}
			}
			for name, fn := range lists {
				if n, err := fn(); n != 0 || err != nil {
					return fmt.Errorf("%s with %q: %d, %v", name, k, n, err)
				}
			}
			return nil
		}))
	}
}

// meta is the part of a store that keeps values about the appliance itself.
type meta interface {
	Meta(name string) (string, error)
	SetMeta(name, value string) error
}

func testMeta(t *testing.T, e Engine) {
	db, ok := e.Open(t).(meta)
	if !ok {
		t.Fatal("the store keeps no meta values")
	}
	if v, err := db.Meta("demo_seeded"); err != nil || v != "" {
		t.Fatalf("absent meta = %q, %v", v, err)
	}
	for _, v := range []string{"app-1", "app-2"} {
		must(t, db.SetMeta("demo_seeded", v))
		if got, err := db.Meta("demo_seeded"); err != nil || got != v {
			t.Fatalf("meta = %q, %v; want %q", got, err, v)
		}
	}
}
