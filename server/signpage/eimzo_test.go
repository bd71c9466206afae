package signpage_test

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"contracts/internal/apitest"
	"contracts/internal/fixture"
	"contracts/server/signpage"
	"contracts/signflow"
	"contracts/signflow/eimzo/eimzotest"
)

// openCompany opens the E_IMZO session of owner A (a company, seller of a
// contract with the customer) and returns the contract, session and URL.
func (e *env) openCompany(t *testing.T, r signflow.SessionRequest) (*signflow.Contract, *signflow.SignSession, string) {
	t.Helper()
	c := e.Contract(t)
	r.SignerIN = fixture.OwnerIN
	sess, token, err := e.Service.OpenSession(e.Access(t, e.AppA), c.ID, r, signflow.Actor{})
	if err != nil {
		t.Fatal(err)
	}
	if sess.Method != signflow.MethodEIMZO {
		t.Fatalf("method %s", sess.Method)
	}
	return c, sess, e.base + "/sign/" + token
}

func pkcs7Body(p7 string) func() string {
	return func() string { b, _ := json.Marshal(map[string]string{"pkcs7": p7}); return string(b) }
}

// The E_IMZO page offers the method with what sign.js needs to reach the
// local client (its websocket, the site's API keys, the content to sign)
// and lets connect-src reach it; other pages do not.
func TestEIMZOPage(t *testing.T) {
	e := newEnvWith(t, envOptions{outside: true, eimzo: signpage.EIMZOClient{APIKeys: map[string]string{"sign.example.uz": "ABC123"}}})
	c, sess, url := e.openCompany(t, signflow.SessionRequest{Lang: "en"})
	r := e.do(t, "GET", url, "")
	body := markup(r.Body)
	if r.Status != 200 || !strings.Contains(body, ">Sign</button>") || !strings.Contains(body, "the E-IMZO app must be running on this computer") ||
		!strings.Contains(body, `<label for="eimzo-key">Signature key</label>`) || !strings.Contains(body, ">Try again</button>") ||
		strings.Contains(body, "not set up") || strings.Contains(body, `id="sms-code"`) {
		t.Fatalf("E_IMZO page %d:\n%s", r.Status, body)
	}
	cfg := config(t, r.Body)
	ez, _ := cfg["eimzo"].(map[string]any)
	keys, _ := ez["apiKeys"].([]any)
	joined := strings.Join(strs(keys), " ")
	if cfg["flow"] != "eimzo" || cfg["signerIn"] != fixture.OwnerIN || cfg["idLabel"] != "TIN" || cfg["sessionId"] != sess.ID ||
		ez["secureUrl"] != signpage.DefaultSecureURL || ez["plainUrl"] != signpage.DefaultPlainURL ||
		ez["data64"] != base64.StdEncoding.EncodeToString([]byte(c.Hash)) || len(keys) != 6 ||
		!strings.Contains(joined, "127.0.0.1 A7BCFA5D") || !strings.Contains(joined, "localhost 96D0C149") || !strings.Contains(joined, "sign.example.uz ABC123") {
		t.Fatalf("config %v", cfg)
	}
	if csp := r.Header.Values("Content-Security-Policy"); len(csp) != 2 || csp[0] != "frame-ancestors *" ||
		!strings.Contains(csp[1], "connect-src 'self' wss://127.0.0.1:64443 ws://127.0.0.1:64646;") {
		t.Fatalf("CSP %q", csp)
	}
	// An SMS page keeps connect-src to its own origin.
	_, otp := e.open(t, e.contract(t).ID, signflow.SessionRequest{SignerIN: fixture.CustomerIN})
	if csp := e.do(t, "GET", otp, "").Header.Values("Content-Security-Policy"); len(csp) != 2 || !strings.Contains(csp[1], "connect-src 'self';") {
		t.Fatalf("SMS page CSP %q", csp)
	}
}

func strs(v []any) []string {
	out := make([]string, len(v))
	for i, x := range v {
		out[i], _ = x.(string)
	}
	return out
}

// POST /sign/<token>/eimzo against the fake E-IMZO server: malformed,
// foreign, tampered and off-document signatures are 400 and change
// nothing; a server failure is 503; the signer's own signature of the
// document hash signs, marks the company verified and closes the session.
func TestEIMZOSignature(t *testing.T) {
	e := newEnvWith(t, envOptions{outside: true})
	c, sess, url := e.openCompany(t, signflow.SessionRequest{Lang: "en"})
	own := eimzotest.Key{TIN: fixture.OwnerIN, CN: "ALPHA SAVDO MCHJ"}
	before := e.snap(t, c.ID, sess.ID, fixture.OwnerIN)
	// refused checks that a refusal changed nothing and that the fake
	// E-IMZO server had got calls requests by then.
	refused := func(calls int) func(*testing.T, apitest.Reply) {
		return func(t *testing.T, _ apitest.Reply) {
			t.Helper()
			if now := e.snap(t, c.ID, sess.ID, fixture.OwnerIN); now != before {
				t.Fatalf("a refusal changed %+v into %+v", before, now)
			}
			if n := len(e.ez.Requests()); n != calls {
				t.Fatalf("the E-IMZO server got %d requests, want %d", n, calls)
			}
		}
	}
	apitest.Run(t, e.page(url), []apitest.Scenario{
		{Name: "no signature", Method: "POST", Path: "/eimzo", Body: "{}", Status: 400, Reason: "signature-refused", Want: []string{"PKCS#7"}, Check: refused(0)},
		{Name: "not base64", Method: "POST", Path: "/eimzo", Body: pkcs7Body("%%% not base64 %%%"), Status: 400, Reason: "signature-refused", Check: refused(0)},
		{Name: "malformed JSON", Method: "POST", Path: "/eimzo", Body: `{"pkcs7":`, Status: 400, Check: refused(0)},
		{Name: "another company's key", Method: "POST", Path: "/eimzo", Body: pkcs7Body(eimzotest.Sign(c.Hash, eimzotest.Key{TIN: fixture.OtherIN, CN: "BETA TRADE"})),
			Status: 400, Reason: "signature-refused", Want: []string{fixture.OtherIN, fixture.OwnerIN}, Check: refused(2)},
		{Name: "an employee's personal number only", Method: "POST", Path: "/eimzo", Body: pkcs7Body(eimzotest.Sign(c.Hash, eimzotest.Key{PINFL: fixture.CustomerIN, CN: "AZIZ"})),
			Status: 400, Reason: "signature-refused", Check: refused(4)},
		{Name: "tampered", Method: "POST", Path: "/eimzo", Body: pkcs7Body(eimzotest.Tamper(eimzotest.Sign(c.Hash, own))), Status: 400, Reason: "signature-refused", Check: refused(6)},
		{Name: "another document", Method: "POST", Path: "/eimzo", Body: pkcs7Body(eimzotest.Sign(strings.Repeat("ab", 32), own)),
			Status: 400, Reason: "signature-refused", Want: []string{"not over this contract"}, Check: refused(8)},
		{Name: "revoked certificate", Method: "POST", Path: "/eimzo", Body: pkcs7Body(eimzotest.Sign(c.Hash, eimzotest.Key{TIN: fixture.OwnerIN, CN: "ALPHA", Revoked: true})),
			Status: 400, Reason: "signature-refused", Check: refused(10)},
		{Name: "server fails", Method: "POST", Before: func() { e.ez.Fail(500) }, Path: "/eimzo", Body: pkcs7Body(eimzotest.Sign(c.Hash, own)),
			Status: 503, Reason: "unavailable", Check: refused(11)},
	})
	e.ez.Fail(0)
	apitest.Run(t, e.page(url), []apitest.Scenario{
		{Name: "own key", Method: "POST", Path: "/eimzo", Body: pkcs7Body(eimzotest.Sign(c.Hash, own)), Status: 200,
			Want: []string{`"status":"SIGNED"`, `"partyStatus":"ACCEPTED"`, `"contractStatus":"CREATED"`, `"sessionId":"` + sess.ID}},
		{Name: "again", Method: "POST", Path: "/eimzo", Body: pkcs7Body(eimzotest.Sign(c.Hash, own)), Status: 403, Reason: "session-closed"},
	})
	after := e.snap(t, c.ID, sess.ID, fixture.OwnerIN)
	if before.verified || !after.verified || after.party != signflow.PartyAccepted || after.sess != signflow.SessionSigned {
		t.Fatalf("after signing %+v", after)
	}
	if sig := e.StoredContract(t, c.ID).Signatures[fixture.OwnerIN]; sig == nil || sig.Method != signflow.MethodEIMZO || sig.Hash != c.Hash {
		t.Fatalf("signature %+v", sig)
	}
	// The E-IMZO server was told the signer's address and the site's host.
	last := e.ez.Requests()[len(e.ez.Requests())-1]
	if last.RealIP != "127.0.0.1" || last.Host != "localhost" || last.Path != "/backend/pkcs7/verify/attached" {
		t.Fatalf("last E-IMZO request %+v", last)
	}
}
