package signpage_test

import (
	"testing"
	"time"

	"contracts/internal/apitest"
	"contracts/internal/fixture"
	"contracts/signflow"
	"contracts/signflow/eimzo/eimzotest"
)

// TestEIMZOServerCodes: POST /sign/<token>/eimzo as E-IMZO-SERVER answers.
// −10…−12 judge the signature invalid: 400, the session stays open. −1,
// −20…−23, a 5xx or a time-out mean it could not check: 503 with
// Retry-After. Neither records anything, and status 1 then signs.
func TestEIMZOServerCodes(t *testing.T) {
	e := newEnvWith(t, envOptions{outside: true, timeout: 300 * time.Millisecond})
	c, sess, url := e.openCompany(t, signflow.SessionRequest{Lang: "en"})
	own := eimzotest.Sign(c.Hash, eimzotest.Key{TIN: fixture.OwnerIN, CN: "ALPHA SAVDO MCHJ"})
	before := e.snap(t, c.ID, sess.ID, fixture.OwnerIN)
	unchanged := func(retryAfter bool) func(*testing.T, apitest.Reply) {
		return func(t *testing.T, r apitest.Reply) {
			t.Helper()
			if now := e.snap(t, c.ID, sess.ID, fixture.OwnerIN); now != before {
				t.Fatalf("%+v became %+v", before, now)
			}
			if got := r.Header.Get("Retry-After"); (got != "") != retryAfter || (retryAfter && got != "30") {
				t.Fatalf("Retry-After %q, want it: %v", got, retryAfter)
			}
		}
	}
	answer := func(status int, message string) func() {
		return func() { e.ez.Fail(0); e.ez.Slow(0); e.ez.Answer(status, message) }
	}
	var scenarios []apitest.Scenario
	for _, s := range []struct {
		status  int
		message string
	}{{-10, "Invalid signature"}, {-11, "Certificate is not valid"}, {-12, "Certificate revoked"}} {
		scenarios = append(scenarios, apitest.Scenario{Name: s.message, Method: "POST", Path: "/eimzo", Body: pkcs7Body(own), Before: answer(s.status, s.message),
			Status: 400, Reason: "signature-refused", Want: []string{s.message}, Check: unchanged(false)})
	}
	for _, s := range []struct {
		status  int
		message string
	}{{-1, "Internal error"}, {-20, "OCSP unreachable"}, {-23, "CRL unavailable"}} {
		scenarios = append(scenarios, apitest.Scenario{Name: s.message, Method: "POST", Path: "/eimzo", Body: pkcs7Body(own), Before: answer(s.status, s.message),
			Status: 503, Reason: "unavailable", Want: []string{"could not check the signature now"}, Check: unchanged(true)})
	}
	scenarios = append(scenarios,
		apitest.Scenario{Name: "HTTP 502", Method: "POST", Path: "/eimzo", Body: pkcs7Body(own), Before: func() { answer(0, "")(); e.ez.Fail(502) },
			Status: 503, Reason: "unavailable", Check: unchanged(true)},
		apitest.Scenario{Name: "time-out", Method: "POST", Path: "/eimzo", Body: pkcs7Body(own), Before: func() { answer(0, "")(); e.ez.Slow(5 * time.Second) },
			Status: 503, Reason: "unavailable", Want: []string{"did not answer within"}, Check: unchanged(true)},
		apitest.Scenario{Name: "status 1", Method: "POST", Path: "/eimzo", Body: pkcs7Body(own), Before: answer(0, ""),
			Status: 200, Want: []string{`"status":"SIGNED"`, `"partyStatus":"ACCEPTED"`}},
	)
	apitest.Run(t, e.page(url), scenarios)
	// E-IMZO-SERVER is told the signer's address and the site's host in
	// each of the headers its versions read.
	last := e.ez.Requests()[len(e.ez.Requests())-1]
	if last.RealIP != "127.0.0.1" || last.Host != "localhost" || last.ForwardedHost != "localhost" || last.RealHost != "localhost" {
		t.Fatalf("last E-IMZO request %+v", last)
	}
}
