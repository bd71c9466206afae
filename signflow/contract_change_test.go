package signflow_test

import (
	"slices"
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// Cancel and Complete through each interface are checked by
// server/embedded's and server/keyapi's TestCancelAndComplete, and the
// transitions themselves by statemachine_test.go; here, contract_change.go's
// rules: the creator's change needs CONTRACTS_WRITE alone, another tenant
// reaches nothing, and the change comes back with its audit event.
func TestCreatorChanges(t *testing.T) {
	w := fixture.NewStandard(t)
	create := func() string {
		t.Helper()
		c, err := w.Service.CreateContract(w.Access(t, w.AppA), &signflow.ContractInput{TemplateID: w.Template.ID,
			BuyerIN: fixture.CustomerIN, Price: 1000, Currency: "UZS"}, signflow.Actor{})
		if err != nil {
			t.Fatal(err)
		}
		return c.ID
	}
	id := create()
	writeOnly := fixture.TenantAccess(fixture.OwnerIN)
	writeOnly.Scopes = []string{signflow.ScopeContractsWrite}
	readOnly := fixture.TenantAccess(fixture.OwnerIN)
	readOnly.Scopes = []string{signflow.ScopeContractsRead}

	if _, err := w.Service.Cancel(readOnly, id, signflow.Actor{}); signflow.ErrorCode(err) != signflow.EFORBIDDEN {
		t.Fatalf("cancel without CONTRACTS_WRITE: %v", err)
	}
	if _, err := w.Service.Cancel(fixture.TenantAccess(fixture.OtherIN), id, signflow.Actor{}); signflow.ErrorCode(err) != signflow.EFORBIDDEN {
		t.Fatalf("another tenant's cancel: %v, want EFORBIDDEN", err)
	}
	if _, err := w.Service.Complete(writeOnly, id, signflow.Actor{}); signflow.ErrorCode(err) != signflow.EINVALID {
		t.Fatalf("completing a CREATED contract: %v, want EINVALID", err)
	}
	v, err := w.Service.Cancel(writeOnly, id, signflow.Actor{})
	if err != nil || v.Status != signflow.StatusCancelled || v.Version != 2 {
		t.Fatalf("cancel with CONTRACTS_WRITE alone: %+v, %v", v, err)
	}
	if types := auditTypes(t, w.Service, id); !slices.Contains(types, "CONTRACT_CANCELLED") {
		t.Fatalf("audit trail %v has no CONTRACT_CANCELLED", types)
	}
	if _, err := w.Service.Cancel(writeOnly, "no-such-id", signflow.Actor{}); signflow.ErrorCode(err) != signflow.ENOTFOUND {
		t.Fatalf("an unknown id: %v", err)
	}
}
