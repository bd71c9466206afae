package cabinet_test

import (
	"strings"
	"testing"
	"time"

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
	for _, c := range []struct {
		name, path string
		b          *browser
		token      string
	}{
		{"login code, no token", "/cabinet/api/login/code", anon, ""},
		{"login code, wrong token", "/cabinet/api/login/code", anon, "bm90LXRoZS10b2tlbg"},
		{"login code, a session's token", "/cabinet/api/login/code", anon, cust.csrf},
		{"login, no token", "/cabinet/api/login", anon, ""},
		{"cancel, no token", "/cabinet/api/contracts/" + id + "/cancel", peer, ""},
		{"cancel, another session's token", "/cabinet/api/contracts/" + id + "/cancel", peer, cust.csrf},
		{"cancel, the login page's token", "/cabinet/api/contracts/" + id + "/cancel", peer, loginToken},
		{"open signing, wrong token", "/cabinet/api/contracts/" + id + "/signing", cust, cust.csrf + "x"},
		{"send signing code, no token", "/cabinet/api/signing/code", cust, ""},
		{"reject, no token", "/cabinet/api/signing/reject", cust, ""},
		{"logout, no token", "/cabinet/api/logout", cust, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			sms := e.SMS.Count()
			r := c.b.do("POST", c.path, map[string]string{"number": fixture.CustomerIN}, c.token)
			if r.status != 403 || r.header.Get("X-Sign-Reason") != "csrf" || !strings.Contains(r.body, "CSRF") {
				t.Fatalf("%d %v %s", r.status, r.header, r.body)
			}
			if e.SMS.Count() != sms {
				t.Fatal("an SMS went out")
			}
		})
	}
	if got := e.reload(t, id); got.Status != signflow.StatusCreated || got.Version != 1 {
		t.Fatalf("the contract changed: %s v%d", got.Status, got.Version)
	}
	if r := cust.get("/cabinet/api/contracts/" + id); r.status != 200 {
		t.Fatalf("the session ended on a refused logout: %d", r.status)
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
	if !strings.Contains(list.body, "/cabinet/contracts/"+mine) || strings.Contains(list.body, foreign) {
		t.Fatalf("list: want %s and not %s", mine, foreign)
	}
	for _, c := range []struct {
		name, method, path string
		status             int
	}{
		{"page", "GET", "/cabinet/contracts/" + foreign, 404},
		{"page of no contract", "GET", "/cabinet/contracts/00000000-0000-4000-8000-000000000000", 404},
		{"PDF", "GET", "/cabinet/contracts/" + foreign + "/pdf?lang=en", 404},
		{"state", "GET", "/cabinet/api/contracts/" + foreign, 403},
		{"open signing", "POST", "/cabinet/api/contracts/" + foreign + "/signing", 403},
		{"cancel", "POST", "/cabinet/api/contracts/" + foreign + "/cancel", 403},
	} {
		t.Run(c.name, func(t *testing.T) {
			var r reply
			if c.method == "GET" {
				r = b.get(c.path)
			} else {
				r = b.post(c.path, nil)
			}
			if r.status != c.status || strings.Contains(r.body, "Beta Trade") {
				t.Fatalf("%d %s", r.status, r.body)
			}
			if c.status == 404 && c.method == "GET" && !strings.HasPrefix(c.path, "/cabinet/api") && !strings.Contains(r.body, "Contract not found") && !strings.Contains(r.body, "not found") {
				t.Fatalf("no not-found answer: %s", r.body)
			}
		})
	}
	// A signing token of another party is refused too.
	peer := e.browser(t)
	peer.login(peerIN, peerPhone)
	tok := peer.post("/cabinet/api/contracts/"+mine+"/signing", nil).json(t)["token"].(string)
	if r := b.post("/cabinet/api/signing/code", map[string]string{"token": tok}); r.status != 404 || r.header.Get("X-Sign-Reason") != "session-not-found" {
		t.Fatalf("another party's signing token: %d %v", r.status, r.header)
	}
	if got := e.reload(t, foreign); got.Version != 1 {
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
		{"counterparty", fixture.CustomerIN, custPhone, 403, signflow.StatusCreated},
		{"creator", peerIN, peerPhone, 200, signflow.StatusCancelled},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, options{})
			id := e.create(t, map[string]any{"buyerIn": fixture.CustomerIN})
			b := e.browser(t)
			b.login(c.in, c.phone)
			page := b.get("/cabinet/contracts/" + id + "?lang=en")
			if shown := strings.Contains(page.body, ">Cancel contract<"); shown != (c.status == 200) {
				t.Fatalf("Cancel contract shown: %v", shown)
			}
			if shown := strings.Contains(page.body, ">Reject<"); shown == (c.status == 200) {
				t.Fatalf("Reject shown: %v (the creator cancels instead)", shown)
			}
			r := b.post("/cabinet/api/contracts/"+id+"/cancel", nil)
			if r.status != c.status {
				t.Fatalf("cancel: %d %s", r.status, r.body)
			}
			got := e.reload(t, id)
			if got.Status != c.contract {
				t.Fatalf("contract %s, want %s", got.Status, c.contract)
			}
			if c.status == 200 {
				if body := r.json(t); body["contractStatus"] != "CANCELLED" || body["partyStatus"] != "CANCELLED" {
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
	s := open.json(t)
	if open.status != 200 || s["method"] != signflow.MethodOTP || s["expiresIn"] != float64(1800) || s["url"] != nil {
		t.Fatalf("open signing: %d %s", open.status, open.body)
	}
	tok := s["token"].(string)
	sent := b.post("/cabinet/api/signing/code", map[string]string{"token": tok})
	if sent.status != 200 || sent.json(t)["phone"] != "+99890*****67" {
		t.Fatalf("send code: %d %s", sent.status, sent.body)
	}
	code := lastCode(t, e.SMS, custPhone)
	if r := b.post("/cabinet/api/signing/confirm", map[string]string{"token": tok, "code": notCode(code)}); r.status != 400 || r.header.Get("X-Attempts-Left") != "4" {
		t.Fatalf("wrong code: %d %v", r.status, r.header)
	}
	r := b.post("/cabinet/api/signing/confirm", map[string]string{"token": tok, "code": code})
	if r.status != 200 || r.json(t)["partyStatus"] != "ACCEPTED" || r.json(t)["contractStatus"] != "CREATED" {
		t.Fatalf("right code: %d %s", r.status, r.body)
	}
	if r := b.post("/cabinet/api/signing/confirm", map[string]string{"token": tok, "code": code}); r.status != 403 || r.header.Get("X-Sign-Reason") != "session-closed" {
		t.Fatalf("the used session: %d %v", r.status, r.header)
	}
	if r := b.post("/cabinet/api/contracts/"+id+"/signing", nil); r.status != 400 {
		t.Fatalf("a second signing session for a party that signed: %d", r.status)
	}
	page := b.get("/cabinet/contracts/" + id)
	if !strings.Contains(page.body, "You have signed") || strings.Contains(page.body, `data-action="sign"`) {
		t.Fatal("the page after signing still offers Sign")
	}

	// Another contract, rejected by the customer.
	id2 := e.create(t, map[string]any{"buyerIn": fixture.CustomerIN})
	tok2 := b.post("/cabinet/api/contracts/"+id2+"/signing", nil).json(t)["token"].(string)
	r = b.post("/cabinet/api/signing/reject", map[string]string{"token": tok2})
	if r.status != 200 || r.json(t)["contractStatus"] != "REJECTED" || r.json(t)["partyStatus"] != "REJECTED" {
		t.Fatalf("reject: %d %s", r.status, r.body)
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
	if r := b.get("/cabinet?lang=en"); !strings.Contains(r.body, "No contracts yet") {
		t.Fatal("no empty state")
	}
	signed := e.create(t, map[string]any{"buyerIn": fixture.CustomerIN})
	e.Clock.Advance(time.Second)
	rejected := e.create(t, map[string]any{"buyerIn": fixture.CustomerIN})
	e.Clock.Advance(time.Second)
	waiting := e.create(t, map[string]any{"buyerIn": fixture.CustomerIN, "price": 4650000})
	tok := b.post("/cabinet/api/contracts/"+signed+"/signing", nil).json(t)["token"].(string)
	b.post("/cabinet/api/signing/code", map[string]string{"token": tok})
	b.post("/cabinet/api/signing/confirm", map[string]string{"token": tok, "code": lastCode(t, e.SMS, custPhone)})
	tok = b.post("/cabinet/api/contracts/"+rejected+"/signing", nil).json(t)["token"].(string)
	b.post("/cabinet/api/signing/reject", map[string]string{"token": tok})

	body := b.get("/cabinet").body
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
	for _, c := range []struct {
		path, accept, lang, text string
	}{
		{"/cabinet", "", "uz", "Kabinetga kirish"},
		{"/cabinet", "ru-RU,ru;q=0.9", "ru", "Вход в кабинет"},
		{"/cabinet?lang=en", "ru", "en", "Log in to your cabinet"},
		{"/cabinet", "ru", "en", "Log in to your cabinet"}, // remembered
		{"/cabinet?lang=xx", "", "en", "Log in to your cabinet"},
		{"/cabinet?lang=ru", "", "ru", "Вход в кабинет"},
	} {
		r := b.doHeader("GET", c.path, "Accept-Language", c.accept)
		if !strings.Contains(r.body, `<html lang="`+c.lang+`">`) || !strings.Contains(r.body, c.text) {
			t.Fatalf("%s (Accept-Language %q): want %s", c.path, c.accept, c.lang)
		}
	}
	b.post("/cabinet/api/login/code", map[string]string{"number": fixture.CustomerIN})
	if m := e.SMS.Newest(t, custPhone); !strings.HasPrefix(m.Text, "Код для входа в кабинет") {
		t.Fatalf("login SMS %q", m.Text)
	}
}

// The PDF in each language, of the party's contract.
func TestPDF(t *testing.T) {
	e := newEnv(t, options{})
	id := e.create(t, map[string]any{"buyerIn": fixture.CustomerIN})
	number := e.reload(t, id).Number
	b := e.browser(t)
	b.login(fixture.CustomerIN, custPhone)
	for lang, label := range map[string]string{"uz": "Shartnoma raqami", "ru": "Номер договора", "en": "Contract number"} {
		r := b.get("/cabinet/contracts/" + id + "/pdf?lang=" + lang)
		if r.status != 200 || r.header.Get("Content-Type") != "application/pdf" ||
			r.header.Get("Content-Disposition") != `attachment; filename="contract-`+number+`-`+lang+`.pdf"` {
			t.Fatalf("%s: %d %v", lang, r.status, r.header)
		}
		text := testtools.PDFText(t, []byte(r.body))
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
	for _, c := range []struct {
		path, ctype string
		status      int
		header      map[string]string
	}{
		{"/cabinet", "text/html; charset=UTF-8", 200, map[string]string{"X-Frame-Options": "DENY", "Cache-Control": "no-store",
			"Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"}},
		{"/cabinet/", "", 301, map[string]string{"Location": "/cabinet"}},
		{"/cabinet/assets/cabinet.js", "text/javascript; charset=utf-8", 200, map[string]string{"X-Content-Type-Options": "nosniff"}},
		{"/cabinet/assets/cabinet.css", "text/css; charset=utf-8", 200, nil},
		{"/cabinet/assets/sign.css", "text/css; charset=utf-8", 200, nil},
		{"/cabinet/assets/page.html", "", 404, nil},
		{"/cabinet/contracts/" + signflow.NewID(), "", 303, map[string]string{"Location": "/cabinet"}},
	} {
		r := b.get(c.path)
		if r.status != c.status || (c.ctype != "" && r.header.Get("Content-Type") != c.ctype) {
			t.Errorf("%s: %d %q", c.path, r.status, r.header.Get("Content-Type"))
		}
		for k, v := range c.header {
			if r.header.Get(k) != v {
				t.Errorf("%s: %s %q, want %q", c.path, k, r.header.Get(k), v)
			}
		}
	}
}
