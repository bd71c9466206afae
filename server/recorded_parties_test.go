package server_test

import (
	"encoding/json"
	"html"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"contracts/internal/apitest"
	"contracts/signflow"
)

// The review's sixth finding: after the buyer signed, the app registered
// the buyer again with midName "Hacked", and the verify page showed "Test
// Olim Hacked" while the sealed PDF of the same version said "Test Olim".
// Pages now show the parties as the version recorded them. And a
// counterparty's tenant no longer sees another owner's admin phone in
// buyer.phone: a phone is shown only to the tenant that holds it. The read
// answers of both interfaces show the recorded parties as well.
func TestPartiesAsRecordedAndPhonesToTheirHolder(t *testing.T) {
	e := newTenancy(t)
	appA, appB := e.alphaAndBeta()
	e.ok(e.emb(appA, "POST", "/v1/clients", person(personN, "Olim", "Test", realPh)), "A registers the buyer")
	id := e.contract(appA, map[string]any{"buyerIn": personN})
	_, tok := e.session(appA, id, personN)
	if r := e.page(tok, "code", nil); r.Status != 200 {
		t.Fatalf("code: %d %s", r.Status, r.Body)
	}
	if r := e.page(tok, "confirm", map[string]any{"code": e.codeTo(realPh)}); r.Status != 200 {
		t.Fatalf("the buyer signs: %d %s", r.Status, r.Body)
	}
	// The read answers of both interfaces show the buyer as the version
	// recorded them too (with the phone A holds now).
	keyA := e.apiKey(ownerA)
	buyers := func() []string {
		var out []string
		for _, r := range []apitest.Reply{e.emb(appA, "GET", "/v1/contracts/"+id, nil),
			e.keyCall(keyA, "GET", "/v1/contracts/"+id, nil), e.keyCall(keyA, "GET", "/v1/contracts?size=100", nil)} {
			got := e.ok(r, "A reads")
			if items, ok := got["content"].([]any); ok {
				got = nil
				for _, it := range items {
					if it.(map[string]any)["id"] == id {
						got = it.(map[string]any)
					}
				}
			}
			b, err := json.Marshal(got["buyer"])
			if err != nil || !strings.Contains(string(b), `"lastName":"Test"`) {
				t.Fatalf("the buyer in A's answer: %s %v", b, err)
			}
			out = append(out, string(b))
		}
		return out
	}
	before := buyers()
	hacked := person(personN, "Olim", "Test", realPh)
	hacked["midName"], hacked["legalName"] = "Hacked", "Hacked"
	if got := e.ok(e.emb(appA, "POST", "/v1/clients", hacked), "A registers the buyer again"); got["midName"] != "Hacked" {
		t.Fatalf("the claim was not filled: %v", got)
	}
	if after := buyers(); !reflect.DeepEqual(after, before) {
		t.Fatalf("the answers' buyer follows the live record:\n%v\n%v", before, after)
	}
	var c *signflow.Contract
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(e.w.Store.View(func(tx signflow.Tx) (err error) { c, err = tx.Contract(id); return err }))
	page := e.send(http.DefaultClient, "GET", signflow.VerifyURL(e.embedded.URL, c)+"&lang=en", nil)
	if body := html.UnescapeString(page.Body); page.Status != 200 || strings.Contains(body, "Hacked") || !strings.Contains(body, "Olim") {
		t.Fatalf("the verify page: %d, shows Hacked: %v", page.Status, strings.Contains(body, "Hacked"))
	}

	// B's contract with X, an individual owner: B does not hold X's phone.
	e.owner(map[string]any{"in": personX, "firstName": "Olim", "lastName": "Test", "phone": ownerXPh})
	appX := e.app(personX)
	idB := e.contract(appB, map[string]any{"buyerIn": personX})
	if got := e.ok(e.emb(appB, "GET", "/v1/contracts/"+idB, nil), "B reads")["buyer"].(map[string]any); got["phone"] != nil {
		t.Fatalf("B sees X's admin phone: %v", got)
	}
	if got := e.ok(e.emb(appX, "GET", "/v1/contracts/"+idB, nil), "X reads")["buyer"].(map[string]any); got["phone"] != ownerXPh {
		t.Fatalf("X does not see its own phone: %v", got)
	}
	keyB := e.apiKey(ownerB)
	for _, path := range []string{"/v1/contracts", "/v1/contracts/" + idB} {
		if r := e.keyCall(keyB, "GET", path, nil); r.Status != 200 || strings.Contains(r.Body, ownerXPh) {
			t.Fatalf("B's key reads X's admin phone in %s: %d", path, r.Status)
		}
	}
	// A holds the phone of its own client.
	if got := e.ok(e.emb(appA, "GET", "/v1/contracts/"+id, nil), "A reads")["buyer"].(map[string]any); got["phone"] != realPh {
		t.Fatalf("A does not see the phone it holds: %v", got)
	}
}
