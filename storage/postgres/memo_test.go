package postgres_test

import (
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
	"contracts/storage/postgres/pgtest"
)

// A kept answer on one node is given out only while the rows it was made
// from are unchanged in the reader's snapshot: a change committed through
// another node (the customer's claim, the owner's record, the contract)
// shows at once, and an unrelated write leaves the answer kept.
func TestMemoFollowsOtherNodesWrites(t *testing.T) {
	a := pgtest.Open(t)
	w := fixture.NewStandardOn(t, a)
	b := signflow.NewService(pgtest.Peer(t, a), w.Options) // the second node
	app := w.Access(t, w.AppA)
	c, err := w.Service.CreateContract(app, &signflow.ContractInput{TemplateID: w.Template.ID, BuyerIN: fixture.CustomerIN,
		Price: 1000, Currency: "UZS"}, signflow.Actor{})
	if err != nil {
		t.Fatal(err)
	}
	encoded := 0
	encode := func(v *signflow.ContractView) []byte {
		encoded++
		return []byte(v.Status + " " + v.Buyer.Email + " " + v.Seller.Phone + " " + v.Template.ID)
	}
	read := func(want string, encodes int) {
		t.Helper()
		out, err := w.Service.ContractAnswer(app, c.ID, "test", encode)
		if err != nil || string(out) != want || encoded != encodes {
			t.Fatalf("read: %q, %v, encoded %d times; want %q, %d", out, err, encoded, want, encodes)
		}
	}
	name := w.Template.ID
	read("CREATED  998712000000 "+name, 1)
	read("CREATED  998712000000 "+name, 1)

	// A write that the answer does not show leaves it kept.
	fixture.MustClaim(t, b, fixture.OtherIN, &signflow.Client{IN: "31234567890123", FirstName: "Olim", LastName: "Saidov", Phone: "+998 90 111-11-11"})
	read("CREATED  998712000000 "+name, 1)

	fixture.MustClaim(t, b, fixture.OwnerIN, &signflow.Client{IN: fixture.CustomerIN, FirstName: "Aziz", LastName: "Karimov",
		Phone: "+998 90 123-45-67", Email: "aziz@example.uz"})
	read("CREATED aziz@example.uz 998712000000 "+name, 2)
	read("CREATED aziz@example.uz 998712000000 "+name, 2)

	if _, _, err := b.SaveOwner(&signflow.Client{IN: fixture.OwnerIN, Type: signflow.ClientCompany, LegalName: "Alpha Savdo MChJ",
		Phone: "998712999999"}); err != nil {
		t.Fatal(err)
	}
	read("CREATED aziz@example.uz 998712999999 "+name, 3)

	// Another tenant's claim on a party, which this answer does not show,
	// still makes it read again: the stamp covers every claim on the parties.
	fixture.MustClaim(t, b, fixture.OtherIN, &signflow.Client{IN: fixture.CustomerIN, FirstName: "Aziz", LastName: "Karimov",
		Phone: "+998 90 123-45-67", Email: "other@example.uz"})
	read("CREATED aziz@example.uz 998712999999 "+name, 4)

	if _, err := b.Cancel(app, c.ID, signflow.Actor{}); err != nil {
		t.Fatal(err)
	}
	read("CANCELLED aziz@example.uz 998712999999 "+name, 5)
	read("CANCELLED aziz@example.uz 998712999999 "+name, 5)
}

// The stamp covers the template's row, and a memo is kept only when the
// contract's statement alone fed it: read after another statement, it is
// not kept. A memo is checked as the transaction's first statement, or
// inside it with the contract's statement, whose row Contract then takes.
func TestMemoOnPostgres(t *testing.T) {
	a := pgtest.Open(t)
	w := fixture.NewStandardOn(t, a)
	peer := pgtest.Peer(t, a)
	c := w.Contract(t)
	memo := func() any {
		t.Helper()
		var m any
		fixture.Must(t, func() error {
			return a.View(func(tx signflow.Tx) error { m = tx.(signflow.Memos).Memo(c.ID, "m"); return nil })
		})
		return m
	}
	keep := func(v string, before func(signflow.Tx) error) {
		t.Helper()
		fixture.Must(t, func() error {
			return a.View(func(tx signflow.Tx) error {
				if before != nil {
					if err := before(tx); err != nil {
						return err
					}
				}
				if _, err := tx.Contract(c.ID); err != nil {
					return err
				}
				if _, err := tx.Owner("39999999999999"); signflow.ErrorCode(err) != signflow.ENOTFOUND {
					t.Errorf("an absent owner: %v", err)
				}
				tx.(signflow.Memos).KeepMemo(c.ID, "m", v, len(v))
				return nil
			})
		})
	}
	keep("side", nil)
	if m := memo(); m != nil {
		t.Fatalf("a memo fed by another statement was kept: %v", m)
	}
	fixture.Must(t, func() error {
		return a.View(func(tx signflow.Tx) error {
			if _, err := tx.Contract(c.ID); err != nil {
				return err
			}
			tx.(signflow.Memos).KeepMemo(c.ID, "m", "one", 3)
			return nil
		})
	})
	if m := memo(); m != "one" {
		t.Fatalf("memo %v, want one", m)
	}
	fixture.Must(t, func() error {
		return peer.Update(func(tx signflow.Tx) error {
			tpl, err := tx.Template(w.Template.ID)
			if err != nil {
				return err
			}
			return tx.PutTemplate(tpl)
		})
	})
	if m := memo(); m != nil {
		t.Fatalf("after the template's row changed on the other node: memo %v", m)
	}
	fixture.Must(t, func() error {
		return a.View(func(tx signflow.Tx) error {
			tx.(signflow.Memos).KeepMemo(c.ID, "m", "lost", 4) // no contract read: not kept
			if _, err := tx.Contract(c.ID); err != nil {
				return err
			}
			tx.(signflow.Memos).KeepMemo(c.ID, "m", "two", 3)
			return nil
		})
	})
	if m := memo(); m != "two" {
		t.Fatalf("memo %v, want two", m)
	}
	// later is Memo after another statement, inside the transaction: the
	// contract's statement goes with the stamp.
	later := func(check func(m any, got *signflow.Contract)) {
		t.Helper()
		fixture.Must(t, func() error {
			return a.View(func(tx signflow.Tx) error {
				if _, err := tx.Template(w.Template.ID); err != nil {
					return err
				}
				m := tx.(signflow.Memos).Memo(c.ID, "m")
				got, err := tx.Contract(c.ID)
				check(m, got)
				return err
			})
		})
	}
	later(func(m any, _ *signflow.Contract) {
		if m != "two" {
			t.Errorf("memo inside the transaction %v, want two", m)
		}
	})
	c.Status = signflow.StatusCancelled
	fixture.Must(t, func() error {
		return peer.Update(func(tx signflow.Tx) error {
			if _, err := tx.Contract(c.ID); err != nil {
				return err
			}
			return tx.PutContract(c)
		})
	})
	later(func(m any, got *signflow.Contract) {
		if m != nil || got == nil || got.Status != signflow.StatusCancelled {
			t.Errorf("after the contract changed on the other node: memo %v, then the contract %+v", m, got)
		}
	})
	fixture.Must(t, func() error {
		return a.View(func(tx signflow.Tx) error {
			if m := tx.(signflow.Memos).Memo(c.ID, "m"); m != nil {
				t.Errorf("after the contract changed on the other node: memo %v", m)
			}
			got, err := tx.Contract(c.ID)
			if err == nil && got.Status != signflow.StatusCancelled {
				t.Errorf("the contract read after Memo is %s, want %s", got.Status, signflow.StatusCancelled)
			}
			return err
		})
	})
	if err := a.Update(func(tx signflow.Tx) error {
		if m := tx.(signflow.Memos).Memo(c.ID, "m"); m != nil {
			t.Errorf("a writer got the memo %v", m)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}
