package postgres_test

import (
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
	"contracts/storage/postgres/pgtest"
)

// A read authenticated from one node's app cache (AuthenticateTokenFor)
// confirms the credentials version in its own transaction: a change of
// the app committed through another node refuses the very next read, as
// AuthenticateToken would, with the checked credentials' answer.
func TestReadConfirmsCachedCredentials(t *testing.T) {
	a := pgtest.Open(t)
	w := fixture.NewStandardOn(t, a)
	b := signflow.NewService(pgtest.Peer(t, a), w.Options) // the second node
	c := w.Contract(t)
	encode := func(v *signflow.ContractView) []byte { return []byte(v.Status) }
	read := func(token string) error {
		t.Helper()
		_, acc, err := w.Service.AuthenticateTokenFor(token, signflow.ScopeContractsRead)
		if err != nil {
			return err
		}
		out, err := w.Service.ContractAnswer(acc, c.ID, "test", encode)
		if err == nil && string(out) != signflow.StatusCreated {
			t.Fatalf("read %q", out)
		}
		return err
	}
	token, err := w.Service.IssueToken(w.AppA.ID, w.AppA.Secret)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 { // the app cached, then taken from the cache
		if err := read(token); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := b.RotateAppSecret(w.AppA.ID); err != nil {
		t.Fatal(err)
	}
	if err := read(token); signflow.ErrorCode(err) != signflow.EUNAUTHORIZED {
		t.Fatalf("a token of the secret rotated on the other node: %v, want %s", err, signflow.EUNAUTHORIZED)
	}

	secret, err := b.RotateAppSecret(w.AppA.ID)
	if err != nil {
		t.Fatal(err)
	}
	if token, err = w.Service.IssueToken(w.AppA.ID, secret); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := read(token); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.CancelApp(w.AppA.ID); err != nil {
		t.Fatal(err)
	}
	_, acc, err := w.Service.AuthenticateTokenFor(token, signflow.ScopeContractsRead)
	if err != nil {
		t.Fatalf("the app is still cached on this node: %v", err)
	}
	if _, err := w.Service.ContractAnswer(acc, c.ID, "test", encode); signflow.ErrorMessage(err) != "The app is cancelled." {
		t.Fatalf("a read by the app cancelled on the other node: %v, want the cancelled app's refusal", err)
	}

	// Another tenant's contract is refused as before.
	token, err = w.Service.IssueToken(w.AppB.ID, w.AppB.Secret)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := read(token); signflow.ErrorCode(err) != signflow.EFORBIDDEN {
			t.Fatalf("another tenant's contract: %v, want %s", err, signflow.EFORBIDDEN)
		}
	}
}

// A warm read by token, kept answer and cached app, is one round trip:
// the credentials version and the answer's stamp are checked in the
// statements of the read itself.
func TestTokenReadRoundTrips(t *testing.T) {
	w, _, tr := tracedWorld(t)
	c := w.Contract(t)
	token, err := w.Service.IssueToken(w.AppA.ID, w.AppA.Secret)
	if err != nil {
		t.Fatal(err)
	}
	read := func() {
		_, acc, err := w.Service.AuthenticateTokenFor(token, signflow.ScopeContractsRead)
		if err == nil {
			_, err = w.Service.ContractAnswer(acc, c.ID, "test", func(v *signflow.ContractView) []byte { return []byte(v.Status) })
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	read()
	read()
	trips, statements, sql := tr.count(read)
	t.Logf("read: %d round trips, %d statements:\n%s", trips, statements, sql)
	// One more is allowed for the commit of a parked connection not taken.
	if trips > 1+1 || statements > 3+1 {
		t.Errorf("a read by token took %d round trips and %d statements; want 1 and 3:\n%s", trips, statements, sql)
	}
}

// An app read at a known credentials version comes decoded from the
// node's cache: what a reader changes in its copy does not leak to the
// next reader, and a change committed through another node is read at
// once.
func TestAppCacheCopies(t *testing.T) {
	a := pgtest.Open(t)
	w := fixture.NewStandardOn(t, a)
	peer := signflow.NewService(pgtest.Peer(t, a), w.Options)
	read := func() *signflow.App {
		t.Helper()
		var app *signflow.App
		fixture.Must(t, func() error {
			return a.Update(func(tx signflow.Tx) (err error) {
				if _, err := tx.(signflow.SharedTx).CredentialsVersion(); err != nil {
					return err
				}
				app, err = tx.App(w.AppA.ID)
				return err
			})
		})
		return app
	}
	read()
	first := read()
	scopes := len(first.Scopes)
	first.Name, first.Cancelled = "Changed in place", true
	first.Scopes = append(first.Scopes, "appended")
	if again := read(); again.Name != "App A" || again.Cancelled || len(again.Scopes) != scopes {
		t.Fatalf("a reader's change was kept: %+v", again)
	}
	if err := peer.CancelApp(w.AppA.ID); err != nil {
		t.Fatal(err)
	}
	if !read().Cancelled {
		t.Fatal("the app cancelled on the other node is read as it was")
	}
}
