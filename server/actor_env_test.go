package server_test

import (
	"strings"
	"testing"

	"contracts/server"
	"contracts/signflow"
)

// Every interface records the caller in the audit trail the same way: a
// long user agent is cut to server.MaxUserAgent bytes on the embedded and
// the key interface as on the signing page and in the cabinet.
func TestAuditActorIsTheSameOnEveryInterface(t *testing.T) {
	e := newTenancy(t)
	appA, _ := e.alphaAndBeta()
	keyA := e.apiKey(ownerA)
	ua := strings.Repeat("Mozilla/5.0 ", 200)
	body := func() map[string]any {
		return map[string]any{"templateId": e.template, "buyerIn": personN, "price": 1500, "currency": "UZS"}
	}
	emb := e.ok(e.send(e.embClient, "POST", e.embedded.URL+"/v1/contracts", body(), "Authorization", "Bearer "+appA, "User-Agent", ua), "embedded")
	b := body()
	b["price"] = 150000
	key := e.ok(e.send(e.keyClient, "POST", e.key.URL+"/v1/contracts", b, "X-API-Key", keyA, "User-Agent", ua), "key")
	for name, id := range map[string]any{"embedded": emb["id"], "key": key["id"]} {
		events, err := e.w.Service.AuditTrail(id.(string))
		if err != nil || len(events) == 0 {
			t.Fatalf("%s: %v", name, err)
		}
		if ev := events[0]; ev.Type != signflow.EventCreated || len(ev.UserAgent) != server.MaxUserAgent || !strings.HasPrefix(ua, ev.UserAgent) {
			t.Errorf("%s: %s with a user agent of %d bytes", name, ev.Type, len(ev.UserAgent))
		}
	}
}
