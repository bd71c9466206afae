package postgres_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
	"contracts/storage/postgres"
	"contracts/storage/postgres/pgtest"

	"github.com/jackc/pgx/v5"
)

// counter counts what a store sends: round trips (a statement alone, or a
// batch) and statements.
type counter struct {
	mu                 sync.Mutex
	trips, statements  int
	sql                []string
	batches, prepareds int
}

func (c *counter) TraceQueryStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.trips++
	c.statements++
	c.sql = append(c.sql, d.SQL)
	return ctx
}

func (c *counter) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

func (c *counter) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.trips++
	return ctx
}

func (c *counter) TraceBatchQuery(_ context.Context, _ *pgx.Conn, d pgx.TraceBatchQueryData) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.statements++
	c.sql = append(c.sql, d.SQL)
}

func (c *counter) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData) {}

// count runs fn and returns the round trips and statements it took.
func (c *counter) count(fn func()) (trips, statements int, sql string) {
	c.mu.Lock()
	c.trips, c.statements, c.sql = 0, 0, nil
	c.mu.Unlock()
	fn()
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.trips, c.statements, strings.Join(c.sql, "\n")
}

// tracedWorld is benchWorld on a store whose statements c counts.
func tracedWorld(t *testing.T) (*fixture.Standard, *signflow.Access, *counter) {
	c := &counter{}
	s, err := postgres.Open(context.Background(), pgtest.NewDatabase(t), postgres.WithTracer(pgtest.Options(), c))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	w, app := newBenchWorld(t, s)
	return w, app, c
}

// TestCreateAndReadRoundTrips holds what a create and a read of a contract
// cost the database once warm: a create takes its template from the cache
// unread, and is one write transaction (BEGIN and one statement for the
// template's confirmation with the number; the customer's records; one
// statement for the contract, its audit event, outbox row and counts, and
// COMMIT, in one round trip; the owner's record and the webhook targets
// from the credentials cache): 3 round trips, 5 statements; a read is one,
// its COMMIT going with the next transaction.
// One more is allowed for the commit of a parked connection not taken.
func TestCreateAndReadRoundTrips(t *testing.T) {
	w, app, c := tracedWorld(t)
	create := func() *signflow.Contract {
		out, err := w.Service.CreateContract(app, &signflow.ContractInput{TemplateID: w.Template.ID, BuyerIN: fixture.CustomerIN,
			Price: 150000, Currency: "UZS"}, signflow.Actor{})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	create() // warms the statement and credentials caches
	var made *signflow.Contract
	trips, statements, sql := c.count(func() { made = create() })
	t.Logf("create: %d round trips, %d statements:\n%s", trips, statements, sql)
	if trips > 3+1 || statements > 5+1 {
		t.Errorf("a create took %d round trips and %d statements; want at most 3 and 5:\n%s", trips, statements, sql)
	}
	w.Service.Contract(app, made.ID)
	trips, statements, sql = c.count(func() {
		if _, err := w.Service.Contract(app, made.ID); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("read: %d round trips, %d statements:\n%s", trips, statements, sql)
	if trips > 1+1 || statements > 3+1 {
		t.Errorf("a read took %d round trips and %d statements; want at most 1 and 3:\n%s", trips, statements, sql)
	}
	var ds []*signflow.Delivery
	fixture.Must(t, func() error {
		return w.Store.View(func(tx signflow.Tx) (err error) {
			ds, err = tx.Deliveries(signflow.DeliveryFilter{ContractID: made.ID})
			return err
		})
	})
	if len(ds) != 1 {
		t.Fatalf("%d outbox rows for the created contract; want the app's one", len(ds))
	}
}

// TestCredentialsCacheSeesOtherNodes: a node's creates find the webhook
// targets that another node added, changed or revoked, from the next
// create on, though the first node keeps the app and each owner's keys.
func TestCredentialsCacheSeesOtherNodes(t *testing.T) {
	store := pgtest.Open(t)
	w := fixture.NewStandardOn(t, store)
	other := signflow.NewService(pgtest.Peer(t, store), w.Options)
	app := w.Access(t, w.AppA)
	targets := func() []string {
		t.Helper()
		c, err := w.Service.CreateContract(app, &signflow.ContractInput{TemplateID: w.Template.ID, BuyerIN: fixture.CustomerIN,
			Price: 150000, Currency: "UZS"}, signflow.Actor{})
		if err != nil {
			t.Fatal(err)
		}
		var ds []*signflow.Delivery
		fixture.Must(t, func() error {
			return store.View(func(tx signflow.Tx) (err error) {
				ds, err = tx.Deliveries(signflow.DeliveryFilter{ContractID: c.ID})
				return err
			})
		})
		var out []string
		for _, d := range ds {
			out = append(out, d.URL)
		}
		return out
	}
	want := func(got []string, urls ...string) {
		t.Helper()
		if strings.Join(got, " ") != strings.Join(urls, " ") {
			t.Fatalf("webhooks to %q; want %q", got, urls)
		}
	}
	want(targets())
	want(targets()) // the second create is answered from the cache
	key := fixture.MustCredential(t, other.CreateKey, &signflow.CredentialInput{Name: "Hooked", OwnerIN: fixture.OwnerIN,
		Scopes: []string{signflow.ScopeContractsRead}, AllTemplates: true, WebhookURL: "https://shop.example/key"})
	want(targets(), "https://shop.example/key")
	want(targets(), "https://shop.example/key")
	if err := other.RevokeKey(key.ID); err != nil {
		t.Fatal(err)
	}
	want(targets())
	hooked := fixture.MustCredential(t, other.CreateApp, &signflow.CredentialInput{Name: "Hooked app", OwnerIN: fixture.OwnerIN,
		Scopes: signflow.AppScopes, AllTemplates: true, WebhookURL: "https://shop.example/app"})
	app = w.Access(t, hooked)
	want(targets(), "https://shop.example/app")
	// The creating owner's record comes from the cache, and a change of it
	// on another node is in the next contract.
	renamed := signflow.Client{IN: fixture.OwnerIN, Type: signflow.ClientCompany, LegalName: "Renamed Savdo MChJ", Phone: "998712000000"}
	if _, _, err := other.SaveOwner(&renamed); err != nil {
		t.Fatal(err)
	}
	c, err := w.Service.CreateContract(app, &signflow.ContractInput{TemplateID: w.Template.ID, BuyerIN: fixture.CustomerIN,
		Price: 150000, Currency: "UZS"}, signflow.Actor{})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Parties.Seller.LegalName; got != renamed.LegalName {
		t.Fatalf("the seller's name in a new contract is %q after another node renamed it %q", got, renamed.LegalName)
	}
	if err := other.CancelApp(hooked.ID); err != nil {
		t.Fatal(err)
	}
	// The cancelled app's row changed: the next create reads it again
	// (a cancelled app is refused before, by its token; the store still
	// answers for it).
	var got *signflow.App
	fixture.Must(t, func() error {
		return store.Update(func(tx signflow.Tx) (err error) { got, err = tx.App(hooked.ID); return err })
	})
	if !got.Cancelled {
		t.Fatal("a write transaction read the app as it was before another node cancelled it")
	}
}

// TestCommitInTheWritesRoundTrip: when the COMMIT goes with the writes, a
// write that fails keeps the others from committing, and the store goes on.
func TestCommitInTheWritesRoundTrip(t *testing.T) {
	store := pgtest.Open(t)
	w := fixture.NewStandardOn(t, store)
	c := w.Contract(t)
	audits := func() int {
		var n []*signflow.AuditEvent
		fixture.Must(t, func() error {
			return store.View(func(tx signflow.Tx) (err error) { n, err = tx.AuditEvents(c.ID); return err })
		})
		return len(n)
	}
	before := audits()
	err := store.Update(func(tx signflow.Tx) error {
		if err := tx.AddAudit(&signflow.AuditEvent{ID: signflow.NewID(), ContractID: c.ID, Type: signflow.EventCreated}); err != nil {
			return err
		}
		// A copy numbered anew under the same id: only the database can
		// refuse it, in the round trip of the COMMIT.
		seq, err := tx.NextContractSeq()
		if err != nil {
			return err
		}
		dup := *c
		dup.Seq = seq
		return tx.PutContract(&dup)
	})
	if err == nil {
		t.Fatal("a second contract under one id was stored")
	}
	if n := audits(); n != before {
		t.Fatalf("%d audit events after the failed transaction; want %d", n, before)
	}
	// A key written and read in one transaction is its own, not the cache's.
	err = store.Update(func(tx signflow.Tx) error {
		if _, err := tx.KeysByOwner(fixture.OwnerIN); err != nil {
			return err
		}
		k := &signflow.APIKey{ID: signflow.NewID(), Name: "Own", OwnerIN: fixture.OwnerIN, Hash: []byte("own hash"), WebhookURL: "https://own.example"}
		if err := tx.PutKey(k); err != nil {
			return err
		}
		keys, err := tx.KeysByOwner(fixture.OwnerIN)
		if err != nil {
			return err
		}
		for _, got := range keys {
			if got.ID == k.ID {
				return nil
			}
		}
		t.Error("a transaction did not see the key it wrote")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	w.Contract(t)
}
