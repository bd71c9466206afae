package embedded

import (
	"strings"
	"sync"
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// The read answer kept for the next readers follows every change of what
// it shows (the contract, the owner's phone; names as the contract's
// change recorded them), and a kept answer is still refused to a reader
// of another tenant.
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

	fixture.MustOwner(t, e.Service, &signflow.Client{IN: fixture.OwnerIN, Type: signflow.ClientCompany, LegalName: "Alpha Renamed MChJ", Phone: "998712000009"})
	get(tokA, 200, `"legalName":"Alpha Savdo MChJ"`, `"phone":"998712000009"`)

	if r := e.do("POST", "/v1/contracts/"+id+"/cancel", tokA, nil); r.Status != 200 {
		t.Fatalf("cancel: %d %s", r.Status, r)
	}
	get(tokA, 200, `"status":"CANCELLED"`, `"version":2`, `"legalName":"Alpha Renamed MChJ"`, `"phone":"998712000009"`)
	get(tokB, 403)
}

// Once its answer is kept and nothing has been written since, a read opens
// no transaction at all, yet every check still holds: an app of the owner
// limited to another template and an app of another tenant are refused,
// an unknown id is 404, and a cancelled app's token stops at once.
func TestKeptAnswerNeedsNoTransaction(t *testing.T) {
	e := newEnv(t, 0)
	limited := fixture.MustCredential(t, e.Service.CreateApp, &signflow.CredentialInput{Name: "Limited app", OwnerIN: fixture.OwnerIN,
		Scopes: signflow.AppScopes, TemplateIDs: []string{e.Other.ID}})
	tokA, tokB, tokL := e.token(e.AppA), e.token(e.AppB), e.token(limited)
	id := e.createContract(tokA, map[string]any{"templateId": e.Template.ID, "buyerIn": fixture.CustomerIN})
	get := func(tok, id string, status int) {
		t.Helper()
		if r := e.do("GET", "/v1/contracts/"+id, tok, nil); r.Status != status {
			t.Fatalf("GET %s: %d %s, want %d", id, r.Status, r, status)
		}
	}
	get(tokA, id, 200) // keeps the answer
	get(tokA, id, 200) // the app is in its cache now
	before := e.DB.Bolt().Stats().TxN
	get(tokA, id, 200)
	if n := e.DB.Bolt().Stats().TxN - before; n != 0 {
		t.Fatalf("a kept answer opened %d read transactions, want none", n)
	}
	for range 2 {
		get(tokB, id, 403)
		get(tokL, id, 403)
		get(tokA, "019a0000-0000-7000-8000-000000000000", 404)
	}
	if err := e.Service.CancelApp(e.AppA.ID); err != nil {
		t.Fatal(err)
	}
	get(tokA, id, 403) // "The app is cancelled."
}

// While readers keep the answers of contracts fresh and creates commit
// beside them, a read that follows a cancel never answers the contract as
// it was before: a kept answer outlives other contracts' writes only.
func TestKeptAnswersUnderWrites(t *testing.T) {
	e := newEnv(t, 0)
	tok := e.token(e.AppA)
	ids := make([]string, 6)
	for i := range ids {
		ids[i] = e.createContract(tok, map[string]any{"templateId": e.Template.ID, "buyerIn": fixture.CustomerIN})
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for g := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := g; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				if i%4 == 0 {
					e.createContract(tok, map[string]any{"templateId": e.Template.ID, "buyerIn": fixture.CustomerIN})
				} else if r := e.do("GET", "/v1/contracts/"+ids[i%len(ids)], tok, nil); r.Status != 200 {
					t.Errorf("GET: %d %s", r.Status, r)
				}
			}
		}()
	}
	for _, id := range ids {
		if r := e.do("POST", "/v1/contracts/"+id+"/cancel", tok, nil); r.Status != 200 {
			t.Fatalf("cancel: %d %s", r.Status, r)
		}
		for range 3 {
			if r := e.do("GET", "/v1/contracts/"+id, tok, nil); !strings.Contains(r.String(), `"status":"CANCELLED"`) {
				t.Errorf("read after the cancel: %s", r)
			}
		}
	}
	close(stop)
	wg.Wait()
}
