package signpage_test

import (
	"strings"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// step is one request of an API scenario and what must come back.
type step struct {
	name    string
	before  func()
	path    string // after the page URL: /code, /confirm, /reject
	body    func() string
	status  int
	reason  string            // X-Sign-Reason
	headers map[string]string // further headers that must be present
	parts   []string          // substrings of the body
}

func runSteps(t *testing.T, e *env, url string, steps []step) {
	t.Helper()
	for _, s := range steps {
		if s.before != nil {
			s.before()
		}
		body := "{}"
		if s.body != nil {
			body = s.body()
		}
		r := e.do(t, "POST", url+s.path, body)
		if r.status != s.status || r.header.Get("X-Sign-Reason") != s.reason {
			t.Fatalf("%s: %d %q, want %d %q\n%s", s.name, r.status, r.header.Get("X-Sign-Reason"), s.status, s.reason, r.body)
		}
		if ct := r.header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
			t.Fatalf("%s: content type %q", s.name, ct)
		}
		for k, v := range s.headers {
			if got := r.header.Get(k); got != v {
				t.Fatalf("%s: %s %q, want %q", s.name, k, got, v)
			}
		}
		for _, p := range s.parts {
			if !strings.Contains(r.body, p) {
				t.Fatalf("%s: body lacks %q\n%s", s.name, p, r.body)
			}
		}
		if s.status >= 400 {
			m := r.json(t)
			if m["code"] != float64(s.status) || m["message"] == "" || m["status"] == nil || m["timestamp"] == nil {
				t.Fatalf("%s: error body %v", s.name, m)
			}
		}
	}
}

// The page's JSON API through one session: every refusal with its status
// and reason, then the signature; the used session is closed.
func TestPageAPIScenario(t *testing.T) {
	e := newEnv(t, 0, "")
	c := e.contract(t)
	_, url := e.open(t, c.ID, signflow.SessionRequest{SignerIN: fixture.CustomerIN, Lang: "ru"})
	code := func() string { return lastCode(t, e.SMS, custPhone) }
	runSteps(t, e, url, []step{
		{name: "confirm before any code", path: "/confirm", body: func() string { return `{"code":"12345"}` }, status: 400, reason: "no-code"},
		{name: "send", path: "/code", status: 200, parts: []string{`"phone":"+99890*****67"`, `"expiresIn":300`, `"resendIn":60`, `"sendsLeft":4`}},
		{name: "resend too early", before: func() { e.Clock.Advance(15 * time.Second) }, path: "/code", status: 429, reason: "resend-wait",
			headers: map[string]string{"Retry-After": "45"}},
		{name: "malformed JSON", path: "/confirm", body: func() string { return `{"code":` }, status: 400},
		{name: "code not 5 digits", path: "/confirm", body: func() string { return `{"code":"12a"}` }, status: 400, reason: "code-format"},
		{name: "wrong code", path: "/confirm", body: func() string { return `{"code":"` + notCode(code()) + `"}` }, status: 400,
			reason: "wrong-code", headers: map[string]string{"X-Attempts-Left": "4"}, parts: []string{"4 attempt(s) left"}},
		{name: "resend after 60 s", before: func() { e.Clock.Advance(45 * time.Second) }, path: "/code", status: 200, parts: []string{`"sendsLeft":3`}},
		{name: "code expired", before: func() { e.Clock.Advance(5 * time.Minute) }, path: "/confirm", body: func() string { return `{"code":"` + code() + `"}` },
			status: 400, reason: "code-expired"},
		{name: "fresh code", path: "/code", status: 200},
		{name: "right code", path: "/confirm", body: func() string { return `{"code":"` + code() + `"}` }, status: 200,
			parts: []string{`"status":"SIGNED"`, `"contractStatus":"CREATED"`, `"partyStatus":"ACCEPTED"`, `"contractId":"` + c.ID}},
		{name: "confirm again", path: "/confirm", body: func() string { return `{"code":"` + code() + `"}` }, status: 403, reason: "session-closed"},
		{name: "reject after signing", path: "/reject", status: 403, reason: "session-closed"},
	})
	if sms := e.SMS.Last().Text; !strings.Contains(sms, c.Number) || !strings.Contains(sms, "Код") {
		t.Fatalf("SMS %q: want the contract number, in Russian", sms)
	}
	r := e.do(t, "POST", e.base+"/sign/unknown-token/code", "{}")
	if r.status != 404 || r.header.Get("X-Sign-Reason") != "session-not-found" {
		t.Fatalf("unknown token: %d %q", r.status, r.header.Get("X-Sign-Reason"))
	}
}

// Five wrong codes: four say the attempts left, the fifth closes the
// session (403) and leaves the contract as it was.
func TestPageAPIFiveWrongCodes(t *testing.T) {
	e := newEnv(t, 0, "")
	c := e.contract(t)
	sess, url := e.open(t, c.ID, signflow.SessionRequest{SignerIN: fixture.CustomerIN})
	steps := []step{{name: "send", path: "/code", status: 200}}
	wrong := func() string { return `{"code":"` + notCode(lastCode(t, e.SMS, custPhone)) + `"}` }
	for left := 4; left >= 1; left-- {
		steps = append(steps, step{name: "wrong", path: "/confirm", body: wrong, status: 400, reason: "wrong-code",
			headers: map[string]string{"X-Attempts-Left": string(rune('0' + left))}})
	}
	steps = append(steps, step{name: "fifth wrong", path: "/confirm", body: wrong, status: 403, reason: "session-closed"})
	runSteps(t, e, url, steps)
	if s := e.session(t, sess.ID); s.Status != signflow.SessionExpired {
		t.Fatalf("session %s", s.Status)
	}
	if got := e.reload(t, c.ID); got.Status != signflow.StatusCreated || got.BuyerStatus != signflow.PartyPending {
		t.Fatalf("contract %s %s", got.Status, got.BuyerStatus)
	}
	if r := e.do(t, "GET", url, ""); r.status != 403 || !strings.Contains(r.body, `"error":"session closed"`) {
		t.Fatalf("page of the closed session: %d", r.status)
	}
}

// Code checks and sends are limited per session and client IP: 429 with Retry-After,
// and allowed again once the clock moves on.
func TestPageAPIRateLimit(t *testing.T) {
	e := newEnv(t, 2, "")
	c := e.contract(t)
	_, url := e.open(t, c.ID, signflow.SessionRequest{SignerIN: fixture.CustomerIN})
	bad := func() string { return `{"code":"` + notCode(lastCode(t, e.SMS, custPhone)) + `"}` }
	runSteps(t, e, url, []step{
		{name: "send", path: "/code", status: 200},
		{name: "check", path: "/confirm", body: bad, status: 400, reason: "wrong-code"},
		{name: "limited", path: "/confirm", body: bad, status: 429, reason: "rate-limited", headers: map[string]string{"Retry-After": "30"}},
		{name: "again later", before: func() { e.Clock.Advance(30 * time.Second) }, path: "/confirm", body: bad, status: 400, reason: "wrong-code",
			headers: map[string]string{"X-Attempts-Left": "3"}},
	})
}

// Requests for tokens of no session spend their client IP's budget, never
// a real session's: a prober at the signer's own address (a shared NAT or
// proxy) cannot lock the signer out, and a session's own requests are
// limited on their own.
func TestPageAPIUnknownTokensSpendNoSessionBudget(t *testing.T) {
	e := newEnv(t, 3, "")
	c := e.contract(t)
	_, url := e.open(t, c.ID, signflow.SessionRequest{SignerIN: fixture.CustomerIN})
	probe := e.base + "/sign/" + signflow.RandomToken(32)
	runSteps(t, e, probe, []step{
		{name: "probe 1", path: "/code", status: 404, reason: "session-not-found"},
		{name: "probe 2", path: "/confirm", body: func() string { return `{"code":"12345"}` }, status: 404, reason: "session-not-found"},
		{name: "probe 3", path: "/reject", status: 404, reason: "session-not-found"},
		{name: "probe limited", path: "/code", status: 429, reason: "rate-limited"},
	})
	bad := func() string { return `{"code":"` + notCode(lastCode(t, e.SMS, custPhone)) + `"}` }
	runSteps(t, e, url, []step{
		{name: "the session's send", path: "/code", status: 200},
		{name: "the session's check", path: "/confirm", body: bad, status: 400, reason: "wrong-code"},
		{name: "another check", path: "/confirm", body: bad, status: 400, reason: "wrong-code"},
		{name: "the session's own limit", path: "/confirm", body: bad, status: 429, reason: "rate-limited"},
	})
}

// Reject through the API: the counterparty's refusal rejects, the
// creator's party's refusal cancels. Holding the link is all it took: the
// audit trail names no confirmation method for it.
func TestPageAPIReject(t *testing.T) {
	e := newEnv(t, 0, "")
	for signer, want := range map[string]string{fixture.CustomerIN: signflow.StatusRejected, peerIN: signflow.StatusCancelled} {
		c := e.contract(t)
		_, url := e.open(t, c.ID, signflow.SessionRequest{SignerIN: signer})
		runSteps(t, e, url, []step{
			{name: "reject", path: "/reject", body: func() string { return "" }, status: 200,
				parts: []string{`"status":"REJECTED"`, `"contractStatus":"` + want + `"`}},
			{name: "send after reject", path: "/code", status: 403, reason: "session-closed"},
		})
		events, err := e.Service.AuditTrail(c.ID)
		if err != nil || len(events) != 3 {
			t.Fatalf("audit: %d events, %v", len(events), err)
		}
		for _, ev := range events {
			if ev.Method != "" {
				t.Errorf("%s: %s names the confirmation %s", signer, ev.Type, ev.Method)
			}
		}
	}
}
