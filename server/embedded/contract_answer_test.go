package embedded

import (
	"strings"
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// The read answer kept for the next readers follows every change of what
// it shows (the contract, the owner's record), and a kept answer is still
// refused to a reader of another tenant.
func TestContractAnswerFollowsChanges(t *testing.T) {
	e := newEnv(t, 0)
	tokA, tokB := e.token(e.AppA), e.token(e.AppB)
	id := e.createContract(tokA, map[string]any{"templateId": e.Template.ID, "buyerIn": fixture.CustomerIN})
	get := func(tok string, status int, want ...string) string {
		t.Helper()
		r := e.do("GET", "/v1/contracts/"+id, tok, nil)
		if r.Status != status {
			t.Fatalf("GET: %d %s, want %d", r.Status, r, status)
		}
		for _, w := range want {
			if !strings.Contains(r.String(), w) {
				t.Fatalf("GET: %s, want %s in it", r, w)
			}
		}
		return r.String()
	}
	first := get(tokA, 200, `"status":"CREATED"`, `"legalName":"Alpha Savdo MChJ"`)
	if again := get(tokA, 200); again != first {
		t.Fatalf("the second read differs:\n%s\n%s", first, again)
	}
	get(tokB, 403)
	get(tokB, 403)

	fixture.MustOwner(t, e.Service, &signflow.Client{IN: fixture.OwnerIN, Type: signflow.ClientCompany, LegalName: "Alpha Renamed MChJ", Phone: "998712000000"})
	get(tokA, 200, `"legalName":"Alpha Renamed MChJ"`)

	if r := e.do("POST", "/v1/contracts/"+id+"/cancel", tokA, nil); r.Status != 200 {
		t.Fatalf("cancel: %d %s", r.Status, r)
	}
	get(tokA, 200, `"status":"CANCELLED"`, `"version":2`, `"legalName":"Alpha Renamed MChJ"`)
	get(tokB, 403)
}
