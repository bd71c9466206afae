package signflow_test

import (
	"strings"
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// Provisioning through the admin API (its refusals, secrets never kept in
// clear) is checked by server/admin/admin_test.go (TestAdminRefusals,
// TestAdminStoresNoSecretInClear); here, provision.go's rules for a new
// app or key, and that a refused one is not kept.
func TestCredentialInputRules(t *testing.T) {
	w := fixture.NewStandard(t)
	good := func() *signflow.CredentialInput {
		return &signflow.CredentialInput{Name: "Shop", OwnerIN: fixture.OwnerIN, Scopes: signflow.AppScopes, AllTemplates: true}
	}
	before, err := w.Service.Apps()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		change func(*signflow.CredentialInput)
		want   string
	}{
		{func(in *signflow.CredentialInput) { in.Name = "" }, "name: required"},
		{func(in *signflow.CredentialInput) { in.Name = strings.Repeat("n", 201) }, "name: required"},
		{func(in *signflow.CredentialInput) { in.OwnerIN = "31234567890123" }, "ownerIn: no owner"},
		{func(in *signflow.CredentialInput) { in.Scopes = nil }, "scopes: at least one"},
		{func(in *signflow.CredentialInput) { in.Scopes = []string{"ADMIN"} }, `scopes: unknown scope "ADMIN"`},
		{func(in *signflow.CredentialInput) { in.AllTemplates = false }, "templateIds: required"},
		{func(in *signflow.CredentialInput) { in.AllTemplates, in.TemplateIDs = false, []string{"nope"} }, `templateIds: no template "nope"`},
		{func(in *signflow.CredentialInput) { in.WebhookEvents = []string{"CONTRACT_EATEN"} }, `webhookEvents: unknown event`},
	} {
		in := good()
		tc.change(in)
		if _, err := w.Service.CreateApp(in); signflow.ErrorCode(err) != signflow.EINVALID || !strings.HasPrefix(signflow.ErrorMessage(err), tc.want) {
			t.Errorf("%+v: %v, want %q", in, err, tc.want)
		}
	}
	if after, err := w.Service.Apps(); err != nil || len(after) != len(before) {
		t.Fatalf("refused apps were kept: %d apps before, %d after (%v)", len(before), len(after), err)
	}
	if cred, err := w.Service.CreateApp(good()); err != nil || cred.ID == "" || cred.Secret == "" {
		t.Fatalf("a good app: %+v, %v", cred, err)
	}
}
