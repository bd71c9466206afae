package signflow_test

import (
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// What tenants may and may not reach of each other through every route is
// checked by server/tenancy_test.go (the TestAttack... tests) and
// server/tenancy_matrix_test.go (TestTenantEndpointMatrix); here,
// tenant.go's rule itself: a number reads as its tenant holds it — the
// admin's record for an owner's number, else that tenant's own claim.
func TestHolderIsOwnerRecordElseOwnClaim(t *testing.T) {
	w := fixture.NewStandard(t)
	svc := w.Service
	a, b := fixture.TenantAccess(fixture.OwnerIN), fixture.TenantAccess(fixture.OtherIN)

	const both = "33345678901234"
	fixture.MustClaim(t, svc, fixture.OwnerIN, &signflow.Client{IN: both, FirstName: "Aziz", LastName: "Karimov", Phone: "998900000001"})
	fixture.MustClaim(t, svc, fixture.OtherIN, &signflow.Client{IN: both, FirstName: "Aziz", LastName: "Karimov", Phone: "998900000002"})
	for _, tc := range []struct {
		a     *signflow.Access
		phone string
	}{{a, "998900000001"}, {b, "998900000002"}} {
		if c, err := svc.FindClient(tc.a, both); err != nil || c.Phone != tc.phone {
			t.Fatalf("tenant %s reads a number both claim: %+v, %v; want its own claim's phone %s", tc.a.OwnerIN, c, err, tc.phone)
		}
	}

	// A claim on an owner's number never stands for the owner.
	fixture.MustClaim(t, svc, fixture.OwnerIN, &signflow.Client{IN: fixture.OtherIN, Type: signflow.ClientCompany,
		LegalName: "Not Beta", Phone: "998900000003"})
	if c, err := svc.FindClient(a, fixture.OtherIN); err != nil || c.LegalName != "Beta Trade LLC" || c.Phone != "998712000001" {
		t.Fatalf("tenant A reads owner B: %+v, %v; want the admin's record", c, err)
	}

	const stranger = "32345678901234"
	fixture.MustClaim(t, svc, fixture.OwnerIN, &signflow.Client{IN: stranger, FirstName: "Vali", LastName: "Aliyev", Phone: "998900000004"})
	if _, err := svc.FindClient(b, stranger); signflow.ErrorCode(err) != signflow.ENOTFOUND {
		t.Fatalf("tenant B reads tenant A's claim: %v, want ENOTFOUND", err)
	}
}
