package signpage_test

import (
	"strings"
	"testing"

	"contracts/internal/apitest"
	"contracts/internal/fixture"
	"contracts/signflow"
	"contracts/signflow/eimzo/eimzotest"
	"contracts/signflow/idp/idptest"
)

// An E_IMZO signer rejects with its E-IMZO signature of "REJECT:" and the
// document hash, checked by the (fake) E-IMZO server: no signature, the
// signature of the contract itself, or another company's key change
// nothing; a rejection's signature does not sign either. The trail names
// E_IMZO and the certificate.
func TestEIMZORejection(t *testing.T) {
	e := newEnvWith(t, envOptions{outside: true})
	c, sess, url := e.openCompany(t, signflow.SessionRequest{Lang: "en"})
	own := eimzotest.Key{TIN: fixture.OwnerIN, CN: "ALPHA SAVDO MCHJ"}
	reject := signflow.RejectContent(c.Hash)
	before := e.snap(t, c.ID, sess.ID, fixture.OwnerIN)
	unchanged := func(t *testing.T, _ apitest.Reply) {
		t.Helper()
		if now := e.snap(t, c.ID, sess.ID, fixture.OwnerIN); now != before {
			t.Fatalf("a refusal changed %+v into %+v", before, now)
		}
	}
	apitest.Run(t, e.page(url), []apitest.Scenario{
		{Name: "no signature", Method: "POST", Path: "/reject", Body: "{}", Status: 400, Want: []string{"pkcs7", "REJECT:"}, Check: unchanged},
		{Name: "an SMS code", Method: "POST", Path: "/reject", Body: `{"code":"12345"}`, Status: 400, Want: []string{"not confirmed with an SMS code"}, Check: unchanged},
		{Name: "the contract's signature", Method: "POST", Path: "/reject", Body: pkcs7Body(eimzotest.Sign(c.Hash, own)), Status: 400,
			Reason: "signature-refused", Want: []string{"not over this contract", reject}, Check: unchanged},
		{Name: "another company's key", Method: "POST", Path: "/reject", Body: pkcs7Body(eimzotest.Sign(reject, eimzotest.Key{TIN: fixture.OtherIN, CN: "BETA TRADE"})),
			Status: 400, Reason: "signature-refused", Check: unchanged},
		{Name: "the rejection does not sign", Method: "POST", Path: "/eimzo", Body: pkcs7Body(eimzotest.Sign(reject, own)), Status: 400,
			Reason: "signature-refused", Check: unchanged},
		{Name: "server fails", Method: "POST", Before: func() { e.ez.Fail(500) }, Path: "/reject", Body: pkcs7Body(eimzotest.Sign(reject, own)),
			Status: 503, Reason: "unavailable", Check: unchanged},
	})
	e.ez.Fail(0)
	apitest.Run(t, e.page(url), []apitest.Scenario{
		{Name: "own key", Method: "POST", Path: "/reject", Body: pkcs7Body(eimzotest.Sign(reject, own)), Status: 200,
			Want: []string{`"status":"REJECTED"`, `"contractStatus":"CANCELLED"`, `"sessionId":"` + sess.ID}},
		{Name: "again", Method: "POST", Path: "/reject", Body: pkcs7Body(eimzotest.Sign(reject, own)), Status: 403, Reason: "session-closed"},
	})
	trail, err := e.Service.AuditTrail(c.ID)
	if err != nil {
		t.Fatal(err)
	}
	last := trail[len(trail)-1]
	if last.Type != signflow.EventCancelled || last.Method != signflow.MethodEIMZO || last.ActorIN != fixture.OwnerIN || !strings.Contains(last.Detail, "ALPHA SAVDO MCHJ") {
		t.Fatalf("the rejection's audit event %+v", last)
	}
}

// A MY_ID signer rejects through the identity check started with intent
// reject: the callback rejects instead of signing, says so, and the trail
// names MY_ID. Without the check, or with an intent of no meaning,
// nothing changes.
func TestIdentityRejection(t *testing.T) {
	e := newEnvWith(t, envOptions{outside: true})
	c := e.contractOf(t, e.myidT)
	sess, page := e.open(t, c.ID, signflow.SessionRequest{SignerIN: fixture.CustomerIN, Lang: "en"})
	before := e.snap(t, c.ID, sess.ID, fixture.CustomerIN)
	unchanged := func(t *testing.T, _ apitest.Reply) {
		t.Helper()
		if now := e.snap(t, c.ID, sess.ID, fixture.CustomerIN); now != before {
			t.Fatalf("a refusal changed %+v into %+v", before, now)
		}
	}
	apitest.Run(t, e.page(page), []apitest.Scenario{
		{Name: "reject unconfirmed", Method: "POST", Path: "/reject", Body: "{}", Status: 400, Want: []string{"identity check"}, Check: unchanged},
		{Name: "unknown intent", Method: "POST", Path: "/identity", Body: `{"intent":"cancel"}`, Status: 400, Want: []string{"intent"}, Check: unchanged},
	})
	start := e.do(t, "POST", page+"/identity", `{"intent":"reject"}`)
	authURL, _ := start.JSON(t)["authUrl"].(string)
	if start.Status != 200 || authURL == "" {
		t.Fatalf("start: %d %s", start.Status, start.Body)
	}
	cb := e.callback(t, codeState(idptest.Login(t, authURL)))
	result, _ := cb.msg["result"].(map[string]any)
	if cb.Status != 200 || cb.msg["ok"] != true || result["status"] != signflow.SessionRejected || result["contractStatus"] != signflow.StatusRejected ||
		!strings.Contains(cb.Body, "Contract rejected") || !strings.Contains(cb.Body, "your refusal recorded") {
		t.Fatalf("callback %d %v\n%s", cb.Status, cb.msg, cb.Body)
	}
	after := e.snap(t, c.ID, sess.ID, fixture.CustomerIN)
	if after.party != signflow.PartyRejected || after.sess != signflow.SessionRejected || after.stateHeld {
		t.Fatalf("after the callback %+v", after)
	}
	if sig := e.StoredContract(t, c.ID).Signatures[fixture.CustomerIN]; sig != nil {
		t.Fatalf("a rejection left a signature %+v", sig)
	}
	trail, err := e.Service.AuditTrail(c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if last := trail[len(trail)-1]; last.Type != signflow.EventRejected || last.Method != signflow.MethodMyID || last.ActorIN != fixture.CustomerIN {
		t.Fatalf("the rejection's audit event %+v", last)
	}
}
