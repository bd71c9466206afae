package cabinet_test

import (
	"strings"
	"testing"
	"time"

	"contracts/internal/apitest"
	"contracts/internal/fixture"
	"contracts/internal/testtools"
	"contracts/signflow"
)

// Every state-changing request carries the CSRF token of its page: none,
// a wrong one, another session's or the login page's is 403, and nothing
// changes.
func TestCSRF(t *testing.T) {
	e := newEnv(t, options{})
	id := e.create(t, map[string]any{"buyerIn": fixture.CustomerIN})
	cust, peer, anon := e.browser(t), e.browser(t), e.browser(t)
	cust.login(fixture.CustomerIN, custPhone)
	peer.login(peerIN, peerPhone)
	anon.get("/cabinet")
	loginToken := anon.csrf
	// Each row is a POST refused for its CSRF token, with no SMS sent.
	var sent int
	refused := func(rows ...apitest.Scenario) []apitest.Scenario {
		for i := range rows {
			rows[i].Before = func() { sent = e.SMS.Count() }
			rows[i].Method, rows[i].Body = "POST", map[string]string{"number": fixture.CustomerIN}
			rows[i].Status, rows[i].Reason, rows[i].Want = 403, "csrf", []string{"CSRF"}
			rows[i].Check = func(t *testing.T, _ apitest.Reply) {
				if e.SMS.Count() != sent {
					t.Fatal("an SMS went out")
				}
			}
		}
		return rows
	}
	apitest.Run(t, anon.api, refused(
		apitest.Scenario{Name: "login code, no token", Path: "/cabinet/api/login/code"},
		apitest.Scenario{Name: "login code, wrong token", Path: "/cabinet/api/login/code", As: "bm90LXRoZS10b2tlbg"},
		apitest.Scenario{Name: "login code, a session's token", Path: "/cabinet/api/login/code", As: cust.csrf},
		apitest.Scenario{Name: "login, no token", Path: "/cabinet/api/login"},
	))
	apitest.Run(t, peer.api, refused(
		apitest.Scenario{Name: "cancel, no token", Path: "/cabinet/api/contracts/" + id + "/cancel"},
		apitest.Scenario{Name: "cancel, another session's token", Path: "/cabinet/api/contracts/" + id + "/cancel", As: cust.csrf},
		apitest.Scenario{Name: "cancel, the login page's token", Path: "/cabinet/api/contracts/" + id + "/cancel", As: loginToken},
	))
	apitest.Run(t, cust.api, refused(
		apitest.Scenario{Name: "open signing, wrong token", Path: "/cabinet/api/contracts/" + id + "/signing", As: cust.csrf + "x"},
		apitest.Scenario{Name: "send signing code, no token", Path: "/cabinet/api/signing/code"},
		apitest.Scenario{Name: "reject, no token", Path: "/cabinet/api/signing/reject"},
		apitest.Scenario{Name: "logout, no token", Path: "/cabinet/api/logout"},
	))
	if got := e.StoredContract(t, id); got.Status != signflow.StatusCreated || got.Version != 1 {
		t.Fatalf("the contract changed: %s v%d", got.Status, got.Version)
	}
	if r := cust.get("/cabinet/api/contracts/" + id); r.Status != 200 {
		t.Fatalf("the session ended on a refused logout: %d", r.Status)
	}
}

// A party sees and acts on its own contracts only; another party's is not
// found in the pages and forbidden in the API, whether it exists or not.
func TestPartySeesOnlyItsContracts(t *testing.T) {
	e := newEnv(t, options{})
	mine := e.create(t, map[string]any{"buyerIn": fixture.CustomerIN})
	foreign := e.create(t, map[string]any{"buyerIn": fixture.OtherIN})
	b := e.browser(t)
	b.login(fixture.CustomerIN, custPhone)
	list := b.get("/cabinet")
	if !strings.Contains(list.Body, "/cabinet/contracts/"+mine) || strings.Contains(list.Body, foreign) {
		t.Fatalf("list: want %s and not %s", mine, foreign)
	}
	notFound := []string{"not found"} // the page says so
	apitest.Run(t, b.api, []apitest.Scenario{
		{Name: "page", Path: "/cabinet/contracts/" + foreign, Status: 404, Want: notFound, Not: []string{"Beta Trade"}},
		{Name: "page of no contract", Path: "/cabinet/contracts/00000000-0000-4000-8000-000000000000", Status: 404, Want: notFound,
			Not: []string{"Beta Trade"}},
		{Name: "PDF", Path: "/cabinet/contracts/" + foreign + "/pdf?lang=en", Status: 404, Want: notFound, Not: []string{"Beta Trade"}},
		{Name: "state", Path: "/cabinet/api/contracts/" + foreign, Status: 403, Not: []string{"Beta Trade"}},
		{Name: "open signing", Method: "POST", Path: "/cabinet/api/contracts/" + foreign + "/signing", As: b.csrf, Body: map[string]any{},
			Status: 403, Not: []string{"Beta Trade"}},
		{Name: "cancel", Method: "POST", Path: "/cabinet/api/contracts/" + foreign + "/cancel", As: b.csrf, Body: map[string]any{},
			Status: 403, Not: []string{"Beta Trade"}},
	})
	// A signing token of another party is refused too.
	peer := e.browser(t)
	peer.login(peerIN, peerPhone)
	tok := peer.post("/cabinet/api/contracts/"+mine+"/signing", nil).JSON(t)["token"].(string)
	if r := b.post("/cabinet/api/signing/code", map[string]string{"token": tok}); r.Status != 404 || r.Header.Get("X-Sign-Reason") != "session-not-found" {
		t.Fatalf("another party's signing token: %d %v", r.Status, r.Header)
	}
	if got := e.StoredContract(t, foreign); got.Version != 1 {
		t.Fatalf("the foreign contract changed: v%d", got.Version)
	}
}

// Only the creator cancels, through the state machine, with its webhook.
func TestCancelOnlyByTheCreator(t *testing.T) {
	for _, c := range []struct {
		name, in, phone string
		status          int
		contract        string
	}{
		{name: "counterparty", in: fixture.CustomerIN, phone: custPhone, status: 403, contract: signflow.StatusCreated},
		{name: "creator", in: peerIN, phone: peerPhone, status: 200, contract: signflow.StatusCancelled},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, options{})
			id := e.create(t, map[string]any{"buyerIn": fixture.CustomerIN})
			b := e.browser(t)
			b.login(c.in, c.phone)
			page := b.get("/cabinet/contracts/" + id + "?lang=en")
			if shown := strings.Contains(page.Body, ">Cancel contract<"); shown != (c.status == 200) {
				t.Fatalf("Cancel contract shown: %v", shown)
			}
			if shown := strings.Contains(page.Body, ">Reject<"); shown == (c.status == 200) {
				t.Fatalf("Reject shown: %v (the creator cancels instead)", shown)
			}
			r := b.post("/cabinet/api/contracts/"+id+"/cancel", nil)
			if r.Status != c.status {
				t.Fatalf("cancel: %d %s", r.Status, r.Body)
			}
			got := e.StoredContract(t, id)
			if got.Status != c.contract {
				t.Fatalf("contract %s, want %s", got.Status, c.contract)
			}
			if c.status == 200 {
				if body := r.JSON(t); body["contractStatus"] != "CANCELLED" || body["partyStatus"] != "CANCELLED" {
					t.Fatalf("answer %v", body)
				}
				if events := deliveries(t, e, id); events != "CONTRACT_CREATED CONTRACT_CANCELLED " {
					t.Fatalf("webhooks %q", events)
				}
			}
		})
	}
}

// deliveries lists the events queued for the peer's key, in order.
func deliveries(t *testing.T, e *env, contractID string) string {
	t.Helper()
	ds, err := e.Service.Deliveries(signflow.DeliveryFilter{ContractID: contractID})
	if err != nil {
		t.Fatal(err)
	}
	out := ""
	for _, d := range ds {
		if d.Target == signflow.KeyTarget(e.key.ID) && d.URL == hookURL {
			out += d.Event + " "
		}
	}
	return out
}

// Signing through the API: a wrong code, the right one; the other party
// rejects its own contract through a session too. The same state machine
// and events as the signing page.
func TestSignAndRejectThroughTheAPI(t *testing.T) {
	e := newEnv(t, options{})
	id := e.create(t, map[string]any{"buyerIn": fixture.CustomerIN})
	b := e.browser(t)
	b.login(fixture.CustomerIN, custPhone)
	open := b.post("/cabinet/api/contracts/"+id+"/signing", nil)
	s := open.JSON(t)
	if open.Status != 200 || s["method"] != signflow.MethodOTP || s["expiresIn"] != float64(1800) || s["url"] != nil {
		t.Fatalf("open signing: %d %s", open.Status, open.Body)
	}
	tok := s["token"].(string)
	sent := b.post("/cabinet/api/signing/code", map[string]string{"token": tok})
	if sent.Status != 200 || sent.JSON(t)["phone"] != "+99890*****67" {
		t.Fatalf("send code: %d %s", sent.Status, sent.Body)
	}
	code := lastCode(t, e.SMS, custPhone)
	if r := b.post("/cabinet/api/signing/confirm", map[string]string{"token": tok, "code": fixture.NotCode(code)}); r.Status != 400 || r.Header.Get("X-Attempts-Left") != "4" {
		t.Fatalf("wrong code: %d %v", r.Status, r.Header)
	}
	r := b.post("/cabinet/api/signing/confirm", map[string]string{"token": tok, "code": code})
	if r.Status != 200 || r.JSON(t)["partyStatus"] != "ACCEPTED" || r.JSON(t)["contractStatus"] != "CREATED" {
		t.Fatalf("right code: %d %s", r.Status, r.Body)
	}
	if r := b.post("/cabinet/api/signing/confirm", map[string]string{"token": tok, "code": code}); r.Status != 403 || r.Header.Get("X-Sign-Reason") != "session-closed" {
		t.Fatalf("the used session: %d %v", r.Status, r.Header)
	}
	if r := b.post("/cabinet/api/contracts/"+id+"/signing", nil); r.Status != 400 {
		t.Fatalf("a second signing session for a party that signed: %d", r.Status)
	}
	page := b.get("/cabinet/contracts/" + id)
	if !strings.Contains(page.Body, "You have signed") || strings.Contains(page.Body, `data-action="sign"`) {
		t.Fatal("the page after signing still offers Sign")
	}

	// Another contract, rejected by the customer.
	id2 := e.create(t, map[string]any{"buyerIn": fixture.CustomerIN})
	tok2 := b.post("/cabinet/api/contracts/"+id2+"/signing", nil).JSON(t)["token"].(string)
	r = b.post("/cabinet/api/signing/reject", map[string]string{"token": tok2})
	if r.Status != 200 || r.JSON(t)["contractStatus"] != "REJECTED" || r.JSON(t)["partyStatus"] != "REJECTED" {
		t.Fatalf("reject: %d %s", r.Status, r.Body)
	}
	if events := deliveries(t, e, id2); events != "CONTRACT_CREATED CONTRACT_REJECTED " {
		t.Fatalf("webhooks %q", events)
	}
	// The audit trail names the confirmation each act had: the rejection,
	// the cabinet login; the signature, the SMS code.
	var actors []string
	events, _ := e.Service.AuditTrail(id2)
	for _, ev := range events {
		actors = append(actors, ev.Type+":"+ev.ActorIN+":"+ev.Method)
	}
	if strings.Join(actors, " ") != "CONTRACT_CREATED:"+peerIN+": SESSION_OPENED:"+fixture.CustomerIN+": CONTRACT_REJECTED:"+fixture.CustomerIN+":CABINET_LOGIN" {
		t.Fatalf("audit %v", actors)
	}
	signedEvents, _ := e.Service.AuditTrail(id)
	for _, ev := range signedEvents {
		if want := map[string]string{signflow.EventSigned: signflow.MethodOTP}[ev.Type]; ev.Method != want {
			t.Errorf("audit %s: method %q, want %q", ev.Type, ev.Method, want)
		}
	}
}

// The list: contracts awaiting the party first, then those awaiting the
// other party, then the decided ones; with counterpart, amount and status.
func TestListOrderAndContent(t *testing.T) {
	e := newEnv(t, options{})
	b := e.browser(t)
	b.login(fixture.CustomerIN, custPhone)
	if r := b.get("/cabinet?lang=en"); !strings.Contains(r.Body, "No contracts yet") {
		t.Fatal("no empty state")
	}
	signed := e.create(t, map[string]any{"buyerIn": fixture.CustomerIN})
	e.Clock.Advance(time.Second)
	rejected := e.create(t, map[string]any{"buyerIn": fixture.CustomerIN})
	e.Clock.Advance(time.Second)
	waiting := e.create(t, map[string]any{"buyerIn": fixture.CustomerIN, "price": 4650000})
	tok := b.post("/cabinet/api/contracts/"+signed+"/signing", nil).JSON(t)["token"].(string)
	b.post("/cabinet/api/signing/code", map[string]string{"token": tok})
	b.post("/cabinet/api/signing/confirm", map[string]string{"token": tok, "code": lastCode(t, e.SMS, custPhone)})
	tok = b.post("/cabinet/api/contracts/"+rejected+"/signing", nil).JSON(t)["token"].(string)
	b.post("/cabinet/api/signing/reject", map[string]string{"token": tok})

	body := b.get("/cabinet").Body
	iw, is, ir := strings.Index(body, waiting), strings.Index(body, signed), strings.Index(body, rejected)
	if iw < 0 || is < 0 || ir < 0 || !(iw < is && is < ir) {
		t.Fatalf("order: waiting %d, signed %d, rejected %d", iw, is, ir)
	}
	for _, want := range []string{"Awaiting your signature", "You have signed; awaiting the other party", "Rahimova Dilnoza",
		"46\u00a0500.00\u00a0UZS", "Sales contract", "Seller: <strong>Rahimova Dilnoza</strong>", "Awaiting signatures", "Decided", ">Rejected<"} {
		if !strings.Contains(body, want) {
			t.Errorf("list lacks %q", want)
		}
	}
}

// The language: ?lang= on any page, remembered in a cookie; else
// Accept-Language; else Uzbek. The login SMS follows it.
func TestLanguage(t *testing.T) {
	e := newEnv(t, options{})
	b := e.browser(t)
	accept := func(v string) map[string]string { return map[string]string{"Accept-Language": v} }
	uz, ru, en := []string{`<html lang="uz">`, "Kabinetga kirish"}, []string{`<html lang="ru">`, "Вход в кабинет"},
		[]string{`<html lang="en">`, "Log in to your cabinet"}
	apitest.Run(t, b.api, []apitest.Scenario{
		{Name: "Uzbek by default", Path: "/cabinet", Status: 200, Want: uz},
		{Name: "Accept-Language", Path: "/cabinet", Header: accept("ru-RU,ru;q=0.9"), Status: 200, Want: ru},
		{Name: "lang before Accept-Language", Path: "/cabinet?lang=en", Header: accept("ru"), Status: 200, Want: en},
		{Name: "remembered", Path: "/cabinet", Header: accept("ru"), Status: 200, Want: en},
		{Name: "unknown lang keeps the remembered", Path: "/cabinet?lang=xx", Status: 200, Want: en},
		{Name: "lang again", Path: "/cabinet?lang=ru", Status: 200, Want: ru},
	})
	b.post("/cabinet/api/login/code", map[string]string{"number": fixture.CustomerIN})
	if m := e.SMS.Newest(t, custPhone); !strings.HasPrefix(m.Text, "Код для входа в кабинет") {
		t.Fatalf("login SMS %q", m.Text)
	}
}

// The PDF in each language, of the party's contract.
func TestPDF(t *testing.T) {
	e := newEnv(t, options{})
	id := e.create(t, map[string]any{"buyerIn": fixture.CustomerIN})
	number := e.StoredContract(t, id).Number
	b := e.browser(t)
	b.login(fixture.CustomerIN, custPhone)
	for lang, label := range map[string]string{"uz": "Shartnoma raqami", "ru": "Номер договора", "en": "Contract number"} {
		r := b.get("/cabinet/contracts/" + id + "/pdf?lang=" + lang)
		if r.Status != 200 || r.Header.Get("Content-Type") != "application/pdf" ||
			r.Header.Get("Content-Disposition") != `attachment; filename="contract-`+number+`-`+lang+`.pdf"` {
			t.Fatalf("%s: %d %v", lang, r.Status, r.Header)
		}
		text := testtools.PDFText(t, []byte(r.Body))
		if !strings.Contains(text, label) || !strings.Contains(text, number) {
			t.Fatalf("%s PDF text lacks %q or the number:\n%s", lang, label, text)
		}
	}
}

// Pages keep to their own files and out of frames and caches; the static
// files are served with their types.
func TestPagesAndFiles(t *testing.T) {
	e := newEnv(t, options{})
	b := e.browser(t)
	apitest.Run(t, b.api, []apitest.Scenario{
		{Name: "login page", Path: "/cabinet", Status: 200, WantHeader: map[string]string{"Content-Type": "text/html; charset=UTF-8",
			"X-Frame-Options": "DENY", "Cache-Control": "no-store",
			"Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"}},
		{Name: "trailing slash", Path: "/cabinet/", Status: 301, WantHeader: map[string]string{"Location": "/cabinet"}},
		{Name: "script", Path: "/cabinet/assets/cabinet.js", Status: 200,
			WantHeader: map[string]string{"Content-Type": "text/javascript; charset=utf-8", "X-Content-Type-Options": "nosniff"}},
		{Name: "style", Path: "/cabinet/assets/cabinet.css", Status: 200, WantHeader: map[string]string{"Content-Type": "text/css; charset=utf-8"}},
		{Name: "signing steps' style", Path: "/cabinet/assets/sign.css", Status: 200, WantHeader: map[string]string{"Content-Type": "text/css; charset=utf-8"}},
		{Name: "template not served", Path: "/cabinet/assets/page.html", Status: 404},
		{Name: "a contract without a session", Path: "/cabinet/contracts/" + signflow.NewID(), Status: 303, WantHeader: map[string]string{"Location": "/cabinet"}},
	})
}
