package cabinet_test

import (
	"context"
	"strings"
	"testing"

	"contracts/internal/config"
	"contracts/internal/fixture"
	"contracts/signflow"
	"contracts/signflow/idp"
	"contracts/signflow/idp/idptest"
)

// MY_ID: the cabinet starts the check (Service.StartIdentity) and hands
// the page the provider's address; the provider returns to the signing
// page's callback, which finishes it (Service.FinishIdentity); the cabinet
// sees the signature in the contract's state.
func TestIdentitySigning(t *testing.T) {
	var provider *idptest.Provider
	e := newEnv(t, options{service: func(w *fixture.Standard) *signflow.Service {
		callback := idp.CallbackURL(embeddedBase)
		provider = idptest.New(t, "contracts", "client-secret", callback)
		provider.Set(func(p *idptest.Provider) { p.Userinfo = map[string]any{"pinfl": fixture.CustomerIN} })
		myid, err := idp.New(idp.Config{Name: "MyID", AuthURL: provider.AuthURL(), TokenURL: provider.TokenURL(),
			UserinfoURL: provider.UserinfoURL(), ClientID: "contracts", ClientSecret: "client-secret", Scope: "openid",
			InClaim: "pinfl", RedirectURL: callback, Timeout: config.Default().Identity.MyID.Timeout})
		if err != nil {
			t.Fatal(err)
		}
		opt := w.Options
		opt.Identity = map[string]signflow.IdentityProvider{signflow.MethodMyID: myid}
		return signflow.NewService(w.DB, opt)
	}})
	tmpl := fixture.MustTemplate(t, e.svc, `name: {uz: "Ijara", ru: "Аренда", en: "Lease"}
sellerName: {uz: "Ijaraga beruvchi", ru: "Арендодатель", en: "Lessor"}
buyerName: {uz: "Ijarachi", ru: "Арендатор", en: "Lessee"}
individualVerificationType: MY_ID
`)
	id := e.create(t, map[string]any{"templateId": tmpl.ID, "buyerIn": fixture.CustomerIN})
	b := e.browser(t)
	b.login(fixture.CustomerIN, custPhone)
	page := b.get("/cabinet/contracts/" + id + "?lang=en")
	if !strings.Contains(page.Body, "you will confirm who you are with MyID in a new window") || !strings.Contains(page.Body, `data-action="sign"`) {
		t.Fatal("the page does not explain MyID signing")
	}
	s := b.post("/cabinet/api/contracts/"+id+"/signing", nil).JSON(t)
	if s["method"] != signflow.MethodMyID {
		t.Fatalf("signing %v", s)
	}
	if r := b.post("/cabinet/api/signing/code", map[string]string{"token": s["token"].(string)}); r.Status != 400 {
		t.Fatalf("an SMS code for a MY_ID session: %d", r.Status)
	}
	r := b.post("/cabinet/api/signing/identity", map[string]string{"token": s["token"].(string)})
	url, _ := r.JSON(t)["url"].(string)
	if r.Status != 200 || !strings.HasPrefix(url, provider.AuthURL()+"?") {
		t.Fatalf("identity: %d %s", r.Status, r.Body)
	}
	code, state := idptest.Login(t, url)
	if _, err := e.svc.FinishIdentity(context.Background(), state, code, signflow.Actor{IP: "203.0.113.7"}); err != nil {
		t.Fatal(err)
	}
	st := b.get("/cabinet/api/contracts/" + id).JSON(t)
	if st["partyStatus"] != "ACCEPTED" || st["contractStatus"] != "CREATED" {
		t.Fatalf("state after the check: %v", st)
	}
	if got := e.StoredContract(t, id).Signatures[fixture.CustomerIN]; got == nil || got.Method != signflow.MethodMyID {
		t.Fatalf("signature %+v", got)
	}
}

// E_IMZO is signed on the service's signing page (the site the E-IMZO API
// keys are issued for): the cabinet opens the session and hands over its
// URL. Without embedded.baseURL the page says E-IMZO is not available.
func TestEIMZOGoesToTheSigningPage(t *testing.T) {
	for _, c := range []struct {
		name, embedded, url, text string
		sign                      bool
	}{
		{name: "with the signing page", url: embeddedBase + "/sign/", text: "the signing page opens in a new window", sign: true},
		{name: "without", embedded: "-", text: "which is not set up on this service yet"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, options{embedded: c.embedded})
			id := e.create(t, map[string]any{"buyerIn": fixture.OwnerIN}) // a company: E_IMZO
			b := e.browser(t)
			b.login(fixture.OwnerIN, "998712000000")
			page := b.get("/cabinet/contracts/" + id + "?lang=en")
			if !strings.Contains(page.Body, c.text) || strings.Contains(page.Body, `data-action="sign"`) != c.sign ||
				!strings.Contains(page.Body, ">Reject<") {
				t.Fatalf("page: want %q, Sign %v, Reject", c.text, c.sign)
			}
			s := b.post("/cabinet/api/contracts/"+id+"/signing", nil).JSON(t)
			url, _ := s["url"].(string)
			if s["method"] != signflow.MethodEIMZO || !strings.HasPrefix(url, c.url) || (c.url != "" && url != c.url+s["token"].(string)) {
				t.Fatalf("signing %v", s)
			}
		})
	}
}
