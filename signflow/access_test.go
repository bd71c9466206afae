package signflow_test

import (
	"testing"

	"contracts/signflow"
)

// Scopes and tenants as each interface enforces them are checked by
// server/embedded/access_test.go (TestScopeMatrix, TestTenantIsolation),
// server/keyapi/auth_test.go (TestScopeMatrix) and
// server/cabinet/contracts_test.go (TestPartySeesOnlyItsContracts); here,
// the rule of access.go: a scope is held or refused, and a contract is read
// only by a party within its allowed templates, or in the cabinet by a
// witness too.
func TestAccessRequireAndCanRead(t *testing.T) {
	a := &signflow.Access{Interface: signflow.KeyInterface, OwnerIN: "301234567", Scopes: []string{signflow.ScopeContractsRead}}
	if err := a.Require(signflow.ScopeContractsRead); err != nil {
		t.Errorf("held scope refused: %v", err)
	}
	if err := a.Require(signflow.ScopeContractsWrite); signflow.ErrorCode(err) != signflow.EFORBIDDEN {
		t.Errorf("missing scope: %v, want forbidden", err)
	}

	c := &signflow.Contract{BuyerIN: "31234567890123", SellerIN: "301234567", TemplateID: "t1",
		Witnesses: []signflow.Witness{{IN: "309876543"}}}
	for _, tc := range []struct {
		name string
		a    signflow.Access
		ok   bool
	}{
		{"seller, every template", signflow.Access{Interface: signflow.Embedded, OwnerIN: "301234567", AllTemplates: true}, true},
		{"buyer, its template", signflow.Access{Interface: signflow.KeyInterface, OwnerIN: "31234567890123", TemplateIDs: []string{"t1"}}, true},
		{"seller, other templates", signflow.Access{Interface: signflow.Embedded, OwnerIN: "301234567", TemplateIDs: []string{"t2"}}, false},
		{"stranger", signflow.Access{Interface: signflow.KeyInterface, OwnerIN: "305555555", AllTemplates: true}, false},
		{"witness through an app", signflow.Access{Interface: signflow.Embedded, OwnerIN: "309876543", AllTemplates: true}, false},
		{"witness in the cabinet", signflow.Access{Interface: signflow.CabinetInterface, OwnerIN: "309876543", AllTemplates: true}, true},
		{"stranger in the cabinet", signflow.Access{Interface: signflow.CabinetInterface, OwnerIN: "305555555", AllTemplates: true}, false},
	} {
		err := tc.a.CanRead(c)
		if tc.ok && err != nil || !tc.ok && signflow.ErrorCode(err) != signflow.EFORBIDDEN {
			t.Errorf("%s: %v, want ok=%v", tc.name, err, tc.ok)
		}
	}
}
