package signflow_test

import (
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// The cabinet's reach is one rule for its list and for each contract: a
// party logged in with a phone reaches the contracts whose creator's
// tenant holds that phone for it, and is named as that tenant names it;
// an owner, with its admin's phone, reaches every contract of its own.
func TestCabinetReachIsThePhoneTheCreatorsTenantHolds(t *testing.T) {
	w := newCabinetWorld(t)
	const phoneA, phoneB = "998935550101", "998935550202"
	fixture.MustClaim(t, w.Service, fixture.OwnerIN, &signflow.Client{IN: fixture.UnknownIN, FirstName: "Laylo", LastName: "Tosheva", Phone: phoneA})
	fixture.MustClaim(t, w.Service, fixture.OtherIN, &signflow.Client{IN: fixture.UnknownIN, FirstName: "Layla", LastName: "Tosheva", Phone: phoneB})
	create := func(cred *signflow.NewCredential) string {
		c, err := w.Service.CreateContract(w.Access(t, cred), &signflow.ContractInput{TemplateID: w.Template.ID, BuyerIN: fixture.UnknownIN,
			Price: 150000, Currency: "UZS"}, signflow.Actor{})
		if err != nil {
			t.Fatal(err)
		}
		return c.ID
	}
	byA, byB := create(w.AppA), create(w.AppB)
	for _, sc := range []struct {
		in, phone, name string
		reached, not    []string
	}{
		{fixture.UnknownIN, phoneA, "Tosheva Laylo", []string{byA}, []string{byB, w.c.ID}},
		{fixture.UnknownIN, phoneB, "Tosheva Layla", []string{byB}, []string{byA, w.c.ID}},
		{peerIN, peerPhone, "Rahimova Dilnoza", []string{w.c.ID}, []string{byA, byB}},
	} {
		w.Clock.Advance(time.Hour) // past the resend wait of the last login
		_, s := w.login(t, sc.in, sc.phone)
		party, err := w.cab.Party(s)
		if err != nil || party == nil || party.Name() != sc.name {
			t.Fatalf("%s by %s: party %+v %v, want %s", sc.in, sc.phone, party, err, sc.name)
		}
		list, err := w.cab.Contracts(s, 0)
		if err != nil {
			t.Fatal(err)
		}
		var listed []string
		for _, v := range list.Open {
			listed = append(listed, v.ID)
		}
		if len(listed) != len(sc.reached) || listed[0] != sc.reached[0] || list.OpenTotal != len(sc.reached) {
			t.Errorf("%s by %s: listed %v of %d, want %v", sc.in, sc.phone, listed, list.OpenTotal, sc.reached)
		}
		for _, id := range sc.reached {
			if _, err := w.cab.Contract(s, id); err != nil {
				t.Errorf("%s by %s: reached contract %s: %v", sc.in, sc.phone, id, err)
			}
		}
		for _, id := range sc.not {
			if _, err := w.cab.Contract(s, id); signflow.ErrorCode(err) != signflow.EFORBIDDEN {
				t.Errorf("%s by %s: contract %s out of reach: %v, want EFORBIDDEN", sc.in, sc.phone, id, err)
			}
		}
	}
}
