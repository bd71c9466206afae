package signflow_test

import (
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
)

func TestTemplateReads(t *testing.T) {
	w := fixture.NewStandard(t)
	all := w.Access(t, w.AppA)
	limited := w.Access(t, w.LimitedKey) // only w.Template
	published := signflow.TemplateFilter{PublishedOnly: true}
	ids := func(list []*signflow.Template) map[string]bool {
		m := map[string]bool{}
		for _, t := range list {
			m[t.ID] = true
		}
		return m
	}

	list, err := w.Service.Templates(all, published)
	if got := ids(list); err != nil || len(got) != 2 || !got[w.Template.ID] || !got[w.Other.ID] {
		t.Fatalf("published list: %v %v", got, err)
	}
	list, err = w.Service.Templates(all, signflow.TemplateFilter{})
	if got := ids(list); err != nil || len(got) != 3 || !got[w.Draft.ID] {
		t.Fatalf("unfiltered list: %v %v", got, err)
	}
	list, err = w.Service.Templates(limited, signflow.TemplateFilter{})
	if got := ids(list); err != nil || len(got) != 1 || !got[w.Template.ID] {
		t.Fatalf("allow-list: %v %v", got, err)
	}
	noScope := *all
	noScope.Scopes = []string{signflow.ScopeContractsRead}
	if _, err := w.Service.Templates(&noScope, published); signflow.ErrorCode(err) != signflow.EFORBIDDEN {
		t.Fatalf("list without TEMPLATES_READ: %v", err)
	}

	for _, tc := range []struct {
		name   string
		a      *signflow.Access
		id     string
		f      signflow.TemplateFilter
		code   string
		fields int
	}{
		{"allowed", all, w.Template.ID, published, "", 3},
		{"not allowed", limited, w.Other.ID, published, signflow.EFORBIDDEN, 0},
		{"unknown", all, signflow.NewID(), published, signflow.ENOTFOUND, 0},
		{"malformed", all, "../x", published, signflow.ENOTFOUND, 0},
		{"draft hidden by the filter", all, w.Draft.ID, published, signflow.ENOTFOUND, 0},
		{"draft without the filter", all, w.Draft.ID, signflow.TemplateFilter{}, "", 0},
		{"without the scope", &noScope, w.Template.ID, published, signflow.EFORBIDDEN, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := w.Service.Template(tc.a, tc.id, tc.f)
			if signflow.ErrorCode(err) != tc.code {
				t.Fatalf("code %q, want %q (%v)", signflow.ErrorCode(err), tc.code, err)
			}
			if err == nil && (got.ID != tc.id || len(got.Fields) != tc.fields) {
				t.Fatalf("template %s with %d fields", got.ID, len(got.Fields))
			}
		})
	}
}

// A contract view names no client for a party that is not registered.
func TestContractViewOfUnregisteredParty(t *testing.T) {
	w := fixture.NewStandard(t)
	a := w.Access(t, w.AppA)
	c, err := w.Service.CreateContract(a, &signflow.ContractInput{TemplateID: w.Template.ID, BuyerIN: fixture.UnknownIN}, signflow.Actor{})
	if err != nil {
		t.Fatal(err)
	}
	v, err := w.Service.Contract(a, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if v.Buyer != nil || v.Seller == nil || v.Seller.IN != fixture.OwnerIN {
		t.Fatalf("buyer %+v, seller %+v", v.Buyer, v.Seller)
	}
}
