package postgres_test

import (
	"strings"
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
	"contracts/storage/postgres"
	"contracts/storage/postgres/pgtest"
)

// createsGrouped runs a create of each template id as concurrent writers
// that wait while another holds s's one transaction, so that they share
// the next, and returns each one's contract and error.
func createsGrouped(t *testing.T, s *postgres.Store, create func(string) (*signflow.Contract, error), ids []string) ([]*signflow.Contract, []error) {
	t.Helper()
	release, holding, first := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		first <- s.Update(func(signflow.Tx) error { close(holding); <-release; return nil })
	}()
	<-holding
	type result struct {
		c   *signflow.Contract
		err error
	}
	results := make([]chan result, len(ids))
	for i, id := range ids {
		results[i] = make(chan result, 1)
		go func() {
			c, err := create(id)
			results[i] <- result{c, err}
		}()
	}
	for postgres.Waiting(s) < len(ids) {
		select {
		case <-t.Context().Done():
			t.Fatal("the writers did not queue")
		default:
		}
	}
	close(release)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	cs, errs := make([]*signflow.Contract, len(ids)), make([]error, len(ids))
	for i := range results {
		r := <-results[i]
		cs[i], errs[i] = r.c, r.err
	}
	return cs, errs
}

// TestTrustedCreatesSeeOtherNodes holds the creates built from a node's
// kept template, unread, to what the database holds when they are
// written: in a shared transaction, the creates of a template another
// node unpublished are refused, those of one it did not change commit
// together in that one transaction; the creates of a template another
// node moved to its next version are made from that version; the create
// of an app kept by this node, whose secret the other node rotated, is
// refused, and one of another app commits beside it.
func TestTrustedCreatesSeeOtherNodes(t *testing.T) {
	url := pgtest.NewDatabase(t)
	s, c := groupStoreOn(t, url)
	w, app := newBenchWorld(t, s)
	other := pgtest.OpenURL(t, url) // the second node
	createBy := func(a *signflow.Access, id string) (*signflow.Contract, error) {
		return w.Service.CreateContract(a, &signflow.ContractInput{TemplateID: id, BuyerIN: fixture.CustomerIN,
			Price: 150000, Currency: "UZS"}, signflow.Actor{})
	}
	create := func(id string) (*signflow.Contract, error) { return createBy(app, id) }
	for _, id := range []string{w.Template.ID, w.Other.ID} { // both kept
		if _, err := create(id); err != nil {
			t.Fatal(err)
		}
	}
	fixture.Must(t, func() error { return signflow.NewService(other, w.Options).UnpublishTemplate(w.Other.ID) })
	var errs []error
	_, _, sql := c.count(func() {
		_, errs = createsGrouped(t, s, create, []string{w.Template.ID, w.Other.ID, w.Template.ID, w.Other.ID})
	})
	for i, err := range errs {
		if want := i%2 == 1; (signflow.ErrorCode(err) == signflow.EINVALID) != want {
			t.Errorf("create %d: %v; want refused %v", i, err, want)
		}
	}
	if n := strings.Count(sql, "BEGIN ISOLATION LEVEL READ COMMITTED"); n != 1 {
		t.Errorf("%d write transactions for the creates; want 1:\n%s", n, sql)
	}

	fixture.Must(t, func() error {
		return other.Update(func(tx signflow.Tx) error {
			tpl, err := tx.Template(w.Template.ID)
			if err != nil {
				return err
			}
			tpl.Version++
			return tx.PutTemplate(tpl)
		})
	})
	cs, errs := createsGrouped(t, s, create, []string{w.Template.ID, w.Template.ID, w.Template.ID})
	for i, err := range errs {
		if err != nil {
			t.Fatalf("create %d: %v", i, err)
		}
		if cs[i].TemplateVersion != w.Template.Version+1 {
			t.Errorf("create %d made from template version %d; want %d, stored by the other node", i, cs[i].TemplateVersion, w.Template.Version+1)
		}
	}

	token, err := w.Service.IssueToken(w.AppA.ID, w.AppA.Secret)
	if err != nil {
		t.Fatal(err)
	}
	var kept *signflow.Access
	for range 2 { // the app cached, then taken from the cache
		if _, kept, err = w.Service.AuthenticateTokenFor(token, signflow.ScopeContractsWrite); err != nil {
			t.Fatal(err)
		}
		if _, err := createBy(kept, w.Template.ID); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := signflow.NewService(other, w.Options).RotateAppSecret(w.AppA.ID); err != nil {
		t.Fatal(err)
	}
	_, _, sql = c.count(func() {
		_, errs = createsGrouped(t, s, func(by string) (*signflow.Contract, error) {
			if by == "kept" {
				return createBy(kept, w.Template.ID)
			}
			return create(w.Template.ID)
		}, []string{"kept", "app"})
	})
	if signflow.ErrorCode(errs[0]) != signflow.EUNAUTHORIZED || errs[1] != nil {
		t.Errorf("creates by the app whose secret the other node rotated, and by another: %v; want %s, and none", errs, signflow.EUNAUTHORIZED)
	}
	if n := strings.Count(sql, "BEGIN ISOLATION LEVEL READ COMMITTED"); n != 1 {
		t.Errorf("%d write transactions for the creates; want 1:\n%s", n, sql)
	}
}
