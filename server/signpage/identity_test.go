package signpage_test

import (
	"encoding/json"
	"html"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"contracts/internal/apitest"
	"contracts/internal/fixture"
	"contracts/server/signpage"
	"contracts/signflow"
	"contracts/signflow/idp"
	"contracts/signflow/idp/idptest"
)

// contractOf creates a contract of the template between the peer (seller,
// creator) and the customer (buyer).
func (e *env) contractOf(t *testing.T, tmpl *signflow.Template) *signflow.Contract {
	t.Helper()
	c, err := e.Service.CreateContract(e.peer, &signflow.ContractInput{TemplateID: tmpl.ID, BuyerIN: fixture.CustomerIN,
		Price: 120000000, Currency: "UZS"}, signflow.Actor{IP: "10.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// snap is everything a refused step must leave as it was.
type snap struct {
	version               int64
	contract, party, sess string
	audit                 int
	verified, stateHeld   bool
}

func (e *env) snap(t *testing.T, contractID, sessionID, signer string) snap {
	t.Helper()
	var s snap
	fixture.Must(t, func() error {
		return e.DB.View(func(tx signflow.Tx) error {
			c, err := tx.Contract(contractID)
			if err != nil {
				return err
			}
			se, err := tx.Session(sessionID)
			if err != nil {
				return err
			}
			events, err := tx.AuditEvents(contractID)
			if err != nil {
				return err
			}
			cl, err := tx.Owner(signer) // the signer as the contract's creator's tenant knows it
			if signflow.ErrorCode(err) == signflow.ENOTFOUND {
				cl, err = tx.Claim(c.CreatorIN, signer)
			}
			if err != nil {
				return err
			}
			s = snap{c.Version, c.Status, c.PartyStatus(signer), se.Status, len(events), cl.Verified, se.IDPStateHash != nil}
			return nil
		})
	})
	return s
}

var idpResultRE = regexp.MustCompile(`(?s)<script type="application/json" id="idp-result">(.*?)</script>`)

// callback is the answer of /sign/idp/callback with the message its page
// posts to the opener. The browser asks for English: a refusal, which
// names no session, is told in the browser's language.
type callback struct {
	apitest.Reply
	msg map[string]any
}

func (e *env) callback(t *testing.T, query url.Values) callback {
	t.Helper()
	r := e.do(t, "GET", e.base+signpage.CallbackPath+"?"+query.Encode(), "", "Accept-Language", "en-US,en;q=0.8")
	if ct := r.Header.Get("Content-Type"); ct != "text/html; charset=UTF-8" {
		t.Fatalf("callback answered %s:\n%s", ct, r.Body)
	}
	m := idpResultRE.FindStringSubmatch(r.Body)
	if m == nil {
		t.Fatalf("callback page without its message:\n%s", r.Body)
	}
	var msg map[string]any
	if err := json.Unmarshal([]byte(m[1]), &msg); err != nil {
		t.Fatalf("callback message: %v", err)
	}
	if msg["source"] != "contracts-sdk" || msg["type"] != "IDENTITY" {
		t.Fatalf("callback message %v", msg)
	}
	return callback{r, msg}
}

// login starts the check through the page's API and logs in at the fake
// provider, as the popup would; it returns code and state.
func (e *env) login(t *testing.T, pageURL string, provider *idptest.Provider) (code, state string) {
	t.Helper()
	r := e.do(t, "POST", pageURL+"/identity", "{}")
	if r.Status != 200 {
		t.Fatalf("start identity: %d %s", r.Status, r.Body)
	}
	authURL, _ := r.JSON(t)["authUrl"].(string)
	if !strings.HasPrefix(authURL, provider.AuthURL()+"?") {
		t.Fatalf("authUrl %q, want the provider's page", authURL)
	}
	return idptest.Login(t, authURL)
}

// markup is the page without its configuration, which holds every string.
func markup(page string) string {
	if i := strings.Index(page, `<script type="application/json"`); i >= 0 {
		page = page[:i]
	}
	return html.UnescapeString(page)
}

func codeState(code, state string) url.Values { return url.Values{"code": {code}, "state": {state}} }

// The MY_ID round trip over real HTTP: the page offers it, the API starts
// it with the provider's URL, the popup comes back to the callback, which
// signs, marks the client verified and says so to the opener; the used
// state cannot sign again and the status route tells the outcome.
func TestIdentityRoundTrip(t *testing.T) {
	e := newEnvWith(t, envOptions{outside: true})
	c := e.contractOf(t, e.myidT)
	sess, page := e.open(t, c.ID, signflow.SessionRequest{SignerIN: fixture.CustomerIN, Lang: "en", ParentOrigin: "https://shop.example"})
	if sess.Method != signflow.MethodMyID {
		t.Fatalf("method %s", sess.Method)
	}

	r := e.do(t, "GET", page, "")
	body := markup(r.Body)
	cfg := config(t, r.Body)
	if r.Status != 200 || !strings.Contains(body, ">Sign</button>") || !strings.Contains(body, "confirm your face with MyID in a new window") ||
		!strings.Contains(body, ">Open MyID again</button>") || strings.Contains(body, "not set up") || strings.Contains(body, `id="sms-code"`) {
		t.Fatalf("MY_ID page %d:\n%s", r.Status, body)
	}
	if cfg["flow"] != "identity" || cfg["provider"] != "MyID" || cfg["eimzo"] != nil {
		t.Fatalf("config %v", cfg)
	}
	if csp := r.Header.Values("Content-Security-Policy"); len(csp) != 2 || strings.Contains(csp[1], "127.0.0.1") {
		t.Fatalf("CSP %q: the E-IMZO client has no business here", csp)
	}
	if st := e.do(t, "GET", page+"/status", ""); st.Status != 200 || st.JSON(t)["status"] != signflow.SessionPending {
		t.Fatalf("status before: %d %s", st.Status, st.Body)
	}

	start := e.do(t, "POST", page+"/identity", "{}")
	authURL, _ := start.JSON(t)["authUrl"].(string)
	u, err := url.Parse(authURL)
	if start.Status != 200 || err != nil || u.Query().Get("redirect_uri") != e.base+"/sign/idp/callback" || u.Query().Get("state") == "" ||
		u.Query().Get("code_challenge_method") != "S256" || strings.Contains(authURL, "secret") {
		t.Fatalf("start: %d %s", start.Status, authURL)
	}
	code, state := idptest.Login(t, authURL)
	before := e.snap(t, c.ID, sess.ID, fixture.CustomerIN)
	if !before.stateHeld || before.verified {
		t.Fatalf("before the callback %+v", before)
	}

	cb := e.callback(t, codeState(code, state))
	result, _ := cb.msg["result"].(map[string]any)
	if cb.Status != 200 || cb.msg["ok"] != true || cb.msg["sessionId"] != sess.ID || result["status"] != signflow.SessionSigned ||
		result["partyStatus"] != signflow.PartyAccepted || result["contractId"] != c.ID || !strings.Contains(cb.Body, "Contract signed") ||
		!strings.Contains(cb.Body, `<html lang="en">`) {
		t.Fatalf("callback %d %v\n%s", cb.Status, cb.msg, cb.Body)
	}
	hd := cb.Header
	if !strings.Contains(hd.Get("Content-Security-Policy"), "frame-ancestors 'none'") || !strings.Contains(hd.Get("Content-Security-Policy"), "script-src 'self'") ||
		hd.Get("Referrer-Policy") != "no-referrer" || hd.Get("Cache-Control") != "no-store" || !strings.Contains(cb.Body, `src="../assets/idp.js?v=`) {
		t.Fatalf("callback headers %v", hd)
	}
	after := e.snap(t, c.ID, sess.ID, fixture.CustomerIN)
	if after.party != signflow.PartyAccepted || after.sess != signflow.SessionSigned || !after.verified || after.stateHeld || after.version != before.version+1 {
		t.Fatalf("after the callback %+v", after)
	}
	if sig := e.StoredContract(t, c.ID).Signatures[fixture.CustomerIN]; sig == nil || sig.Method != signflow.MethodMyID || sig.SessionID != sess.ID {
		t.Fatalf("signature %+v", sig)
	}

	// A replayed callback is refused before anything else and changes nothing.
	again := e.callback(t, codeState(code, state))
	if again.Status != 403 || again.Header.Get("X-Sign-Reason") != "identity-state" || again.msg["ok"] != false ||
		again.msg["reason"] != "identity-state" || !strings.Contains(again.Body, "Nothing was signed") {
		t.Fatalf("replay: %d %v", again.Status, again.msg)
	}
	if now := e.snap(t, c.ID, sess.ID, fixture.CustomerIN); now != after {
		t.Fatalf("the replay changed %+v into %+v", after, now)
	}
	st := e.do(t, "GET", page+"/status", "").JSON(t)
	if st["status"] != signflow.SessionSigned || st["contractStatus"] != signflow.StatusCreated || st["sessionId"] != sess.ID {
		t.Fatalf("status after: %v", st)
	}
	apitest.Run(t, e.page(page), []apitest.Scenario{{Name: "start after signing", Method: "POST", Path: "/identity", Body: "{}", Status: 403, Reason: "session-closed"}})
}

// Every failure of the check: a clear refusal, the session stays PENDING,
// the contract and the client as they were; where the state survives, the
// genuine popup can still sign afterwards.
func TestIdentityRefusalsChangeNothing(t *testing.T) {
	e := newEnvWith(t, envOptions{outside: true, timeout: 300 * time.Millisecond})
	customer := map[string]any{"pinfl": fixture.CustomerIN}
	cases := []struct {
		name    string
		prepare func(p *idptest.Provider)
		query   func(code, state, sessionID string) url.Values
		status  int
		reason  string
		text    string // on the callback page, in English
		// stateUsed: the failure used the state up; otherwise the genuine
		// code and state sign afterwards.
		stateUsed bool
	}{
		{name: "a different person", prepare: func(p *idptest.Provider) { p.Userinfo = map[string]any{"pinfl": fixture.UnknownIN} },
			status: 400, reason: "identity-mismatch", text: "confirmed a different person", stateUsed: true},
		{name: "forged state for the session", query: func(code, _, id string) url.Values { return codeState(code, id+".forged") },
			status: 403, reason: "identity-state", text: "no longer valid"},
		{name: "state of no session", query: func(code, _, _ string) url.Values { return codeState(code, "not-a-state") },
			status: 403, reason: "identity-state", text: "no longer valid"},
		{name: "no state", query: func(code, _, _ string) url.Values { return url.Values{"code": {code}} },
			status: 403, reason: "identity-state", text: "no longer valid"},
		{name: "cancelled at the provider", query: func(_, state, _ string) url.Values {
			return url.Values{"error": {"access_denied"}, "error_description": {"<b>user cancelled</b>"}, "state": {state}}
		}, status: 400, reason: "identity-cancelled", text: "cancelled or not completed"},
		{name: "provider answers 500", prepare: func(p *idptest.Provider) { p.TokenStatus = 500 },
			status: 503, reason: "unavailable", text: "did not answer", stateUsed: true},
		{name: "provider times out", prepare: func(p *idptest.Provider) { p.TokenDelay = 3 * time.Second },
			status: 503, reason: "unavailable", text: "did not answer", stateUsed: true},
		{name: "userinfo refuses the token", prepare: func(p *idptest.Provider) { p.UserinfoStatus = 403 },
			status: 400, reason: "identity-refused", text: "did not confirm who you are", stateUsed: true},
	}
	reset := func(p *idptest.Provider) {
		p.Userinfo, p.TokenStatus, p.TokenDelay, p.UserinfoStatus = customer, 0, 0, 0
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e.myid.Set(reset)
			c := e.contractOf(t, e.myidT)
			sess, page := e.open(t, c.ID, signflow.SessionRequest{SignerIN: fixture.CustomerIN, Lang: "en"})
			if tc.prepare != nil {
				e.myid.Set(tc.prepare)
			}
			code, state := e.login(t, page, e.myid)
			before := e.snap(t, c.ID, sess.ID, fixture.CustomerIN)
			q := codeState(code, state)
			if tc.query != nil {
				q = tc.query(code, state, sess.ID)
			}
			cb := e.callback(t, q)
			if cb.Status != tc.status || cb.Header.Get("X-Sign-Reason") != tc.reason || cb.msg["ok"] != false || cb.msg["reason"] != tc.reason ||
				cb.msg["status"] != float64(tc.status) || !strings.Contains(cb.Body, tc.text) || !strings.Contains(cb.Body, "Nothing was signed") {
				t.Fatalf("callback %d %q %v\n%s", cb.Status, cb.Header.Get("X-Sign-Reason"), cb.msg, cb.Body)
			}
			if strings.Contains(cb.Body, "user cancelled") {
				t.Fatal("the provider's own text reached the page")
			}
			after := e.snap(t, c.ID, sess.ID, fixture.CustomerIN)
			if after.sess != signflow.SessionPending || after.party != signflow.PartyPending || after.verified != before.verified ||
				after.version != before.version || after.audit != before.audit || after.stateHeld == tc.stateUsed {
				t.Fatalf("a refusal changed %+v into %+v", before, after)
			}

			e.myid.Set(reset)
			if !tc.stateUsed {
				// The refusal left the genuine check alive: it still signs.
				if ok := e.callback(t, codeState(code, state)); ok.Status != 200 || ok.msg["ok"] != true {
					t.Fatalf("the genuine callback after the refusal: %d %v", ok.Status, ok.msg)
				}
				return
			}
			// The state is spent: the same popup cannot sign, a new check can.
			if old := e.callback(t, codeState(code, state)); old.Status != 403 || old.msg["reason"] != "identity-state" {
				t.Fatalf("the used state again: %d %v", old.Status, old.msg)
			}
			if ok := e.callback(t, codeState(e.login(t, page, e.myid))); ok.Status != 200 || ok.msg["ok"] != true {
				t.Fatalf("a new check: %d %v", ok.Status, ok.msg)
			}
		})
	}
}

// An expired session: the popup's return is refused (403 session-expired,
// told to the opener, so the page posts ERROR), and so is a new start.
func TestIdentityExpiredSession(t *testing.T) {
	e := newEnvWith(t, envOptions{outside: true})
	c := e.contractOf(t, e.myidT)
	sess, page := e.open(t, c.ID, signflow.SessionRequest{SignerIN: fixture.CustomerIN, Lang: "ru"})
	code, state := e.login(t, page, e.myid)
	before := e.snap(t, c.ID, sess.ID, fixture.CustomerIN)
	e.Clock.Advance(31 * time.Minute)
	cb := e.callback(t, codeState(code, state))
	if cb.Status != 403 || cb.msg["reason"] != "session-expired" || cb.msg["status"] != float64(403) {
		t.Fatalf("callback on an expired session: %d %v", cb.Status, cb.msg)
	}
	if e.myid.Exchanges() != 0 {
		t.Fatal("the code was exchanged for an expired session")
	}
	if after := e.snap(t, c.ID, sess.ID, fixture.CustomerIN); after.version != before.version || after.verified || after.party != signflow.PartyPending {
		t.Fatalf("changed %+v into %+v", before, after)
	}
	apitest.Run(t, e.page(page), []apitest.Scenario{{Name: "start", Method: "POST", Path: "/identity", Body: "{}", Status: 403, Reason: "session-expired"}})
	if st := e.do(t, "GET", page+"/status", "").JSON(t); st["status"] != signflow.SessionExpired {
		t.Fatalf("status %v", st)
	}
}

// The identity routes refuse what is not theirs: an SMS session, an
// unknown token; ABLE_ID goes to its own provider; the callback is its own
// route, not a token of /sign/:token.
func TestIdentityRoutes(t *testing.T) {
	if signpage.CallbackPath != idp.CallbackPath {
		t.Fatalf("callback path %s, the providers are told %s", signpage.CallbackPath, idp.CallbackPath)
	}
	e := newEnvWith(t, envOptions{outside: true})
	_, otp := e.open(t, e.contract(t).ID, signflow.SessionRequest{SignerIN: fixture.CustomerIN})
	apitest.Run(t, e.page(otp), []apitest.Scenario{
		{Name: "identity on an SMS session", Method: "POST", Path: "/identity", Body: "{}", Status: 400, Reason: "wrong-method"},
		{Name: "E-IMZO on an SMS session", Method: "POST", Path: "/eimzo", Body: `{"pkcs7":"MIA="}`, Status: 400, Reason: "wrong-method"},
	})
	apitest.Run(t, e.page(e.base+"/sign/no-such-token"), []apitest.Scenario{{Name: "unknown token", Method: "POST", Path: "/identity", Body: "{}", Status: 404, Reason: "session-not-found"}})
	if r := e.do(t, "GET", e.base+"/sign/no-such-token/status", ""); r.Status != 404 || r.Header.Get("X-Sign-Reason") != "session-not-found" {
		t.Fatalf("status of an unknown token: %d", r.Status)
	}

	c := e.contractOf(t, e.ableidT)
	sess, page := e.open(t, c.ID, signflow.SessionRequest{SignerIN: fixture.CustomerIN, Lang: "uz"})
	if sess.Method != signflow.MethodAbleID {
		t.Fatalf("method %s", sess.Method)
	}
	if r := e.do(t, "GET", page, ""); !strings.Contains(html.UnescapeString(r.Body), "AbleID orqali yuzingizni") || config(t, r.Body)["provider"] != "AbleID" {
		t.Fatalf("ABLE_ID page in Uzbek:\n%s", r.Body)
	}
	code, state := e.login(t, page, e.ableid)
	if cb := e.callback(t, codeState(code, state)); cb.Status != 200 || cb.msg["ok"] != true || !strings.Contains(cb.Body, `<html lang="uz">`) ||
		!strings.Contains(html.UnescapeString(cb.Body), "Shartnoma imzolandi") {
		t.Fatalf("ABLE_ID callback: %d %v", cb.Status, cb.msg)
	}
	if e.myid.Exchanges() != 0 || e.ableid.Exchanges() != 1 {
		t.Fatalf("exchanges: MyID %d, AbleID %d", e.myid.Exchanges(), e.ableid.Exchanges())
	}

	// Not captured by /sign/:token: the callback's HTML, in the browser's language.
	cb := e.do(t, "GET", e.base+"/sign/idp/callback", "", "Accept-Language", "ru-RU,ru;q=0.9")
	if cb.Status != 403 || !strings.Contains(cb.Body, `id="idp-result"`) || !strings.Contains(cb.Body, `<html lang="ru">`) {
		t.Fatalf("bare callback: %d\n%s", cb.Status, cb.Body)
	}
	if r := e.do(t, "POST", e.base+"/sign/idp/callback", ""); r.Status != 405 {
		t.Fatalf("POST to the callback: %d", r.Status)
	}
}

// Methods whose outside service is not configured are never offered: the
// page says so and has no Sign button, and their routes refuse.
func TestUnconfiguredMethodsAreNotOffered(t *testing.T) {
	e := newEnv(t, 0, "") // MY_ID and E_IMZO switched on, no provider, no verifier
	tmpl := fixture.MustTemplate(t, e.Service, strings.Replace(fixture.TemplateYAML, "enabledCurrencies:", "individualVerificationType: MY_ID\nenabledCurrencies:", 1))
	c := e.contractOf(t, tmpl)
	_, myid := e.open(t, c.ID, signflow.SessionRequest{SignerIN: fixture.CustomerIN, Lang: "en"})
	company := e.Contract(t)
	_, token, err := e.Service.OpenSession(e.Access(t, e.AppA), company.ID, signflow.SessionRequest{SignerIN: fixture.OwnerIN, Lang: "en"}, signflow.Actor{})
	if err != nil {
		t.Fatal(err)
	}
	eimzoPage := e.base + "/sign/" + token
	for url, method := range map[string]string{myid: "MyID", eimzoPage: "E-IMZO"} {
		r := e.do(t, "GET", url, "")
		body := markup(r.Body)
		if r.Status != 200 || strings.Contains(body, `data-action="sign"`) || !strings.Contains(body, "This contract is signed with "+method+", which is not set up on this service") ||
			config(t, r.Body)["flow"] != nil || config(t, r.Body)["eimzo"] != nil {
			t.Fatalf("%s: %d\n%s", method, r.Status, body)
		}
	}
	apitest.Run(t, e.page(myid), []apitest.Scenario{{Name: "identity", Method: "POST", Path: "/identity", Body: "{}", Status: 400, Want: []string{"not configured"}}})
	apitest.Run(t, e.page(eimzoPage), []apitest.Scenario{{Name: "E-IMZO", Method: "POST", Path: "/eimzo", Body: `{"pkcs7":"MIA="}`, Status: 400,
		Reason: "method-unavailable", Want: []string{"not configured"}}})
}

// Identity starts and E-IMZO signatures count against the limit of the SMS
// routes, per session and client IP: they reach outside services.
func TestIdentityAndEIMZOAreRateLimited(t *testing.T) {
	e := newEnvWith(t, envOptions{outside: true, otpPerMinute: 2})
	_, page := e.open(t, e.contractOf(t, e.myidT).ID, signflow.SessionRequest{SignerIN: fixture.CustomerIN})
	_, _, company := e.openCompany(t, signflow.SessionRequest{})
	apitest.Run(t, e.page(page), []apitest.Scenario{
		{Name: "start", Method: "POST", Path: "/identity", Body: "{}", Status: 200, Want: []string{`"authUrl":"` + e.myid.AuthURL()}},
		{Name: "start again", Method: "POST", Path: "/identity", Body: "{}", Status: 200},
		{Name: "limited", Method: "POST", Path: "/identity", Body: "{}", Status: 429, Reason: "rate-limited", WantHeader: map[string]string{"Retry-After": "30"}},
	})
	apitest.Run(t, e.page(company), []apitest.Scenario{
		{Name: "E-IMZO", Method: "POST", Path: "/eimzo", Body: "{}", Status: 400, Reason: "signature-refused"},
		{Name: "E-IMZO again", Method: "POST", Path: "/eimzo", Body: "{}", Status: 400, Reason: "signature-refused"},
		{Name: "E-IMZO limited", Method: "POST", Path: "/eimzo", Body: "{}", Status: 429, Reason: "rate-limited"},
	})
	apitest.Run(t, e.page(page), []apitest.Scenario{
		{Name: "later", Method: "POST", Before: func() { e.Clock.Advance(30 * time.Second) }, Path: "/identity", Body: "{}", Status: 200},
	})
}
