package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/server/document"
	"contracts/signflow"
	"contracts/webhooks"
)

// Witnesses of owner X's contracts, as X registers them.
var witnessPeople = []struct{ in, first, last, phone string }{
	{"41111111111121", "Guli", "Saidova", "998907000001"},
	{"41111111111122", "Bobur", "Aliyev", "998907000002"},
}

// witnessWorld is the tenancy appliance with an individual owner X (so
// that both parties sign with SMS codes), its app with a webhook to a real
// receiver, a two-witness template, the buyer N and two witnesses
// registered by X.
type witnessWorld struct {
	*tenancy
	appX, keyX, template string
	witnessIDs           []string
	mu                   sync.Mutex
	hooks                map[string][]string // contract id -> "event actorIn", as received
}

func newWitnessWorld(t *testing.T) *witnessWorld {
	e := &witnessWorld{tenancy: newTenancy(t), hooks: map[string][]string{}}
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var b signflow.WebhookBody
		data, _ := io.ReadAll(r.Body)
		if json.Unmarshal(data, &b) == nil {
			e.mu.Lock()
			e.hooks[b.ContractID] = append(e.hooks[b.ContractID], b.Event+" "+b.ActorIN)
			e.mu.Unlock()
		}
	}))
	t.Cleanup(recv.Close)
	pool, err := webhooks.New(e.w.DB, e.w.Box, nil, fixture.Webhooks(webhooks.Options{Clock: webhooks.NewFakeClock(e.w.Clock.Now()), AttemptTimeout: 2 * time.Second}))
	if err != nil {
		t.Fatal(err)
	}
	e.w.DB.OnDeliveryAdded(pool.Wake)
	pool.Start()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		pool.Shutdown(ctx)
	})
	e.owner(map[string]any{"in": personX, "type": "CLIENT", "firstName": "Dilnoza", "lastName": "Rahimova", "phone": ownerXPh})
	a := e.adminPost("/admin/v1/apps", map[string]any{"name": "X shop", "ownerIn": personX, "scopes": signflow.AppScopes,
		"allTemplates": true, "webhookUrl": recv.URL + "/hook"})
	e.appX = e.ok(e.send(e.embClient, "POST", e.embedded.URL+"/v1/auth/token", map[string]any{"appId": a["appId"], "appSecret": a["appSecret"]}),
		"token")["accessToken"].(string)
	e.keyX = e.apiKey(personX)
	r := e.send(http.DefaultClient, "POST", e.admin.URL+"/admin/v1/templates", fixture.TemplateYAML+"witnessEnabled: true\nwitnessCount: 2\n",
		"Authorization", "Bearer "+adminToken, "Content-Type", "application/yaml")
	e.template = e.ok(r, "template")["id"].(string)
	e.ok(e.emb(e.appX, "POST", "/v1/clients", person(personN, "Aziz", "Karimov", realPh)), "X registers the buyer")
	for _, p := range witnessPeople {
		c := e.ok(e.emb(e.appX, "POST", "/v1/clients", person(p.in, p.first, p.last, p.phone)), "X registers a witness")
		e.witnessIDs = append(e.witnessIDs, c["id"].(string))
	}
	return e
}

func (e *witnessWorld) create(ids ...string) string {
	e.t.Helper()
	r := e.emb(e.appX, "POST", "/v1/contracts", map[string]any{"templateId": e.template, "buyerIn": personN, "price": 1500,
		"currency": "UZS", "witnessIds": ids})
	return e.ok(r, "create")["id"].(string)
}

// waitHooks waits until the receiver has n webhooks of the contract.
func (e *witnessWorld) waitHooks(id string, n int) []string {
	e.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		e.mu.Lock()
		got := append([]string(nil), e.hooks[id]...)
		e.mu.Unlock()
		if len(got) >= n || time.Now().After(deadline) {
			return got
		}
		time.Sleep(20 * time.Millisecond) // waiting for the real receiver, not for the clock
	}
}

// A two-witness contract through the HTTP interfaces, in both orders:
// each signature through the signing page with the code the SMS gateway
// delivered to the phone X holds for the signer; ACTIVE with the fourth;
// the webhooks arrive in order; the read answers and the PDF in every
// language show the witnesses.
func TestWitnessesSignThroughTheInterfaces(t *testing.T) {
	e := newWitnessWorld(t)
	type signer struct{ in, phone string }
	buyer, seller := signer{personN, realPh}, signer{personX, ownerXPh}
	w1, w2 := signer{witnessPeople[0].in, witnessPeople[0].phone}, signer{witnessPeople[1].in, witnessPeople[1].phone}
	for name, order := range map[string][]signer{"parties first": {buyer, seller, w1, w2}, "witnesses first": {w1, w2, buyer, seller}} {
		t.Run(name, func(t *testing.T) {
			e.t = t
			id := e.create(e.witnessIDs...)
			got := e.ok(e.emb(e.appX, "GET", "/v1/contracts/"+id, nil), "read")
			ws := got["witnesses"].([]any)
			if len(ws) != 2 {
				t.Fatalf("witnesses %v", got["witnesses"])
			}
			for i, w := range ws {
				m := w.(map[string]any)
				if m["id"] != e.witnessIDs[i] || m["in"] != witnessPeople[i].in || m["lastName"] != witnessPeople[i].last ||
					m["status"] != "PENDING" || m["signedAt"] != nil || m["phone"] != nil {
					t.Fatalf("witness %d: %v", i, m)
				}
			}
			for i, s := range order {
				e.signOnPage(e.appX, id, s.in, s.phone)
				want := "CREATED"
				if i == 3 {
					want = "ACTIVE"
				}
				if st := e.ok(e.emb(e.appX, "GET", "/v1/contracts/"+id, nil), "read")["status"]; st != want {
					t.Fatalf("after %d signatures: %v, want %s", i+1, st, want)
				}
			}
			var wantHooks []string
			wantHooks = append(wantHooks, "CONTRACT_CREATED "+personX)
			for _, s := range order {
				wantHooks = append(wantHooks, "CONTRACT_SIGNED "+s.in)
			}
			wantHooks = append(wantHooks, "CONTRACT_ACTIVE "+order[3].in)
			if hooks := e.waitHooks(id, len(wantHooks)); fmt.Sprint(hooks) != fmt.Sprint(wantHooks) {
				t.Fatalf("webhooks %v, want %v", hooks, wantHooks)
			}
			// The key interface shows the witnesses signed, in its list too.
			k := e.ok(e.keyCall(e.keyX, "GET", "/v1/contracts/"+id, nil), "key read")
			for _, w := range k["witnesses"].([]any) {
				if m := w.(map[string]any); m["status"] != "ACCEPTED" || m["signedAt"] == nil {
					t.Fatalf("key read witness %v", m)
				}
			}
			list := e.ok(e.keyCall(e.keyX, "GET", "/v1/contracts?size=50", nil), "key list")
			found := false
			for _, item := range list["content"].([]any) {
				if m := item.(map[string]any); m["id"] == id {
					found = len(m["witnesses"].([]any)) == 2
				}
			}
			if !found {
				t.Fatalf("list item of %s lacks its witnesses", id)
			}
			for _, lang := range signflow.Languages {
				text := e.pdfText(e.appX, id, lang)
				words := document.Words(lang)
				for _, want := range []string{words["witness.role"], "Saidova Guli", "Aliyev Bobur", witnessPeople[1].in,
					words["witness.role"] + " (Saidova Guli)", flat(words["party.ACCEPTED"])} {
					if !strings.Contains(text, flat(want)) {
						t.Errorf("PDF (%s) lacks %q", lang, want)
					}
				}
			}
		})
	}
}

// The refusals, through both interfaces: ids the creator does not hold, a
// duplicate, a party as its own witness; a witness's rejection; another
// tenant's session for a witness.
func TestWitnessRefusalsThroughTheInterfaces(t *testing.T) {
	e := newWitnessWorld(t)
	appA, _ := e.alphaAndBeta()
	foreign := e.ok(e.emb(appA, "POST", "/v1/clients", person("41111111111129", "Other", "Tenant", "998907000009")), "A registers")["id"].(string)
	buyerID := e.ok(e.emb(e.appX, "GET", "/v1/clients/"+personN, nil), "buyer")["id"].(string)
	unknown := signflow.NewID()
	for _, tc := range []struct {
		name string
		ids  []string
		want string
	}{
		{"unknown id", []string{e.witnessIDs[0], unknown}, unknown},
		{"another tenant's client", []string{foreign, e.witnessIDs[0]}, foreign},
		{"given twice", []string{e.witnessIDs[1], e.witnessIDs[1]}, e.witnessIDs[1]},
		{"a party as witness", []string{e.witnessIDs[0], buyerID}, buyerID},
	} {
		body := map[string]any{"templateId": e.template, "buyerIn": personN, "currency": "UZS", "witnessIds": tc.ids}
		body["price"] = 1500
		if r := e.emb(e.appX, "POST", "/v1/contracts", body); r.Status != 400 || !strings.Contains(r.Body, tc.want) {
			t.Errorf("embedded, %s: %d %s", tc.name, r.Status, r.Body)
		}
		body["price"] = 150000
		if r := e.keyCall(e.keyX, "POST", "/v1/contracts", body); r.Status != 400 || !strings.Contains(r.Body, tc.want) {
			t.Errorf("key, %s: %d %s", tc.name, r.Status, r.Body)
		}
	}
	if list := e.ok(e.keyCall(e.keyX, "GET", "/v1/contracts", nil), "list"); list["totalElements"].(float64) != 0 {
		t.Fatalf("refused creates stored contracts: %v", list["totalElements"])
	}
	id := e.create(e.witnessIDs...)
	sent := len(e.sentTo())
	// Another tenant cannot open a session for X's witness.
	if r, _ := e.session(appA, id, witnessPeople[0].in); r.Status != 403 {
		t.Fatalf("A's session for X's witness: %d %s", r.Status, r.Body)
	}
	// The witness's page offers no rejection, and the page's API refuses one.
	markup := e.signingMarkup(e.appX, id, witnessPeople[0].in, "uz")
	if strings.Contains(markup, `data-action="reject"`) || !strings.Contains(pageText(markup), "Guvoh") {
		t.Fatal("the witness's signing page offers a rejection or does not name the role")
	}
	_, tok := e.session(e.appX, id, witnessPeople[0].in)
	if r := e.page(tok, "reject", nil); r.Status != 400 || !strings.Contains(r.Body, "witness cannot reject") {
		t.Fatalf("witness rejects: %d %s", r.Status, r.Body)
	}
	if st := e.state(e.appX, id); st != "CREATED buyer PENDING seller PENDING" {
		t.Fatalf("after a refused rejection: %s", st)
	}
	if len(e.sentTo()) != sent {
		t.Fatalf("texts sent: %v", e.sentTo()[sent:])
	}
	// The witness's code goes to the phone X holds for it, and nowhere else.
	if r := e.page(tok, "code", nil); r.Status != 200 {
		t.Fatalf("code: %d %s", r.Status, r.Body)
	}
	if to := e.sentTo(); len(to) != sent+1 || to[sent] != witnessPeople[0].phone {
		t.Fatalf("code sent to %v", to[sent:])
	}
}
