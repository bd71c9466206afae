package server_test

import (
	"slices"
	"strings"
	"testing"

	"contracts/internal/apitest"
	"contracts/internal/testtools"
	"contracts/signflow"
)

// The four attacks of issue 14, each played through the HTTP interfaces.

const (
	ownerA   = "301234567" // Alpha: app A, key A
	ownerB   = "309876543" // Beta: app B, key B
	personN  = "41111111111111"
	realPh   = "998901234567" // the person's phone, as A holds it
	plantPh  = "998909999999" // the phone B plants for the person
	companyY = "401234567"
	ownerYPh = "998712000009"
	personX  = "32222222222222" // an individual owner with a key
	ownerXPh = "998901111111"
)

func (e *tenancy) alphaAndBeta() (appA, appB string) {
	e.t.Helper()
	e.owner(map[string]any{"in": ownerA, "type": "COMPANY", "legalName": "Alpha Savdo MChJ", "phone": "998712000000"})
	e.owner(map[string]any{"in": ownerB, "type": "COMPANY", "legalName": "Beta Trade LLC", "phone": "998712000001"})
	return e.app(ownerA), e.app(ownerB)
}

func person(in, first, last, phone string) map[string]any {
	return map[string]any{"in": in, "firstName": first, "lastName": last, "phone": phone}
}

// Attack 1: app B registers a person with its own phone before app A
// registers the real one. A's signing codes and the person's cabinet must
// stay out of B's reach: B's phone logs into the cabinet, but sees, signs,
// rejects and cancels nothing of A's.
func TestAttackPlantedPhoneDoesNotReachAnotherTenantsContract(t *testing.T) {
	e := newTenancy(t)
	appA, appB := e.alphaAndBeta()
	e.ok(e.emb(appB, "POST", "/v1/clients", person(personN, "Bobur", "Planted", plantPh)), "B registers the person")
	got := e.ok(e.emb(appA, "POST", "/v1/clients", person(personN, "Aziz", "Karimov", realPh)), "A registers the person")
	if got["phone"] != realPh || got["lastName"] != "Karimov" {
		t.Fatalf("A registered the person and got %v: another tenant's data", got)
	}
	id := e.contract(appA, map[string]any{"buyerIn": personN})
	number := e.ok(e.emb(appA, "GET", "/v1/contracts/"+id, nil), "read")["number"].(string)

	// A's signing code goes to the phone A holds.
	_, tok := e.session(appA, id, personN)
	if r := e.page(tok, "code", nil); r.Status != 200 {
		t.Fatalf("signing code: %d %s", r.Status, r.Body)
	}
	e.codeTo(realPh)

	// B's phone gets a login code of its own, and logs in...
	attacker := e.visitor()
	if r := attacker.askCode(personN); r.Status != 200 {
		t.Fatalf("login code: %d %s", r.Status, r.Body)
	}
	e.codeTo(realPh) // each phone on record gets a code of its own
	if r := attacker.logIn(personN, e.codeTo(plantPh)); r.Status != 200 {
		t.Fatalf("B's phone logs in for B's own contracts: %d %s", r.Status, r.Body)
	}
	// ...but A's contract is not there, and every act on it is refused.
	if list := attacker.get("/cabinet"); list.Status != 200 || strings.Contains(list.Body, number) {
		t.Fatalf("the cabinet of B's phone lists A's contract %s: %d", number, list.Status)
	}
	for _, r := range []apitest.Reply{attacker.get("/cabinet/contracts/" + id), attacker.get("/cabinet/contracts/" + id + "/pdf"),
		attacker.get("/cabinet/api/contracts/" + id), attacker.post("/cabinet/api/contracts/"+id+"/cancel", nil)} {
		if r.Status < 400 || strings.Contains(r.Body, number) {
			t.Errorf("B's phone reached A's contract: %d %.200s", r.Status, r.Body)
		}
	}
	if r := attacker.post("/cabinet/api/contracts/"+id+"/signing", nil); r.Status != 403 {
		t.Errorf("B's phone opened a signing session on A's contract: %d", r.Status)
		if sign := r.JSON(t)["token"]; sign != nil {
			attacker.post("/cabinet/api/signing/code", map[string]any{"token": sign})
			attacker.post("/cabinet/api/signing/confirm", map[string]any{"token": sign, "code": e.codeTo(plantPh)})
		}
	}
	if s := e.state(appA, id); s != "CREATED buyer PENDING seller PENDING" {
		t.Fatalf("A's contract after the attack: %s", s)
	}
	for _, m := range e.sms.WaitFor(t, 0) {
		if m.Phone == plantPh && strings.Contains(m.Text, number) {
			t.Fatalf("a code for A's contract went to B's phone: %q", m.Text)
		}
	}

	// The person, with the phone A holds, finds and signs A's contract.
	e.w.Clock.Advance(signflow.ResendAfter)
	person := e.visitor()
	person.askCode(personN)
	if r := person.logIn(personN, e.codeTo(realPh)); r.Status != 200 {
		t.Fatalf("the person's login: %d %s", r.Status, r.Body)
	}
	if list := person.get("/cabinet"); !strings.Contains(list.Body, number) {
		t.Fatal("the person's cabinet lacks A's contract")
	}
	sign := e.ok(person.post("/cabinet/api/contracts/"+id+"/signing", nil), "signing")["token"]
	e.ok(person.post("/cabinet/api/signing/code", map[string]any{"token": sign}), "signing code")
	e.ok(person.post("/cabinet/api/signing/confirm", map[string]any{"token": sign, "code": e.codeTo(realPh)}), "confirm")
	if s := e.state(appA, id); s != "CREATED buyer ACCEPTED seller PENDING" {
		t.Fatalf("after the person signed: %s", s)
	}
}

// Attack 2: an app claims a company's number before the admin registers
// it as an owner. The admin's values win, the app's phone never gets the
// owner's login codes, and the owner's contracts stay the owner's.
func TestAttackCompanyClaimedBeforeTheAdminStaysTheAdmins(t *testing.T) {
	e := newTenancy(t)
	_, appB := e.alphaAndBeta()
	e.ok(e.emb(appB, "POST", "/v1/clients", map[string]any{"in": companyY, "type": "COMPANY", "legalName": "Planted Gamma",
		"phone": plantPh}), "B claims the company")
	o := e.owner(map[string]any{"in": companyY, "type": "COMPANY", "legalName": "Gamma Logistics MChJ", "phone": ownerYPh})
	if o["legalName"] != "Gamma Logistics MChJ" || o["phone"] != ownerYPh {
		t.Fatalf("the admin registered the owner and got %v", o)
	}
	keyY := e.apiKey(companyY)
	for _, r := range []apitest.Reply{
		e.emb(appB, "POST", "/v1/clients", map[string]any{"in": companyY, "type": "COMPANY", "legalName": "Planted Again", "phone": plantPh}),
		e.emb(appB, "GET", "/v1/clients/"+companyY, nil),
	} {
		if got := e.ok(r, "B on the owner's number"); got["legalName"] != "Gamma Logistics MChJ" || got["phone"] != ownerYPh {
			t.Fatalf("B sees the owner as %v", got)
		}
	}
	if me := e.ok(e.keyCall(keyY, "GET", "/v1/me", nil), "me"); me["ownerLegalName"] != "Gamma Logistics MChJ" {
		t.Fatalf("the owner's key says %v", me)
	}
	id := e.contract(keyY, map[string]any{"buyerIn": ownerB})

	// A login for the owner sends a code to the admin's phone only.
	attacker := e.visitor()
	if r := attacker.askCode(companyY); r.Status != 200 {
		t.Fatalf("login code: %d", r.Status)
	}
	code := e.codeTo(ownerYPh)
	if slices.Contains(e.sentTo(), plantPh) {
		t.Fatal("a login code for the owner went to the phone B planted")
	}
	guess := "00000"
	if code == guess {
		guess = "11111"
	}
	if r := attacker.logIn(companyY, guess); r.Status == 200 || attacker.get("/cabinet/api/contracts/"+id).Status == 200 {
		t.Fatalf("B's phone logged in as the owner: %d", r.Status)
	}
	if attacker.post("/cabinet/api/contracts/"+id+"/cancel", nil).Status == 200 {
		t.Fatal("B's phone cancelled the owner's contract")
	}
	if c := e.ok(e.keyCall(keyY, "GET", "/v1/contracts/"+id, nil), "read"); c["status"] != "CREATED" {
		t.Fatalf("the owner's contract is %v", c["status"])
	}
	// The owner, with the admin's phone, cancels it.
	e.w.Clock.Advance(signflow.ResendAfter)
	owner := e.visitor()
	owner.askCode(companyY)
	if r := owner.logIn(companyY, e.codeTo(ownerYPh)); r.Status != 200 {
		t.Fatalf("the owner's login: %d %s", r.Status, r.Body)
	}
	if r := owner.post("/cabinet/api/contracts/"+id+"/cancel", nil); r.Status != 200 || r.JSON(t)["contractStatus"] != "CANCELLED" {
		t.Fatalf("the owner cancels: %d %s", r.Status, r.Body)
	}
}

// Attack 3: owner X's key creates a contract whose buyer is company Y.
// Y's app may not open a session for X's party, so it cannot reject it
// (which would cancel the contract); for its own party it may open one,
// but the link alone rejects nothing, and the trail claims no confirmation.
func TestAttackForeignAppCannotActForTheCreatorsParty(t *testing.T) {
	e := newTenancy(t)
	e.owner(map[string]any{"in": personX, "firstName": "Dilnoza", "lastName": "Rahimova", "phone": ownerXPh})
	e.owner(map[string]any{"in": ownerB, "type": "COMPANY", "legalName": "Beta Trade LLC", "phone": "998712000001"})
	keyX, appY := e.apiKey(personX), e.app(ownerB)
	id := e.contract(keyX, map[string]any{"buyerIn": ownerB})

	r, tok := e.session(appY, id, personX)
	if tok != "" {
		e.page(tok, "reject", nil)
	}
	if r.Status != 403 {
		t.Errorf("Y's app opened a session for X's party: %d %s", r.Status, r.Body)
	}
	if c := e.ok(e.keyCall(keyX, "GET", "/v1/contracts/"+id, nil), "read"); c["status"] != "CREATED" || c["sellerStatus"] != "PENDING" {
		t.Fatalf("X's contract after Y's attempt: %v %v", c["status"], c["sellerStatus"])
	}

	// Y's own party (a company: E_IMZO) rejects only with its E-IMZO
	// signature; the link alone rejects nothing.
	r, tok = e.session(appY, id, ownerB)
	if r.Status != 200 {
		t.Fatalf("Y's session for its own party: %d %s", r.Status, r.Body)
	}
	if res := e.page(tok, "reject", nil); res.Status != 400 || !strings.Contains(res.Body, "pkcs7") {
		t.Fatalf("Y rejects with the link alone: %d %s", res.Status, res.Body)
	}
	if st := e.state(appY, id); st != "CREATED buyer PENDING seller PENDING" {
		t.Fatalf("after Y's unconfirmed rejection: %s", st)
	}
	events, err := e.w.Service.AuditTrail(id)
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range events {
		if ev.Method != "" {
			t.Errorf("audit %s names the confirmation %s, which never happened", ev.Type, ev.Method)
		}
	}
	pdf := e.keyCall(keyX, "GET", "/v1/contracts/"+id+"/pdf?lang=en", nil)
	if pdf.Status != 200 {
		t.Fatalf("PDF: %d", pdf.Status)
	}
	text := testtools.PDFText(t, []byte(pdf.Body))
	if !strings.Contains(text, "Audit trail") || strings.Contains(text, "SMS code") || strings.Contains(text, "E-IMZO") {
		t.Fatalf("the PDF's audit trail claims a confirmation:\n%s", text)
	}
}

// Attack 4: an app reads another tenant's client, name and phone.
func TestAttackAppsCannotReadAnotherTenantsClients(t *testing.T) {
	e := newTenancy(t)
	appA, appB := e.alphaAndBeta()
	keyB := e.apiKey(ownerB)
	e.ok(e.emb(appA, "POST", "/v1/clients", person(personN, "Aziz", "Karimov", realPh)), "A registers")
	for _, r := range []apitest.Reply{e.emb(appB, "GET", "/v1/clients/"+personN, nil), e.keyCall(keyB, "GET", "/v1/clients/"+personN, nil)} {
		if r.Status != 404 || strings.Contains(r.Body, "Karimov") || strings.Contains(r.Body, realPh) {
			t.Errorf("another tenant read A's client: %d %s", r.Status, r.Body)
		}
	}
	if got := e.ok(e.emb(appA, "GET", "/v1/clients/"+personN, nil), "A reads"); got["phone"] != realPh {
		t.Fatalf("A reads its own client: %v", got)
	}
}
