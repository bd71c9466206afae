package storagetest

import (
	"fmt"
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// A record read is the reader's own copy: changing it changes neither the
// store nor what the next reader gets.
func testReadsAreCopies(t *testing.T, e Engine) {
	db := e.Open(t)
	app := &signflow.App{ID: "a1", Name: "one", Scopes: []string{"X", "Y", "V"}, SecretGen: 1}
	must(t, db.Update(func(tx signflow.Tx) error { return tx.PutApp(app) }))
	read := func() *signflow.App {
		t.Helper()
		var a *signflow.App
		must(t, db.View(func(tx signflow.Tx) (err error) { a, err = tx.App("a1"); return err }))
		return a
	}
	first := read()
	first.Name = "changed by a reader"
	first.Scopes = append(first.Scopes, "Z")
	again := read()
	if again.Name != "one" || len(again.Scopes) != 3 {
		t.Fatalf("a reader's change leaked: %+v", again)
	}
	again.Scopes = append(again.Scopes, "W")
	if first.Scopes[3] != "Z" {
		t.Fatalf("appends of two readers share memory: %v", first.Scopes)
	}
	// A committed write is seen by the next read, on every handle.
	app.Name, app.SecretGen = "two", 2
	must(t, db.Update(func(tx signflow.Tx) error { return tx.PutApp(app) }))
	for _, s := range []signflow.Store{db, e.peer(t, db)} {
		var got *signflow.App
		must(t, s.View(func(tx signflow.Tx) (err error) { got, err = tx.App("a1"); return err }))
		if got.Name != "two" || got.SecretGen != 2 {
			t.Fatalf("after a write: %+v", got)
		}
	}
}

// A transaction that fails leaves nothing: not its record, its index
// entries, its counts, its audit events nor its outbox rows; what it wrote
// was visible inside it. A signing rolled back leaves the contract as it was.
func testRollbackLeavesNothing(t *testing.T, e Engine) {
	w := fixture.NewStandardOn(t, e.Open(t))
	kept := w.Contract(t)
	boom := fmt.Errorf("boom")
	c := &signflow.Contract{ID: signflow.NewID(), Status: signflow.StatusCreated, BuyerIN: fixture.CustomerIN, SellerIN: fixture.OwnerIN,
		TemplateID: w.Template.ID, BuyerStatus: signflow.PartyPending, SellerStatus: signflow.PartyPending}
	err := w.Store.Update(func(tx signflow.Tx) (err error) {
		if c.Seq, err = tx.NextContractSeq(); err != nil {
			return err
		}
		c.Number = fmt.Sprintf("2026-%06d", c.Seq)
		if err := tx.PutContract(c); err != nil {
			return err
		}
		if err := tx.AddAudit(&signflow.AuditEvent{ID: signflow.NewID(), ContractID: c.ID, Type: signflow.EventCreated}); err != nil {
			return err
		}
		if err := tx.AddDelivery(&signflow.Delivery{ID: signflow.NewID(), ContractID: c.ID, Target: "app:x", Event: signflow.EventCreated,
			Body: []byte(`{}`), Status: signflow.DeliveryPending, NextAt: w.Clock.Now()}); err != nil {
			return err
		}
		got, err := tx.Contract(c.ID)
		if err != nil || got.Number != c.Number {
			return fmt.Errorf("inside the writer: %+v %v", got, err)
		}
		page, err := tx.ListContracts(signflow.ContractQuery{OwnerIN: fixture.OwnerIN, AllTemplates: true, Size: 10})
		if err != nil || page.Total != 2 || len(page.Contracts) != 2 {
			return fmt.Errorf("inside the writer the list has %v: %v", page, err)
		}
		// A signing of the kept contract, in the same transaction.
		k, err := tx.Contract(kept.ID)
		if err != nil {
			return err
		}
		if _, err := k.Sign(fixture.OwnerIN, signflow.Signature{Method: signflow.MethodEIMZO}, w.Clock.Now()); err != nil {
			return err
		}
		if err := tx.PutContract(k); err != nil {
			return err
		}
		return boom
	})
	if err != boom {
		t.Fatalf("Update = %v, want the function's error", err)
	}
	must(t, w.Store.View(func(tx signflow.Tx) error {
		if _, err := tx.Contract(c.ID); signflow.ErrorCode(err) != signflow.ENOTFOUND {
			return fmt.Errorf("the rolled-back contract reads: %v", err)
		}
		if k, err := tx.Contract(kept.ID); err != nil || k.SellerStatus != signflow.PartyPending || len(k.Signatures) != 0 {
			return fmt.Errorf("the rolled-back signing reached the contract: %+v %v", k, err)
		}
		if ev, err := tx.AuditEvents(c.ID); err != nil || len(ev) != 0 {
			return fmt.Errorf("audit of the rolled-back contract: %d %v", len(ev), err)
		}
		if d, err := tx.Deliveries(signflow.DeliveryFilter{ContractID: c.ID}); err != nil || len(d) != 0 {
			return fmt.Errorf("outbox rows of the rolled-back contract: %d %v", len(d), err)
		}
		for _, in := range []string{fixture.OwnerIN, fixture.CustomerIN} {
			for _, q := range []signflow.ContractQuery{{OwnerIN: in, AllTemplates: true, Size: 10},
				{OwnerIN: in, AllTemplates: true, Size: 10, Search: c.Number}} {
				page, err := tx.ListContracts(q)
				if err != nil {
					return err
				}
				want := 1
				if q.Search != "" {
					want = 0
				}
				if page.Total != want || len(page.Contracts) != want {
					return fmt.Errorf("%s lists %d (total %d), want %d", in, len(page.Contracts), page.Total, want)
				}
			}
		}
		return nil
	}))
	e.check(t, w.Store)
}

// A write in a read transaction is an error, and stores nothing.
func testViewRefusesWrites(t *testing.T, e Engine) {
	db := e.Open(t)
	err := db.View(func(tx signflow.Tx) error { return tx.PutApp(&signflow.App{ID: "a1", Name: "one"}) })
	if err == nil {
		t.Fatal("a write in View succeeded")
	}
	must(t, db.View(func(tx signflow.Tx) error {
		if _, err := tx.App("a1"); signflow.ErrorCode(err) != signflow.ENOTFOUND {
			return fmt.Errorf("the app written in View reads: %v", err)
		}
		return nil
	}))
}

// A transaction reads its own writes: after reading a contract (which an
// engine may read its template and parties with), a write of the
// template, an owner or a claim is what the next read in it returns, and
// a claim absent at the start is there once written.
func testReadsOwnWrites(t *testing.T, e Engine) {
	w := fixture.NewStandardOn(t, e.Open(t))
	c := w.Contract(t)
	must(t, w.Store.Update(func(tx signflow.Tx) error {
		if _, err := tx.Contract(c.ID); err != nil {
			return err
		}
		if _, err := tx.Claim(fixture.OtherIN, fixture.UnknownIN); signflow.ErrorCode(err) != signflow.ENOTFOUND {
			return fmt.Errorf("an absent claim: %v", err)
		}
		tpl, err := tx.Template(c.TemplateID)
		if err != nil {
			return err
		}
		tpl.Status = signflow.TemplateDraft
		owner, err := tx.Owner(fixture.OwnerIN)
		if err != nil {
			return err
		}
		owner.LegalName = "Renamed MChJ"
		claim, err := tx.Claim(fixture.OwnerIN, fixture.CustomerIN)
		if err != nil {
			return err
		}
		claim.Phone = "998900000099"
		newClaim := &signflow.Client{IN: fixture.CustomerIN, FirstName: "Aziz", Phone: "998900000098"}
		for _, err := range []error{tx.PutTemplate(tpl), tx.PutOwner(owner), tx.PutClaim(fixture.OwnerIN, claim), tx.PutClaim("39999999999", newClaim)} {
			if err != nil {
				return err
			}
		}
		gotTpl, _ := tx.Template(c.TemplateID)
		gotOwner, _ := tx.Owner(fixture.OwnerIN)
		gotClaim, _ := tx.Claim(fixture.OwnerIN, fixture.CustomerIN)
		gotNew, err := tx.Claim("39999999999", fixture.CustomerIN)
		if err != nil || gotNew.Phone != "998900000098" {
			return fmt.Errorf("a claim written in the transaction: %v %v", gotNew, err)
		}
		if gotTpl.Status != signflow.TemplateDraft || gotOwner.LegalName != "Renamed MChJ" || gotClaim.Phone != "998900000099" {
			return fmt.Errorf("reads after writes: %s %q %q", gotTpl.Status, gotOwner.LegalName, gotClaim.Phone)
		}
		return nil
	}))
}
