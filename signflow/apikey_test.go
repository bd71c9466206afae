package signflow_test

import (
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// A key is usable until it is revoked or its expiry instant comes; the
// key interface then refuses it as an unknown key.
func TestAPIKeyUsable(t *testing.T) {
	at := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	for _, sc := range []struct {
		name string
		key  signflow.APIKey
		now  time.Time
		want string
	}{
		{"no expiry", signflow.APIKey{}, at, ""},
		{"before its expiry", signflow.APIKey{ExpiresAt: &at}, at.Add(-time.Nanosecond), ""},
		{"at its expiry", signflow.APIKey{ExpiresAt: &at}, at, "The API key has expired."},
		{"revoked", signflow.APIKey{Revoked: true}, at, "The API key is revoked."},
		{"revoked and expired", signflow.APIKey{Revoked: true, ExpiresAt: &at}, at, "The API key is revoked."},
	} {
		t.Run(sc.name, func(t *testing.T) {
			if err := sc.key.Usable(sc.now); sc.want == "" && err != nil {
				t.Fatalf("Usable: %v", err)
			} else if sc.want != "" {
				wantCode(t, err, signflow.EFORBIDDEN, sc.want)
			}
		})
	}

	w := fixture.NewStandard(t)
	expires := w.Clock.Now().Add(time.Hour)
	k := fixture.MustCredential(t, w.Service.CreateKey, &signflow.CredentialInput{Name: "Expiring", OwnerIN: fixture.OwnerIN,
		Scopes: signflow.KeyScopes, AllTemplates: true, ExpiresAt: &expires})
	if _, err := w.Service.AuthenticateKey(k.Secret); err != nil {
		t.Fatalf("a usable key: %v", err)
	}
	w.Clock.Advance(time.Hour)
	if _, err := w.Service.AuthenticateKey(k.Secret); signflow.ErrorCode(err) != signflow.EUNAUTHORIZED {
		t.Fatalf("an expired key: %v, want EUNAUTHORIZED", err)
	}
	fixture.Must(t, func() error { return w.Service.RevokeKey(w.KeyA.ID) })
	if _, err := w.Service.AuthenticateKey(w.KeyA.Secret); signflow.ErrorCode(err) != signflow.EUNAUTHORIZED {
		t.Fatalf("a revoked key: %v, want EUNAUTHORIZED", err)
	}
}

// A key sees what its Access may read: its owner a party, the template
// within its templates; an owner named only as a witness sees nothing.
func TestAPIKeyCanSeeIsCanRead(t *testing.T) {
	c := &signflow.Contract{BuyerIN: "31234567890123", SellerIN: "301234567", TemplateID: "t1",
		Witnesses: []signflow.Witness{{IN: "309876543"}}}
	for _, sc := range []struct {
		name string
		key  signflow.APIKey
		want bool
	}{
		{"seller, every template", signflow.APIKey{OwnerIN: "301234567", AllTemplates: true}, true},
		{"buyer, its template", signflow.APIKey{OwnerIN: "31234567890123", TemplateIDs: []string{"t0", "t1"}}, true},
		{"seller, another template", signflow.APIKey{OwnerIN: "301234567", TemplateIDs: []string{"t2"}}, false},
		{"witness", signflow.APIKey{OwnerIN: "309876543", AllTemplates: true}, false},
		{"stranger", signflow.APIKey{OwnerIN: "305555555", AllTemplates: true}, false},
	} {
		t.Run(sc.name, func(t *testing.T) {
			if got, read := sc.key.CanSee(c), sc.key.Access().CanRead(c) == nil; got != sc.want || read != sc.want {
				t.Fatalf("CanSee %v, CanRead %v, want %v", got, read, sc.want)
			}
		})
	}
}
