package e2e

import (
	"net/http"
	"path/filepath"
	"strconv"
	"testing"

	"contracts/signflow"
	"contracts/storage"
)

// TestAbuseForwardedFor: behind a reverse proxy listed in
// http.trustedProxies, each client has its own rate-limit budget and is
// the address the audit trail and the access log record; from any other
// peer X-Forwarded-For is a spoof that changes nothing.
func TestAbuseForwardedFor(t *testing.T) {
	dir := t.TempDir()
	dataDir := filepath.Join(dir, "data")
	in := startInstance(t, dir, dataDir, "CONTRACTS_RATELIMIT__TOKENPERMINUTE=2", "CONTRACTS_HTTP__TRUSTEDPROXIES=127.0.0.1")
	p := provision(t, in, "")
	proxy, stranger := clientFrom("127.0.0.1"), clientFrom("127.0.0.2")
	guesses := 0
	guess := func(c *http.Client, client string) int { // each of another app id, so that only the address's budget counts
		guesses++
		return call(t, c, "POST", in.embedded+"/v1/auth/token", jsonBody(map[string]any{"appId": "guess-" + strconv.Itoa(guesses),
			"appSecret": "x"}), nil, "X-Forwarded-For", client)
	}

	t.Run("each client behind the proxy has its own budget", func(t *testing.T) {
		for i, want := range []int{401, 401, 429} {
			if got := guess(proxy, "203.0.113.1"); got != want {
				t.Fatalf("guess %d of one client: %d, want %d", i, got, want)
			}
		}
		if got := guess(proxy, "203.0.113.2"); got != 401 {
			t.Fatalf("another client behind the same proxy: %d", got)
		}
	})
	t.Run("another peer's X-Forwarded-For is not believed", func(t *testing.T) {
		for i, want := range []int{401, 401, 429} { // a new address each time does not escape the peer's budget
			if got := guess(stranger, "198.51.100."+strconv.Itoa(i+1)); got != want {
				t.Fatalf("guess %d: %d, want %d", i, got, want)
			}
		}
	})

	// Writes through the proxy and from the stranger, each naming a client.
	bearer := []string{"Authorization", "Bearer " + p.token}
	create := func(c *http.Client, base string, client string, auth []string, body []byte) string {
		var out struct{ ID string }
		if s := call(t, c, "POST", base+"/v1/contracts", body, &out, append(auth, "X-Forwarded-For", client)...); s != 200 {
			t.Fatalf("create as %s: %d", client, s)
		}
		return out.ID
	}
	viaEmbedded := create(proxy, in.embedded, "203.0.113.7", bearer, p.contractBody())
	viaKey := create(proxy, in.key, "203.0.113.8", []string{"X-API-Key", p.apiKey}, jsonBody(map[string]any{
		"templateId": p.templateID, "buyerIn": loadCustomerIN, "price": 150000}))
	spoofed := create(stranger, in.embedded, "203.0.113.9", bearer, p.contractBody())
	if s := call(t, proxy, "POST", in.embedded+"/v1/contracts/"+viaEmbedded+"/sign-sessions",
		jsonBody(map[string]string{"signerIn": loadCustomerIN}), nil, append(bearer, "X-Forwarded-For", "203.0.113.10")...); s != 200 {
		t.Fatalf("open a session: %d", s)
	}
	in.stop(t)

	logged := map[string]bool{}
	for _, l := range logLines(in.stderr.String(), "request") {
		if l["route"] == "/v1/contracts" || l["route"] == "/v1/auth/token" {
			logged[l["ip"].(string)] = true
		}
	}
	for _, ip := range []string{"203.0.113.1", "203.0.113.2", "203.0.113.7", "203.0.113.8", "127.0.0.2"} {
		if !logged[ip] {
			t.Errorf("the access log lacks client %s: %v", ip, logged)
		}
	}
	for _, ip := range []string{"198.51.100.1", "203.0.113.9"} {
		if logged[ip] {
			t.Errorf("the access log believed the stranger's %s", ip)
		}
	}

	db, err := storage.Open(filepath.Join(dataDir, "contracts.db"), storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	want := map[string]map[string]string{
		viaEmbedded: {signflow.EventCreated: "203.0.113.7", signflow.AuditSessionOpened: "203.0.113.10"},
		viaKey:      {signflow.EventCreated: "203.0.113.8"},
		spoofed:     {signflow.EventCreated: "127.0.0.2"},
	}
	for id, events := range want {
		var audit []*signflow.AuditEvent
		if err := db.View(func(tx signflow.Tx) (err error) { audit, err = tx.AuditEvents(id); return err }); err != nil {
			t.Fatal(err)
		}
		for typ, ip := range events {
			found := false
			for _, e := range audit {
				if e.Type == typ {
					found = true
					if e.IP != ip {
						t.Errorf("%s of %s recorded %s, want %s", typ, id, e.IP, ip)
					}
				}
			}
			if !found {
				t.Errorf("no %s event for %s", typ, id)
			}
		}
	}
}
