package signpage_test

import (
	"strings"
	"testing"
	"time"

	"contracts/internal/apitest"
	"contracts/internal/fixture"
	"contracts/signflow"
)

// The page's JSON API through one session: every refusal with its status
// and reason, then the signature; the used session is closed.
func TestPageAPIScenario(t *testing.T) {
	e := newEnv(t, 0, "")
	c := e.contract(t)
	_, url := e.open(t, c.ID, signflow.SessionRequest{SignerIN: fixture.CustomerIN, Lang: "ru"})
	code := func() string { return lastCode(t, e.SMS, custPhone) }
	apitest.Run(t, e.page(url), []apitest.Scenario{
		{Name: "confirm before any code", Method: "POST", Path: "/confirm", Body: `{"code":"12345"}`, Status: 400, Reason: "no-code"},
		{Name: "send", Method: "POST", Path: "/code", Body: "{}", Status: 200, Want: []string{`"phone":"+99890*****67"`, `"expiresIn":300`, `"resendIn":60`, `"sendsLeft":4`}},
		{Name: "resend too early", Method: "POST", Before: func() { e.Clock.Advance(15 * time.Second) }, Path: "/code", Body: "{}", Status: 429, Reason: "resend-wait",
			WantHeader: map[string]string{"Retry-After": "45"}},
		{Name: "malformed JSON", Method: "POST", Path: "/confirm", Body: `{"code":`, Status: 400},
		{Name: "code not 5 digits", Method: "POST", Path: "/confirm", Body: `{"code":"12a"}`, Status: 400, Reason: "code-format"},
		{Name: "wrong code", Method: "POST", Path: "/confirm", Body: func() string { return `{"code":"` + fixture.NotCode(code()) + `"}` }, Status: 400,
			Reason: "wrong-code", WantHeader: map[string]string{"X-Attempts-Left": "4"}, Want: []string{"4 attempt(s) left"}},
		{Name: "resend after 60 s", Method: "POST", Before: func() { e.Clock.Advance(45 * time.Second) }, Path: "/code", Body: "{}", Status: 200, Want: []string{`"sendsLeft":3`}},
		{Name: "code expired", Method: "POST", Before: func() { e.Clock.Advance(5 * time.Minute) }, Path: "/confirm", Body: func() string { return `{"code":"` + code() + `"}` },
			Status: 400, Reason: "code-expired"},
		{Name: "fresh code", Method: "POST", Path: "/code", Body: "{}", Status: 200},
		{Name: "right code", Method: "POST", Path: "/confirm", Body: func() string { return `{"code":"` + code() + `"}` }, Status: 200,
			Want: []string{`"status":"SIGNED"`, `"contractStatus":"CREATED"`, `"partyStatus":"ACCEPTED"`, `"contractId":"` + c.ID}},
		{Name: "confirm again", Method: "POST", Path: "/confirm", Body: func() string { return `{"code":"` + code() + `"}` }, Status: 403, Reason: "session-closed"},
		{Name: "reject after signing", Method: "POST", Path: "/reject", Body: "{}", Status: 403, Reason: "session-closed"},
	})
	if sms := e.SMS.Last().Text; !strings.Contains(sms, c.Number) || !strings.Contains(sms, "Код") {
		t.Fatalf("SMS %q: want the contract number, in Russian", sms)
	}
	r := e.do(t, "POST", e.base+"/sign/unknown-token/code", "{}")
	if r.Status != 404 || r.Header.Get("X-Sign-Reason") != "session-not-found" {
		t.Fatalf("unknown token: %d %q", r.Status, r.Header.Get("X-Sign-Reason"))
	}
}

// Five wrong codes: four say the attempts left, the fifth closes the
// session (403) and leaves the contract as it was.
func TestPageAPIFiveWrongCodes(t *testing.T) {
	e := newEnv(t, 0, "")
	c := e.contract(t)
	sess, url := e.open(t, c.ID, signflow.SessionRequest{SignerIN: fixture.CustomerIN})
	steps := []apitest.Scenario{{Name: "send", Method: "POST", Path: "/code", Body: "{}", Status: 200}}
	wrong := func() string { return `{"code":"` + fixture.NotCode(lastCode(t, e.SMS, custPhone)) + `"}` }
	for left := 4; left >= 1; left-- {
		steps = append(steps, apitest.Scenario{Name: "wrong", Method: "POST", Path: "/confirm", Body: wrong, Status: 400, Reason: "wrong-code",
			WantHeader: map[string]string{"X-Attempts-Left": string(rune('0' + left))}})
	}
	steps = append(steps, apitest.Scenario{Name: "fifth wrong", Method: "POST", Path: "/confirm", Body: wrong, Status: 403, Reason: "session-closed"})
	apitest.Run(t, e.page(url), steps)
	if s := e.StoredSession(t, sess.ID); s.Status != signflow.SessionExpired {
		t.Fatalf("session %s", s.Status)
	}
	if got := e.StoredContract(t, c.ID); got.Status != signflow.StatusCreated || got.BuyerStatus != signflow.PartyPending {
		t.Fatalf("contract %s %s", got.Status, got.BuyerStatus)
	}
	if r := e.do(t, "GET", url, ""); r.Status != 403 || !strings.Contains(r.Body, `"error":"session closed"`) {
		t.Fatalf("page of the closed session: %d", r.Status)
	}
}

// Code checks and sends are limited per session and client IP: 429 with Retry-After,
// and allowed again once the clock moves on.
func TestPageAPIRateLimit(t *testing.T) {
	e := newEnv(t, 2, "")
	c := e.contract(t)
	_, url := e.open(t, c.ID, signflow.SessionRequest{SignerIN: fixture.CustomerIN})
	bad := func() string { return `{"code":"` + fixture.NotCode(lastCode(t, e.SMS, custPhone)) + `"}` }
	apitest.Run(t, e.page(url), []apitest.Scenario{
		{Name: "send", Method: "POST", Path: "/code", Body: "{}", Status: 200},
		{Name: "check", Method: "POST", Path: "/confirm", Body: bad, Status: 400, Reason: "wrong-code"},
		{Name: "limited", Method: "POST", Path: "/confirm", Body: bad, Status: 429, Reason: "rate-limited", WantHeader: map[string]string{"Retry-After": "30"}},
		{Name: "again later", Method: "POST", Before: func() { e.Clock.Advance(30 * time.Second) }, Path: "/confirm", Body: bad, Status: 400, Reason: "wrong-code",
			WantHeader: map[string]string{"X-Attempts-Left": "3"}},
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
	apitest.Run(t, e.page(probe), []apitest.Scenario{
		{Name: "probe 1", Method: "POST", Path: "/code", Body: "{}", Status: 404, Reason: "session-not-found"},
		{Name: "probe 2", Method: "POST", Path: "/confirm", Body: `{"code":"12345"}`, Status: 404, Reason: "session-not-found"},
		{Name: "probe 3", Method: "POST", Path: "/reject", Body: "{}", Status: 404, Reason: "session-not-found"},
		{Name: "probe limited", Method: "POST", Path: "/code", Body: "{}", Status: 429, Reason: "rate-limited"},
	})
	bad := func() string { return `{"code":"` + fixture.NotCode(lastCode(t, e.SMS, custPhone)) + `"}` }
	apitest.Run(t, e.page(url), []apitest.Scenario{
		{Name: "the session's send", Method: "POST", Path: "/code", Body: "{}", Status: 200},
		{Name: "the session's check", Method: "POST", Path: "/confirm", Body: bad, Status: 400, Reason: "wrong-code"},
		{Name: "another check", Method: "POST", Path: "/confirm", Body: bad, Status: 400, Reason: "wrong-code"},
		{Name: "the session's own limit", Method: "POST", Path: "/confirm", Body: bad, Status: 429, Reason: "rate-limited"},
	})
}

// Reject through the API: the counterparty's refusal rejects, the
// creator's party's refusal cancels. Each is confirmed with the SMS code,
// as a signature is; the rejection's audit event names OTP_SMS.
func TestPageAPIReject(t *testing.T) {
	e := newEnv(t, 0, "")
	phones := map[string]string{fixture.CustomerIN: custPhone, peerIN: peerPhone}
	for signer, want := range map[string]string{fixture.CustomerIN: signflow.StatusRejected, peerIN: signflow.StatusCancelled} {
		c := e.contract(t)
		_, url := e.open(t, c.ID, signflow.SessionRequest{SignerIN: signer})
		code := func() string { return lastCode(t, e.SMS, phones[signer]) }
		apitest.Run(t, e.page(url), []apitest.Scenario{
			{Name: "reject unconfirmed", Method: "POST", Path: "/reject", Body: "", Status: 400, Want: []string{"SMS code"}},
			{Name: "reject, malformed", Method: "POST", Path: "/reject", Body: `{"code":`, Status: 400},
			{Name: "send to sign", Method: "POST", Path: "/code", Body: "{}", Status: 200},
			{Name: "reject with the signing code", Method: "POST", Path: "/reject", Body: func() string { return `{"code":"` + code() + `"}` },
				Status: 400, Reason: "code-intent"},
			{Name: "send to reject", Method: "POST", Before: func() { e.Clock.Advance(signflow.ResendAfter) }, Path: "/code", Body: `{"intent":"reject"}`,
				Status: 200, Want: []string{`"intent":"reject"`, `"sendsLeft":3`}},
			{Name: "unknown intent", Method: "POST", Path: "/code", Body: `{"intent":"sign"}`, Status: 400},
			{Name: "sign with the rejection's code", Method: "POST", Path: "/confirm", Body: func() string { return `{"code":"` + code() + `"}` },
				Status: 400, Reason: "code-intent"},
			{Name: "reject, wrong code", Method: "POST", Path: "/reject", Body: func() string { return `{"code":"` + fixture.NotCode(code()) + `"}` },
				Status: 400, Reason: "wrong-code", WantHeader: map[string]string{"X-Attempts-Left": "4"}},
			{Name: "reject", Method: "POST", Path: "/reject", Body: func() string { return `{"code":"` + code() + `"}` }, Status: 200,
				Want: []string{`"status":"REJECTED"`, `"contractStatus":"` + want + `"`}},
			{Name: "send after reject", Method: "POST", Path: "/code", Body: "{}", Status: 403, Reason: "session-closed"},
		})
		events, err := e.Service.AuditTrail(c.ID)
		if err != nil {
			t.Fatal(err)
		}
		rejections := 0
		for _, ev := range events {
			switch {
			case ev.Type == signflow.EventRejected || ev.Type == signflow.EventCancelled:
				rejections++
				if ev.Method != signflow.MethodOTP {
					t.Errorf("%s: %s names the confirmation %q, want OTP_SMS", signer, ev.Type, ev.Method)
				}
			case ev.Method != "":
				t.Errorf("%s: %s names the confirmation %s", signer, ev.Type, ev.Method)
			}
		}
		if rejections != 1 {
			t.Fatalf("%s: %d rejections in the trail", signer, rejections)
		}
	}
}
