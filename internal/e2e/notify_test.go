package e2e

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestLinksBySMSThroughTheAppliance: on a running appliance, notify: SMS
// texts the session's link through the configured provider (the console
// one here), and the key interface's create texts an invitation to the
// cabinet at key.baseURL in the request's language; an Idempotency-Key
// repeat of the create texts nothing again.
func TestLinksBySMSThroughTheAppliance(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	in := startInstance(t, dir, data, "CONTRACTS_KEY__BASEURL=https://key.example")
	recv := newSignedReceiver(t)
	p := provision(t, in, recv.URL+"/hook")

	id := createContract(t, in, p)
	var s struct{ URL, NotifiedAt string }
	mustCall(t, "POST", in.embedded+"/v1/contracts/"+id+"/sign-sessions",
		jsonBody(map[string]string{"signerIn": loadCustomerIN, "lang": "en", "notify": "SMS"}), &s, "Authorization", "Bearer "+p.token)
	if s.NotifiedAt == "" {
		t.Fatal("no notifiedAt")
	}
	waitSMS(t, in, "Sign contract No. ", s.URL)

	body := jsonBody(map[string]any{"templateId": p.templateID, "buyerIn": loadCustomerIN, "price": 100, "notify": "SMS", "lang": "ru"})
	for range 2 {
		req, _ := http.NewRequest("POST", in.key+"/v1/contracts", strings.NewReader(string(body)))
		req.Header.Set("X-API-Key", p.apiKey)
		req.Header.Set("Idempotency-Key", "invite-1")
		res, err := http.DefaultClient.Do(req)
		if err != nil || res.StatusCode != 200 {
			t.Fatalf("create: %v %v", res, err)
		}
		res.Body.Close()
	}
	waitSMS(t, in, "Alpha Savdo MChJ направил вам договор", "https://key.example/cabinet?lang=ru")
	invites := 0
	for _, text := range smsTo(in, customerPhone) {
		if strings.Contains(text, "/cabinet?lang=ru") {
			invites++
		}
	}
	if invites != 1 {
		t.Fatalf("%d invitations for one create sent twice with one Idempotency-Key", invites)
	}
}

// waitSMS waits for a text to the customer holding every part.
func waitSMS(t *testing.T, in *instance, parts ...string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		for _, text := range smsTo(in, customerPhone) {
			all := true
			for _, p := range parts {
				all = all && strings.Contains(text, p)
			}
			if all {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no SMS to the customer with %q; sent: %q", parts, smsTo(in, customerPhone))
		}
		time.Sleep(10 * time.Millisecond)
	}
}
