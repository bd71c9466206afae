package postgres_test

import (
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
	"contracts/storage/postgres/pgtest"
)

// A create authenticated from one node's app cache (AuthenticateTokenFor)
// confirms the credentials version in its template's read: a change of
// the app committed through another node refuses the very next create,
// as AuthenticateToken would.
func TestCreateConfirmsCachedCredentials(t *testing.T) {
	a := pgtest.Open(t)
	w := fixture.NewStandardOn(t, a)
	b := signflow.NewService(pgtest.Peer(t, a), w.Options) // the second node
	create := func(token string) (*signflow.Access, error) {
		t.Helper()
		_, acc, err := w.Service.AuthenticateTokenFor(token, signflow.ScopeContractsWrite)
		if err != nil {
			return nil, err
		}
		_, err = w.Service.CreateContract(acc, &signflow.ContractInput{TemplateID: w.Template.ID, BuyerIN: fixture.CustomerIN,
			Price: 150000, Currency: "UZS"}, signflow.Actor{})
		return acc, err
	}
	token, err := w.Service.IssueToken(w.AppA.ID, w.AppA.Secret)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 { // the app cached, then taken from the cache
		if _, err := create(token); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := b.RotateAppSecret(w.AppA.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := create(token); signflow.ErrorCode(err) != signflow.EUNAUTHORIZED {
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
		if _, err := create(token); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.CancelApp(w.AppA.ID); err != nil {
		t.Fatal(err)
	}
	acc, err := create(token)
	if acc == nil {
		t.Fatalf("the app is still cached on this node: %v", err)
	}
	if signflow.ErrorMessage(err) != "The app is cancelled." {
		t.Fatalf("a create by the app cancelled on the other node: %v, want the cancelled app's refusal", err)
	}
	// A body refused before the create is refused to a confirmed caller.
	if _, err := w.Service.Confirmed(acc); signflow.ErrorMessage(err) != "The app is cancelled." {
		t.Fatalf("Confirmed with the app cancelled on the other node: %v", err)
	}
}

// A warm create by token, cached app and template, takes no round trip
// for the token nor the template: their versions are confirmed in the
// write's first round trip.
func TestTokenCreateRoundTrips(t *testing.T) {
	w, _, tr := tracedWorld(t)
	token, err := w.Service.IssueToken(w.AppA.ID, w.AppA.Secret)
	if err != nil {
		t.Fatal(err)
	}
	create := func() {
		_, acc, err := w.Service.AuthenticateTokenFor(token, signflow.ScopeContractsWrite)
		if err == nil {
			_, err = w.Service.CreateContract(acc, &signflow.ContractInput{TemplateID: w.Template.ID, BuyerIN: fixture.CustomerIN,
				Price: 150000, Currency: "UZS"}, signflow.Actor{})
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	create()
	create()
	trips, statements, sql := tr.count(create)
	t.Logf("create: %d round trips, %d statements:\n%s", trips, statements, sql)
	if trips > 3 {
		t.Errorf("a create by token took %d round trips; want at most 3 (the write's):\n%s", trips, sql)
	}
}
