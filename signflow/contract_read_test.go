package signflow_test

import (
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// Reads as the interfaces answer them are checked by
// server/embedded/contract_view_test.go and server/keyapi/contracts_test.go
// (TestReadContract), server/keyapi/contracts_list_test.go (TestListPaging,
// TestListFilters, TestListSearch) and server/cabinet/contracts_test.go
// (TestPartySeesOnlyItsContracts); here, the rule of contract_read.go: a
// read needs the scope and reach, an id that is no contract is not found,
// and a party's phone shows only to the tenant that holds it.
func TestContractReadNeedsReachAndHidesPhones(t *testing.T) {
	w := fixture.NewStandard(t)
	c := w.Contract(t)
	app := w.Access(t, w.AppA)
	v, err := w.Service.Contract(app, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if v.Buyer == nil || v.Buyer.Phone != custPhone || v.Seller == nil || v.Seller.Phone == "" {
		t.Errorf("the creator's tenant reads buyer %+v, seller %+v: want both phones", v.Buyer, v.Seller)
	}

	noScope := *app
	noScope.Scopes = []string{signflow.ScopeContractsWrite}
	for _, tc := range []struct {
		name string
		a    *signflow.Access
		id   string
		code string
	}{
		{"not a uuid", app, "x' OR 1=1", signflow.ENOTFOUND},
		{"no such contract", app, signflow.NewID(), signflow.ENOTFOUND},
		{"no read scope", &noScope, c.ID, signflow.EFORBIDDEN},
		{"another owner", w.Access(t, w.KeyB), c.ID, signflow.EFORBIDDEN},
		{"cabinet, another phone", &signflow.Access{Interface: signflow.CabinetInterface, OwnerIN: fixture.CustomerIN, AllTemplates: true,
			Phone: "998900000000", Scopes: []string{signflow.ScopeContractsRead}}, c.ID, signflow.EFORBIDDEN},
	} {
		if _, err := w.Service.Contract(tc.a, tc.id); signflow.ErrorCode(err) != tc.code {
			t.Errorf("%s: %v, want %s", tc.name, err, tc.code)
		}
	}

	cab := &signflow.Access{Interface: signflow.CabinetInterface, OwnerIN: fixture.CustomerIN, AllTemplates: true,
		Phone: custPhone, Scopes: []string{signflow.ScopeContractsRead}}
	v, err = w.Service.Contract(cab, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if v.Buyer.Phone != "" || v.Seller.Phone != "" {
		t.Errorf("the buyer in the cabinet reads phones it does not hold: buyer %q, seller %q", v.Buyer.Phone, v.Seller.Phone)
	}
	list, total, err := w.Service.ListContracts(cab, signflow.ContractQuery{Size: 10})
	if err != nil || total != 1 || len(list) != 1 || list[0].Seller.Phone != "" {
		t.Errorf("cabinet list: %d of %d, %v", len(list), total, err)
	}
	cab.Phone = "998900000000"
	if _, total, err := w.Service.ListContracts(cab, signflow.ContractQuery{Size: 10}); err != nil || total != 0 {
		t.Errorf("cabinet list with a phone no tenant holds: %d, %v", total, err)
	}
}
