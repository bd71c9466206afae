package postgres_test

import (
	"strings"
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
	"contracts/storage/postgres"
	"contracts/storage/postgres/pgtest"
)

// TestTrustedClaimsSeeOtherNodes holds a create's customer, kept decoded
// by the node and confirmed by the write unread, to what the database
// holds when the create is written: once kept, a create reads no claim;
// after another node changed the claim, creates alone and in a shared
// transaction record the new details; after the row was made again with
// the same version (only its xmin differs), too; and a claim kept as
// absent that the other node then made.
func TestTrustedClaimsSeeOtherNodes(t *testing.T) {
	url := pgtest.NewDatabase(t)
	s, c := groupStoreOn(t, url)
	w, app := newBenchWorld(t, s)
	other := pgtest.OpenURL(t, url) // the second node
	create := func(string) (*signflow.Contract, error) {
		return w.Service.CreateContract(app, &signflow.ContractInput{TemplateID: w.Template.ID, BuyerIN: fixture.CustomerIN,
			Price: 150000, Currency: "UZS"}, signflow.Actor{})
	}
	buyerName := func(k *signflow.Contract) string {
		if k == nil || k.Parties == nil || k.Parties.Buyer == nil {
			return ""
		}
		return k.Parties.Buyer.LastName
	}
	if _, err := create(""); err != nil { // the claim kept
		t.Fatal(err)
	}
	var (
		k   *signflow.Contract
		err error
	)
	_, _, sql := c.count(func() { k, err = create("") })
	if err != nil {
		t.Fatal(err)
	}
	if buyerName(k) != "Karimov" {
		t.Errorf("buyer %q; want Karimov", buyerName(k))
	}
	if strings.Contains(sql, "FROM claims WHERE") {
		t.Errorf("a create of a kept customer read the claim:\n%s", sql)
	}

	fixture.Must(t, func() error {
		return other.Update(func(tx signflow.Tx) error {
			cl, err := tx.Claim(fixture.OwnerIN, fixture.CustomerIN)
			if err != nil {
				return err
			}
			cl.LastName = "Karimova"
			return tx.PutClaim(fixture.OwnerIN, cl)
		})
	})
	cs, errs := createsGrouped(t, s, create, []string{"", "", ""})
	for i := range cs {
		if errs[i] != nil {
			t.Fatalf("create %d: %v", i, errs[i])
		}
		if buyerName(cs[i]) != "Karimova" {
			t.Errorf("create %d in a shared transaction: buyer %q; want Karimova, stored by the other node", i, buyerName(cs[i]))
		}
	}

	if _, err := create(""); err != nil { // the new claim kept
		t.Fatal(err)
	}
	_, err = postgres.Pool(other).Exec(t.Context(), `UPDATE claims SET data = json_build_object('id', data->>'id',
		'in', data->>'in', 'type', data->>'type', 'firstName', 'Aziz', 'lastName', 'Karimzoda', 'verified', false,
		'createdAt', data->>'createdAt', 'updatedAt', data->>'updatedAt'), ver = ver
		WHERE client_in = $1 AND tenant = $2`, fixture.CustomerIN, fixture.OwnerIN)
	if err != nil {
		t.Fatal(err)
	}
	if k, err = create(""); err != nil {
		t.Fatal(err)
	}
	if buyerName(k) != "Karimzoda" {
		t.Errorf("buyer %q after the row was made again at its version; want Karimzoda", buyerName(k))
	}

	// A customer the tenant holds no claim on, kept as absent, then
	// claimed through the other node.
	createFor := func(in string) (*signflow.Contract, error) {
		return w.Service.CreateContract(app, &signflow.ContractInput{TemplateID: w.Template.ID, BuyerIN: in,
			Price: 150000, Currency: "UZS"}, signflow.Actor{})
	}
	for range 2 {
		if k, err = createFor(fixture.UnknownIN); err != nil {
			t.Fatal(err)
		}
		if k.Parties == nil || k.Parties.Buyer != nil {
			t.Fatalf("a buyer without a claim recorded as %+v", k.Parties)
		}
	}
	if _, err := signflow.NewService(other, w.Options).RegisterClient(fixture.TenantAccess(fixture.OwnerIN),
		&signflow.Client{IN: fixture.UnknownIN, FirstName: "Nodira", LastName: "Yusupova", Phone: "+998 90 765-43-21"}); err != nil {
		t.Fatal(err)
	}
	if k, err = createFor(fixture.UnknownIN); err != nil {
		t.Fatal(err)
	}
	if buyerName(k) != "Yusupova" {
		t.Errorf("buyer %q after the other node registered the claim; want Yusupova", buyerName(k))
	}
}
