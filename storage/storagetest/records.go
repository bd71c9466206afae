package storagetest

import (
	"fmt"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// testSessionExpiryFollowsStatus opens a signing session and checks
// that the expired sessions list it only while it is PENDING.
func testSessionExpiryFollowsStatus(t *testing.T, e Engine) {
	w := fixture.NewStandardOn(t, e.Open(t))
	c := w.Contract(t)
	s, token, err := w.Service.OpenSession(w.Access(t, w.AppA), c.ID, signflow.SessionRequest{SignerIN: fixture.CustomerIN}, signflow.Actor{})
	if err != nil {
		t.Fatal(err)
	}
	expired := func(at time.Time) (ids []string) {
		fixture.Must(t, func() error {
			return w.Store.View(func(tx signflow.Tx) error {
				list, err := tx.ExpiredSessions(at, 10)
				for _, x := range list {
					ids = append(ids, x.ID)
				}
				return err
			})
		})
		return ids
	}
	if got := expired(s.ExpiresAt.Add(-time.Second)); len(got) != 0 {
		t.Fatalf("expired before its time: %v", got)
	}
	if got := expired(s.ExpiresAt.Add(time.Second)); len(got) != 1 || got[0] != s.ID {
		t.Fatalf("after its expiry: %v, want [%s]", got, s.ID)
	}
	for _, status := range []string{signflow.SessionSigned, signflow.SessionPending, signflow.SessionExpired} {
		fixture.Must(t, func() error {
			return w.Store.Update(func(tx signflow.Tx) error {
				got, err := tx.Session(s.ID)
				if err != nil {
					return err
				}
				got.Status = status
				return tx.PutSession(got)
			})
		})
		got := expired(s.ExpiresAt.Add(time.Hour))
		if want := status == signflow.SessionPending; (len(got) == 1) != want {
			t.Fatalf("status %s: expiry index lists %v", status, got)
		}
		e.check(t, w.Store)
	}
	// The token still finds the closed session (the page answers 403, not 404).
	fixture.Must(t, func() error {
		return w.Store.View(func(tx signflow.Tx) error {
			got, err := tx.SessionByToken(signflow.HashSecret(token))
			if err == nil && (got.ID != s.ID || got.Status != signflow.SessionExpired) {
				err = fmt.Errorf("token finds %s in %s", got.ID, got.Status)
			}
			return err
		})
	})
}

// testDeliveryQueueFollowsStatus checks that the outbox queue holds a
// delivery exactly while it is PENDING, redelivery included.
func testDeliveryQueueFollowsStatus(t *testing.T, e Engine) {
	w := fixture.NewStandardOn(t, e.Open(t))
	app := fixture.MustCredential(t, w.Service.CreateApp, &signflow.CredentialInput{Name: "Hooked app", OwnerIN: fixture.OwnerIN,
		Scopes: signflow.AppScopes, AllTemplates: true, WebhookURL: "https://shop.example/hook"})
	fixture.MustCredential(t, w.Service.CreateKey, &signflow.CredentialInput{Name: "Hooked key", OwnerIN: fixture.OwnerIN,
		Scopes: signflow.KeyScopes, AllTemplates: true, WebhookURL: "https://erp.example/hook"})
	c, err := w.Service.CreateContract(w.Access(t, app), &signflow.ContractInput{TemplateID: w.Template.ID, BuyerIN: fixture.CustomerIN}, signflow.Actor{})
	if err != nil {
		t.Fatal(err)
	}
	pending := func() (ids []string) {
		fixture.Must(t, func() error {
			return w.Store.View(func(tx signflow.Tx) error {
				list, err := tx.PendingDeliveries(0, 100)
				for _, d := range list {
					ids = append(ids, d.ID)
				}
				return err
			})
		})
		return ids
	}
	queue := pending()
	if len(queue) != 2 {
		t.Fatalf("a contract of a hooked app with a hooked key queued %d deliveries, want 2", len(queue))
	}
	setStatus := func(id, status string) {
		fixture.Must(t, func() error {
			return w.Store.Update(func(tx signflow.Tx) error {
				d, err := tx.Delivery(id)
				if err != nil {
					return err
				}
				d.Status = status
				d.Attempts = append(d.Attempts, signflow.Attempt{At: w.Clock.Now(), StatusCode: 500})
				return tx.PutDelivery(d)
			})
		})
	}
	setStatus(queue[0], signflow.DeliveryDelivered)
	if got := pending(); len(got) != 1 || got[0] != queue[1] {
		t.Fatalf("after delivering %s the queue is %v", queue[0], got)
	}
	setStatus(queue[1], signflow.DeliveryFailed)
	if got := pending(); len(got) != 0 {
		t.Fatalf("FAILED delivery still queued: %v", got)
	}
	e.check(t, w.Store)
	if err := w.Service.Redeliver(queue[1]); err != nil {
		t.Fatal(err)
	}
	if got := pending(); len(got) != 1 || got[0] != queue[1] {
		t.Fatalf("after redelivery the queue is %v, want [%s]", got, queue[1])
	}
	list, err := w.Service.Deliveries(signflow.DeliveryFilter{ContractID: c.ID})
	if err != nil || len(list) != 2 {
		t.Fatalf("deliveries of the contract: %d, %v", len(list), err)
	}
	for _, d := range list {
		if d.ID == queue[1] && (d.Status != signflow.DeliveryPending || len(d.Attempts) != 1) {
			t.Fatalf("redelivered row: status %s, %d attempts (the log must be kept)", d.Status, len(d.Attempts))
		}
	}
	e.check(t, w.Store)
}

// The purge index follows every write, so a purge deletes exactly the
// records whose time has come, and a record moved later survives until
// its own time.
func testCabinetPurgeFollowsWrites(t *testing.T, e Engine) {
	db := e.Open(t)
	t0 := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	sess := func(id string, exp time.Time) *signflow.CabinetSession {
		return &signflow.CabinetSession{TokenHash: signflow.HashSecret(id), IN: "301234567", ExpiresAt: exp}
	}
	must(t, db.Update(func(tx signflow.Tx) error {
		for _, s := range []*signflow.CabinetSession{sess("a", t0.Add(time.Minute)), sess("b", t0.Add(time.Minute)), sess("c", t0.Add(time.Hour))} {
			if err := tx.PutCabinetSession(s); err != nil {
				return err
			}
		}
		// b is touched: its expiry moves on.
		if err := tx.PutCabinetSession(sess("b", t0.Add(2*time.Hour))); err != nil {
			return err
		}
		if err := tx.DeleteCabinetSession(signflow.HashSecret("c")); err != nil {
			return err
		}
		for in, at := range map[string]time.Time{"30000000000001": t0.Add(time.Minute), "30000000000002": t0.Add(3 * time.Hour), "30000000000003": {}} {
			if err := tx.PutCabinetLogin(&signflow.CabinetLogin{IN: in, PurgeAt: at}); err != nil {
				return err
			}
		}
		return tx.PutCabinetLogin(&signflow.CabinetLogin{IN: "30000000000001", PurgeAt: t0.Add(30 * time.Second)})
	}))
	purge := func(at time.Time) (n, again int) {
		t.Helper()
		must(t, db.Update(func(tx signflow.Tx) (err error) {
			if n, err = tx.PurgeCabinet(at, 10); err != nil {
				return err
			}
			again, err = tx.PurgeCabinet(at, 10)
			return err
		}))
		return n, again
	}
	if n, again := purge(t0.Add(time.Hour)); n != 3 || again != 0 {
		t.Fatalf("purged %d then %d; want session a and logins 1 and 3, then nothing", n, again)
	}
	exists := func() (sessions, logins []string) {
		t.Helper()
		must(t, db.View(func(tx signflow.Tx) error {
			for _, id := range []string{"a", "b", "c"} {
				if _, err := tx.CabinetSession(signflow.HashSecret(id)); err == nil {
					sessions = append(sessions, id)
				} else if signflow.ErrorCode(err) != signflow.ENOTFOUND {
					return err
				}
			}
			for _, in := range []string{"30000000000001", "30000000000002", "30000000000003"} {
				if _, err := tx.CabinetLogin(in); err == nil {
					logins = append(logins, in)
				} else if signflow.ErrorCode(err) != signflow.ENOTFOUND {
					return err
				}
			}
			return nil
		}))
		return sessions, logins
	}
	if s, l := exists(); fmt.Sprint(s, l) != "[b] [30000000000002]" {
		t.Fatalf("left after the purge: sessions %v, logins %v; want session b and login 2", s, l)
	}
	// The moved session goes at its new time, and the last login at its own.
	if n, _ := purge(t0.Add(2*time.Hour + time.Second)); n != 1 {
		t.Fatalf("the purge at b's new expiry took %d records, want 1", n)
	}
	if n, _ := purge(t0.Add(4 * time.Hour)); n != 1 {
		t.Fatalf("the last purge took %d records, want 1", n)
	}
	if s, l := exists(); len(s)+len(l) != 0 {
		t.Fatalf("left at the end: %v %v", s, l)
	}
}

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
