package server_test

import (
	"strings"
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// Finding 10 of issue 25: the creator's app opens a session for the
// counterparty and posts the reject action itself. Without the code the
// gateway delivered to the counterparty's phone, nothing changes; with it
// the contract is rejected and the trail names OTP_SMS.
func TestAttackCreatorRejectsInTheCounterpartysName(t *testing.T) {
	e := newTenancy(t)
	appA, _ := e.alphaAndBeta()
	e.ok(e.emb(appA, "POST", "/v1/clients", person(personN, "Aziz", "Karimov", realPh)), "A registers the person")
	id := e.contract(appA, map[string]any{"buyerIn": personN})
	r, tok := e.session(appA, id, personN)
	if r.Status != 200 {
		t.Fatalf("A's session for the buyer: %d %s", r.Status, r.Body)
	}
	unchanged := func(what string) {
		t.Helper()
		if got := e.state(appA, id); got != "CREATED buyer PENDING seller PENDING" {
			t.Fatalf("%s changed the contract: %s", what, got)
		}
	}
	if res := e.page(tok, "reject", nil); res.Status != 400 || !strings.Contains(res.Body, "SMS code") {
		t.Fatalf("reject without a code: %d %s", res.Status, res.Body)
	}
	unchanged("a reject without a code")
	if res := e.page(tok, "reject", map[string]any{"code": "12345"}); res.Status != 400 || res.Header.Get("X-Sign-Reason") != "no-code" {
		t.Fatalf("reject before any code was sent: %d %s", res.Status, res.Body)
	}
	if res := e.page(tok, "code", map[string]any{"intent": "reject"}); res.Status != 200 {
		t.Fatalf("send code: %d %s", res.Status, res.Body)
	}
	sent := e.sms.Newest(t, realPh)
	code := sent.Code(t)
	if !strings.Contains(sent.Text, "to reject contract") {
		t.Fatalf("the code's text %q does not say it rejects", sent.Text)
	}
	if res := e.page(tok, "reject", map[string]any{"code": fixture.NotCode(code)}); res.Status != 400 || res.Header.Get("X-Sign-Reason") != "wrong-code" {
		t.Fatalf("reject with a wrong code: %d %s", res.Status, res.Body)
	}
	unchanged("a reject with a wrong code")
	res := e.page(tok, "reject", map[string]any{"code": code})
	if res.Status != 200 || res.JSON(t)["contractStatus"] != signflow.StatusRejected {
		t.Fatalf("reject with the code: %d %s", res.Status, res.Body)
	}
	if got := e.state(appA, id); got != "REJECTED buyer REJECTED seller PENDING" {
		t.Fatalf("after the confirmed rejection: %s", got)
	}
	trail, err := e.w.Service.AuditTrail(id)
	if err != nil {
		t.Fatal(err)
	}
	last := trail[len(trail)-1]
	if last.Type != signflow.EventRejected || last.Method != signflow.MethodOTP || last.ActorIN != personN {
		t.Fatalf("the rejection's audit event: %+v", last)
	}
}
