package embedded

import (
	"strings"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"
)

func TestSignSessions(t *testing.T) {
	e := newEnv(t, 0)
	tok := e.token(e.AppA)
	id := e.createContract(tok, map[string]any{"templateId": e.Template.ID, "buyerIn": fixture.CustomerIN})
	unregistered := e.createContract(tok, map[string]any{"templateId": e.Template.ID, "buyerIn": fixture.UnknownIN})
	cancelled := e.createContract(tok, map[string]any{"templateId": e.Template.ID, "buyerIn": fixture.CustomerIN})
	if r := e.do("POST", "/v1/contracts/"+cancelled+"/cancel", tok, nil); r.status != 200 {
		t.Fatalf("cancel: %d %s", r.status, r)
	}
	path := "/v1/contracts/" + id + "/sign-sessions"
	e.run(t, []scenario{
		{name: "customer signs by SMS", method: "POST", path: path, token: tok,
			body:   map[string]any{"signerIn": fixture.CustomerIN, "lang": "ru", "parentOrigin": "https://shop.example", "redirectUrl": "https://shop.example/done"},
			status: 200, want: []string{`"url":"` + testBaseURL + `/sign/`, `"method":"OTP_SMS"`, `"status":"PENDING"`,
				`"expiresAt":"2026-11-22T09:30:00Z"`, `"id":"`}},
		{name: "company owner signs by E-IMZO", method: "POST", path: path, token: tok, body: map[string]any{"signerIn": fixture.OwnerIN},
			status: 200, want: []string{`"method":"E_IMZO"`}},
		{name: "signer not a party", method: "POST", path: path, token: tok, body: map[string]any{"signerIn": fixture.OtherIN},
			status: 400, want: []string{"signerIn: not a party"}},
		{name: "signerIn missing", method: "POST", path: path, token: tok, body: map[string]any{"lang": "uz"},
			status: 400, want: []string{"signerIn: required"}},
		{name: "lang unknown", method: "POST", path: path, token: tok, body: map[string]any{"signerIn": fixture.CustomerIN, "lang": "de"},
			status: 400, want: []string{"lang"}},
		{name: "parentOrigin not an origin", method: "POST", path: path, token: tok,
			body: map[string]any{"signerIn": fixture.CustomerIN, "parentOrigin": "https://shop.example/page"}, status: 400, want: []string{"parentOrigin"}},
		{name: "SMS signer without a phone", method: "POST", path: "/v1/contracts/" + unregistered + "/sign-sessions", token: tok,
			body: map[string]any{"signerIn": fixture.UnknownIN}, status: 400, want: []string{"no registered phone"}},
		{name: "contract not CREATED", method: "POST", path: "/v1/contracts/" + cancelled + "/sign-sessions", token: tok,
			body: map[string]any{"signerIn": fixture.CustomerIN}, status: 400, want: []string{"CANCELLED"}},
		{name: "unknown contract", method: "POST", path: "/v1/contracts/" + signflow.NewID() + "/sign-sessions", token: tok,
			body: map[string]any{"signerIn": fixture.CustomerIN}, status: 404},
		{name: "malformed contract id", method: "POST", path: "/v1/contracts/zz/sign-sessions", token: tok,
			body: map[string]any{"signerIn": fixture.CustomerIN}, status: 404},
		{name: "empty body", method: "POST", path: path, token: tok, body: "", status: 400},
		{name: "unknown session", method: "GET", path: "/v1/sign-sessions/" + signflow.NewID(), token: tok, status: 404,
			want: []string{"Session not found."}},
	})

	// The status route reads the session, and EXPIRED once expiresAt passes.
	opened := e.do("POST", path, tok, map[string]any{"signerIn": fixture.CustomerIN}).json(t)
	sid := opened["id"].(string)
	if tokenPart := strings.TrimPrefix(opened["url"].(string), testBaseURL+"/sign/"); len(tokenPart) < 40 {
		t.Fatalf("session url %v", opened["url"])
	}
	r := e.do("GET", "/v1/sign-sessions/"+sid, tok, nil)
	body := r.json(t)
	assertKeys(t, body, "id", "contractId", "signerIn", "status", "method", "expiresAt", "completedAt")
	if body["id"] != sid || body["contractId"] != id || body["signerIn"] != fixture.CustomerIN || body["status"] != "PENDING" ||
		body["method"] != "OTP_SMS" || body["expiresAt"] != "2026-11-22T09:30:00Z" || body["completedAt"] != nil {
		t.Fatalf("session status: %s", r)
	}
	e.Clock.Advance(30 * time.Minute)
	if got := e.do("GET", "/v1/sign-sessions/"+sid, tok, nil).json(t)["status"]; got != "EXPIRED" {
		t.Fatalf("after expiresAt: %v", got)
	}
	// A new session replaces the expired one.
	if r := e.do("POST", path, tok, map[string]any{"signerIn": fixture.CustomerIN}); r.status != 200 || !strings.Contains(r.String(), `"expiresAt":"2026-11-22T10:00:00Z"`) {
		t.Fatalf("reopen: %d %s", r.status, r)
	}
}

// A party that has signed cannot get a second session; a finished
// session reports its completion time.
func TestSessionOfSignedParty(t *testing.T) {
	e := newEnv(t, 0)
	tok := e.token(e.AppA)
	id := e.createContract(tok, map[string]any{"templateId": e.Template.ID, "buyerIn": fixture.CustomerIN})
	sid := e.do("POST", "/v1/contracts/"+id+"/sign-sessions", tok, map[string]any{"signerIn": fixture.CustomerIN}).json(t)["id"].(string)
	fixture.Must(t, func() error {
		return e.DB.Update(func(tx signflow.Tx) error {
			c, err := tx.Contract(id)
			if err != nil {
				return err
			}
			s, err := tx.Session(sid)
			if err != nil {
				return err
			}
			now := e.Clock.Now()
			if _, err := c.Sign(fixture.CustomerIN, signflow.Signature{Method: s.Method, At: now, SessionID: sid}, now); err != nil {
				return err
			}
			s.Status, s.CompletedAt = signflow.SessionSigned, &now
			if err := tx.PutSession(s); err != nil {
				return err
			}
			return tx.PutContract(c)
		})
	})
	e.Clock.Advance(time.Hour)
	r := e.do("GET", "/v1/sign-sessions/"+sid, e.token(e.AppA), nil)
	if b := r.json(t); b["status"] != "SIGNED" || b["completedAt"] != "2026-11-22T09:00:00Z" {
		t.Fatalf("signed session: %s", r)
	}
	r = e.do("POST", "/v1/contracts/"+id+"/sign-sessions", e.token(e.AppA), map[string]any{"signerIn": fixture.CustomerIN})
	if r.status != 400 || !strings.Contains(r.String(), "already signed") {
		t.Fatalf("second session for a signed party: %d %s", r.status, r)
	}
}
