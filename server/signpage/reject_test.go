package signpage_test

import (
	"strings"
	"testing"

	"contracts/internal/apitest"
	"contracts/internal/fixture"
	"contracts/signflow"
	"contracts/signflow/eimzo/eimzotest"
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
