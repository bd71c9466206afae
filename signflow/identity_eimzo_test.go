package signflow_test

import (
	"context"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"
	"contracts/signflow/eimzo"
	"contracts/signflow/eimzo/eimzotest"
)

// A company signs with its own E-IMZO key: the contract party is ACCEPTED,
// the client verified, the session SIGNED, and the E-IMZO server was told
// the signer's IP and the site.
func TestSignWithEIMZO(t *testing.T) {
	w := newIDWorld(t, 0)
	c, sess, token := w.open(t, fixture.OwnerIN)
	if sess.Method != signflow.MethodEIMZO {
		t.Fatalf("method %s", sess.Method)
	}
	p7 := eimzotest.Sign(c.Hash, eimzotest.Key{TIN: fixture.OwnerIN, PINFL: "30101010101010", CN: "Alpha Savdo MChJ"})
	before := w.snapshot(t, c, sess, fixture.OwnerIN)
	res, err := w.svc.SignWithEIMZO(context.Background(), token, p7, w.actor)
	if err != nil {
		t.Fatal(err)
	}
	if res.Session.Status != signflow.SessionSigned || res.Contract.SellerStatus != signflow.PartyAccepted ||
		res.Contract.Signatures[fixture.OwnerIN].Method != signflow.MethodEIMZO {
		t.Fatalf("result %+v / %+v", res.Session, res.Contract)
	}
	after := w.snapshot(t, c, sess, fixture.OwnerIN)
	if before.verified || !after.verified || after.status != signflow.SessionSigned || after.deliveries != before.deliveries+1 {
		t.Fatalf("after signing %+v", after)
	}
	reqs := w.ez.Requests()
	if len(reqs) != 2 || reqs[1].Path != eimzo.VerifyPath || reqs[1].RealIP != "203.0.113.7" || reqs[1].Host != "localhost" {
		t.Fatalf("E-IMZO calls %+v", reqs)
	}
	_, err = w.svc.SignWithEIMZO(context.Background(), token, p7, w.actor)
	wantCode(t, err, signflow.EFORBIDDEN, "closed")
}

// Refused signatures and a failing server change nothing.
func TestSignWithEIMZORefusals(t *testing.T) {
	for _, tc := range []struct {
		name    string
		sign    func(hash string) string
		set     func(*eimzotest.Server)
		code    string
		message string
	}{
		{name: "foreign certificate", sign: func(h string) string { return eimzotest.Sign(h, eimzotest.Key{TIN: fixture.OtherIN}) },
			code: signflow.EINVALID, message: "certificate of taxpayer 309876543, not of the signer 301234567"},
		{name: "invalid signature", sign: func(h string) string { return eimzotest.Tamper(eimzotest.Sign(h, eimzotest.Key{TIN: fixture.OwnerIN})) },
			code: signflow.EINVALID, message: "not valid"},
		{name: "other content", sign: func(string) string { return eimzotest.Sign("another text", eimzotest.Key{TIN: fixture.OwnerIN}) },
			code: signflow.EINVALID, message: "not over this contract"},
		{name: "not a signature", sign: func(string) string { return "hello" },
			code: signflow.EINVALID, message: "not an E-IMZO PKCS#7"},
		{name: "server down", sign: func(h string) string { return eimzotest.Sign(h, eimzotest.Key{TIN: fixture.OwnerIN}) },
			set: func(s *eimzotest.Server) { s.Close() }, code: signflow.EUNAVAILABLE, message: "could not be reached"},
		{name: "server 500", sign: func(h string) string { return eimzotest.Sign(h, eimzotest.Key{TIN: fixture.OwnerIN}) },
			set: func(s *eimzotest.Server) { s.Fail(500) }, code: signflow.EUNAVAILABLE, message: "HTTP 500"},
		{name: "server time-out", sign: func(h string) string { return eimzotest.Sign(h, eimzotest.Key{TIN: fixture.OwnerIN}) },
			set: func(s *eimzotest.Server) { s.Slow(5 * time.Second) }, code: signflow.EUNAVAILABLE, message: "did not answer within 150ms"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newIDWorld(t, 150*time.Millisecond)
			c, sess, token := w.open(t, fixture.OwnerIN)
			before := w.snapshot(t, c, sess, fixture.OwnerIN)
			if tc.set != nil {
				tc.set(w.ez)
			}
			_, err := w.svc.SignWithEIMZO(context.Background(), token, tc.sign(c.Hash), w.actor)
			wantCode(t, err, tc.code, tc.message)
			after := w.snapshot(t, c, sess, fixture.OwnerIN)
			if after != before || after.status != signflow.SessionPending {
				t.Fatalf("a refusal changed %+v into %+v", before, after)
			}
		})
	}
}

// E-IMZO signing needs an open E_IMZO session and a configured verifier.
func TestSignWithEIMZONeedsAnEIMZOSession(t *testing.T) {
	w := newIDWorld(t, 0)
	c, _, customerToken := w.open(t, fixture.CustomerIN) // an individual signs with MY_ID
	p7 := eimzotest.Sign(c.Hash, eimzotest.Key{PINFL: fixture.CustomerIN})
	_, err := w.svc.SignWithEIMZO(context.Background(), customerToken, p7, w.actor)
	wantCode(t, err, signflow.EINVALID, "not signed with E-IMZO")
	_, err = w.svc.SignWithEIMZO(context.Background(), "unknown", p7, w.actor)
	wantCode(t, err, signflow.ENOTFOUND, "not found")

	bare := signflow.NewService(w.DB, w.Options)
	_, _, token := w.open(t, fixture.OwnerIN)
	_, err = bare.SignWithEIMZO(context.Background(), token, p7, w.actor)
	wantCode(t, err, signflow.EINVALID, "E_IMZO is not configured")
	if len(w.ez.Requests()) != 0 {
		t.Fatal("a refused session reached the E-IMZO server")
	}
}
