package embedded

import (
	"testing"

	"contracts/internal/apitest"
	"contracts/internal/fixture"
)

// The review's parentOrigins reached frame-ancestors as text; each is now
// refused, and an accepted one comes back rebuilt from its parts.
func TestParentOriginParsed(t *testing.T) {
	e := newEnv(t, 0)
	tok := e.token(e.AppA)
	id := e.createContract(tok, map[string]any{"templateId": e.Template.ID, "buyerIn": fixture.CustomerIN})
	path := "/v1/contracts/" + id + "/sign-sessions"
	var cases []apitest.Scenario
	for _, bad := range []string{"https://*", "https://a.example;sandbox", "https://a.example,https:", "https://'none'",
		"https://*.example", "http://shop.example", "http://10.0.0.1", "https://a.example/page", "https://a.example:0",
		"https://a.example:99999", "https://a.example:", `https://a"b.example`, "https://a.example ", "ftp://a.example",
		"https://user@a.example", "https://a.example?x", "https://[::1", "https://a..example"} {
		cases = append(cases, apitest.Scenario{Name: bad, Method: "POST", Path: path, As: tok,
			Body: map[string]any{"signerIn": fixture.CustomerIN, "parentOrigin": bad}, Status: 400, Want: []string{"parentOrigin"}})
	}
	for _, good := range []string{"https://Shop.Example:8443", "http://localhost:3000", "http://127.0.0.1:8080", "https://[::1]:9443"} {
		cases = append(cases, apitest.Scenario{Name: good, Method: "POST", Path: path, As: tok,
			Body: map[string]any{"signerIn": fixture.CustomerIN, "parentOrigin": good}, Status: 200})
	}
	apitest.Run(t, e.api, cases)
}
