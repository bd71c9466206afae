package signflow

import "testing"

// A kept answer checks each reader against reachOf's copy of the
// contract, not the contract: the copy gets the same verdict from every
// access check, for parties, witnesses, other tenants and templates, on
// every interface, and names the same creator for the cabinet's check.
func TestReachOfKeepsTheAccessVerdicts(t *testing.T) {
	c := &Contract{ID: "c1", Number: "2026-000001", Status: StatusCreated, BuyerIN: "31234567890123", SellerIN: "301234567",
		CreatorIN: "301234567", TemplateID: "t1", Purpose: "p", Price: 100,
		Witnesses: []Witness{{ID: "w1", IN: "41111111111111", FirstName: "Guli", Status: PartyPending}}}
	r := reachOf(c)
	if r.CreatorIN != c.CreatorIN {
		t.Fatalf("creator %q, want %q", r.CreatorIN, c.CreatorIN)
	}
	var accesses []*Access
	for _, iface := range []string{Embedded, CabinetInterface, "key"} {
		for _, in := range []string{c.BuyerIN, c.SellerIN, c.Witnesses[0].IN, "309999999", ""} {
			accesses = append(accesses,
				&Access{Interface: iface, OwnerIN: in, AllTemplates: true},
				&Access{Interface: iface, OwnerIN: in, TemplateIDs: []string{"t1"}},
				&Access{Interface: iface, OwnerIN: in, TemplateIDs: []string{"t2"}})
		}
	}
	allowed := 0
	for _, a := range accesses {
		want, got := a.CanRead(c), a.CanRead(r)
		if (want == nil) != (got == nil) || want != nil && want.Error() != got.Error() {
			t.Errorf("%+v: the copy gets %v, the contract %v", a, got, want)
		}
		if want == nil {
			allowed++
		}
	}
	if allowed == 0 || allowed == len(accesses) {
		t.Fatalf("%d of %d accesses may read: the matrix checks nothing", allowed, len(accesses))
	}
}
