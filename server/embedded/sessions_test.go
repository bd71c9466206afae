package embedded

import (
	"strings"
	"testing"
	"time"

	"contracts/internal/apitest"
	"contracts/internal/fixture"
	"contracts/signflow"
)

func TestSignSessions(t *testing.T) {
	e := newEnv(t, 0)
	tok := e.token(e.AppA)
	id := e.createContract(tok, map[string]any{"templateId": e.Template.ID, "buyerIn": fixture.CustomerIN})
	unregistered := e.createContract(tok, map[string]any{"templateId": e.Template.ID, "buyerIn": fixture.UnknownIN})
	cancelled := e.createContract(tok, map[string]any{"templateId": e.Template.ID, "buyerIn": fixture.CustomerIN})
	if r := e.do("POST", "/v1/contracts/"+cancelled+"/cancel", tok, nil); r.Status != 200 {
		t.Fatalf("cancel: %d %s", r.Status, r)
	}
	path := "/v1/contracts/" + id + "/sign-sessions"
	apitest.Run(t, e.api, []apitest.Scenario{
		{Name: "customer signs by SMS", Method: "POST", Path: path, As: tok,
			Body:   map[string]any{"signerIn": fixture.CustomerIN, "lang": "ru", "parentOrigin": "https://shop.example", "redirectUrl": "https://shop.example/done"},
			Status: 200, Want: []string{`"url":"` + testBaseURL + `/sign/`, `"method":"OTP_SMS"`, `"status":"PENDING"`,
				`"expiresAt":"2026-11-22T09:30:00Z"`, `"id":"`}},
		{Name: "company owner signs by E-IMZO", Method: "POST", Path: path, As: tok, Body: map[string]any{"signerIn": fixture.OwnerIN},
			Status: 200, Want: []string{`"method":"E_IMZO"`}},
		{Name: "signer not a party", Method: "POST", Path: path, As: tok, Body: map[string]any{"signerIn": fixture.OtherIN},
			Status: 400, Want: []string{"signerIn: not a party"}},
		{Name: "signerIn missing", Method: "POST", Path: path, As: tok, Body: map[string]any{"lang": "uz"},
			Status: 400, Want: []string{"signerIn: required"}},
		{Name: "lang unknown", Method: "POST", Path: path, As: tok, Body: map[string]any{"signerIn": fixture.CustomerIN, "lang": "de"},
			Status: 400, Want: []string{"lang"}},
		{Name: "parentOrigin not an origin", Method: "POST", Path: path, As: tok,
			Body: map[string]any{"signerIn": fixture.CustomerIN, "parentOrigin": "https://shop.example/page"}, Status: 400, Want: []string{"parentOrigin"}},
		{Name: "SMS signer without a phone", Method: "POST", Path: "/v1/contracts/" + unregistered + "/sign-sessions", As: tok,
			Body: map[string]any{"signerIn": fixture.UnknownIN}, Status: 400, Want: []string{"no registered phone"}},
		{Name: "contract not CREATED", Method: "POST", Path: "/v1/contracts/" + cancelled + "/sign-sessions", As: tok,
			Body: map[string]any{"signerIn": fixture.CustomerIN}, Status: 400, Want: []string{"CANCELLED"}},
		{Name: "unknown contract", Method: "POST", Path: "/v1/contracts/" + signflow.NewID() + "/sign-sessions", As: tok,
			Body: map[string]any{"signerIn": fixture.CustomerIN}, Status: 404},
		{Name: "malformed contract id", Method: "POST", Path: "/v1/contracts/zz/sign-sessions", As: tok,
			Body: map[string]any{"signerIn": fixture.CustomerIN}, Status: 404},
		{Name: "empty body", Method: "POST", Path: path, As: tok, Body: "", Status: 400},
		{Name: "unknown session", Method: "GET", Path: "/v1/sign-sessions/" + signflow.NewID(), As: tok, Status: 404,
			Want: []string{"Session not found."}},
	})

	// The status route reads the session, and EXPIRED once expiresAt passes.
	opened := e.do("POST", path, tok, map[string]any{"signerIn": fixture.CustomerIN}).JSON(t)
	sid := opened["id"].(string)
	if tokenPart := strings.TrimPrefix(opened["url"].(string), testBaseURL+"/sign/"); len(tokenPart) < 40 {
		t.Fatalf("session url %v", opened["url"])
	}
	r := e.do("GET", "/v1/sign-sessions/"+sid, tok, nil)
	body := r.JSON(t)
	assertKeys(t, body, "id", "contractId", "signerIn", "status", "method", "expiresAt", "completedAt")
	if body["id"] != sid || body["contractId"] != id || body["signerIn"] != fixture.CustomerIN || body["status"] != "PENDING" ||
		body["method"] != "OTP_SMS" || body["expiresAt"] != "2026-11-22T09:30:00Z" || body["completedAt"] != nil {
		t.Fatalf("session status: %s", r)
	}
	e.Clock.Advance(30 * time.Minute)
	if got := e.do("GET", "/v1/sign-sessions/"+sid, tok, nil).JSON(t)["status"]; got != "EXPIRED" {
		t.Fatalf("after expiresAt: %v", got)
	}
	// A new session replaces the expired one.
	if r := e.do("POST", path, tok, map[string]any{"signerIn": fixture.CustomerIN}); r.Status != 200 || !strings.Contains(r.String(), `"expiresAt":"2026-11-22T10:00:00Z"`) {
		t.Fatalf("reopen: %d %s", r.Status, r)
	}
}

// A party that has signed cannot get a second session; a finished
// session reports its completion time.
func TestSessionOfSignedParty(t *testing.T) {
	e := newEnv(t, 0)
	tok := e.token(e.AppA)
	id := e.createContract(tok, map[string]any{"templateId": e.Template.ID, "buyerIn": fixture.CustomerIN})
	sid := e.do("POST", "/v1/contracts/"+id+"/sign-sessions", tok, map[string]any{"signerIn": fixture.CustomerIN}).JSON(t)["id"].(string)
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
	if b := r.JSON(t); b["status"] != "SIGNED" || b["completedAt"] != "2026-11-22T09:00:00Z" {
		t.Fatalf("signed session: %s", r)
	}
	r = e.do("POST", "/v1/contracts/"+id+"/sign-sessions", e.token(e.AppA), map[string]any{"signerIn": fixture.CustomerIN})
	if r.Status != 400 || !strings.Contains(r.String(), "already signed") {
		t.Fatalf("second session for a signed party: %d %s", r.Status, r)
	}
}
