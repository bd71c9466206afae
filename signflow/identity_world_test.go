package signflow_test

import (
	"strings"
	"testing"
	"time"

	"contracts/internal/config"
	"contracts/internal/fixture"
	"contracts/signflow"
	"contracts/signflow/eimzo"
	"contracts/signflow/eimzo/eimzotest"
	"contracts/signflow/idp"
	"contracts/signflow/idp/idptest"
)

// idWorld is a Standard world whose service has a MyID provider (a fake
// OAuth2 provider over HTTP) and an E-IMZO verifier (a fake E-IMZO-SERVER),
// an app with a webhook, and a template whose individuals sign with MY_ID.
type idWorld struct {
	*fixture.Standard
	svc   *signflow.Service
	myid  *idptest.Provider
	ez    *eimzotest.Server
	app   *signflow.Access
	tmpl  *signflow.Template
	actor signflow.Actor
}

func newIDWorld(t *testing.T, timeout time.Duration) *idWorld {
	t.Helper()
	if timeout == 0 {
		timeout = config.Default().EIMZO.Timeout // the providers' time-outs are alike
	}
	w := &idWorld{Standard: fixture.NewStandard(t), actor: signflow.Actor{IP: "203.0.113.7", UserAgent: "test-browser"}}
	callback := idp.CallbackURL("http://localhost:8080")
	w.myid = idptest.New(t, "contracts", "client-secret", callback)
	w.myid.Set(func(p *idptest.Provider) {
		p.Userinfo = map[string]any{"profile": map[string]any{"pinfl": fixture.CustomerIN}}
	})
	myid, err := idp.New(idp.Config{Name: "MyID", AuthURL: w.myid.AuthURL(), TokenURL: w.myid.TokenURL(), UserinfoURL: w.myid.UserinfoURL(),
		ClientID: "contracts", ClientSecret: "client-secret", Scope: "openid", InClaim: "profile.pinfl", RedirectURL: callback, Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	w.ez = eimzotest.New(t)
	verifier, err := eimzo.New(eimzo.Config{VerifyURL: w.ez.URL, Host: "localhost", Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	opt := w.Options
	opt.Identity = map[string]signflow.IdentityProvider{signflow.MethodMyID: myid}
	opt.EIMZO = verifier
	w.svc = signflow.NewService(w.DB, opt)
	w.tmpl = fixture.MustTemplate(t, w.svc, `name: {uz: "Ijara", ru: "Аренда", en: "Lease"}
sellerName: {uz: "S", ru: "П", en: "Lessor"}
buyerName: {uz: "X", ru: "П", en: "Lessee"}
individualVerificationType: MY_ID
`)
	cred := fixture.MustCredential(t, w.svc.CreateApp, &signflow.CredentialInput{Name: "ID shop", OwnerIN: fixture.OwnerIN,
		Scopes: signflow.AppScopes, AllTemplates: true, WebhookURL: "http://127.0.0.1:9/hook"})
	w.app = w.Access(t, cred)
	return w
}

// open creates a contract between owner A (seller) and the customer and
// opens a session for signer; it returns the contract, session and token.
func (w *idWorld) open(t *testing.T, signer string) (*signflow.Contract, *signflow.SignSession, string) {
	t.Helper()
	c, err := w.svc.CreateContract(w.app, &signflow.ContractInput{TemplateID: w.tmpl.ID, BuyerIN: fixture.CustomerIN,
		Price: 500000, Currency: "UZS"}, w.actor)
	if err != nil {
		t.Fatal(err)
	}
	sess, token, err := w.svc.OpenSession(w.app, c.ID, signflow.SessionRequest{SignerIN: signer, Lang: "en"}, w.actor)
	if err != nil {
		t.Fatal(err)
	}
	return c, sess, token
}

// snapshot is everything a refused step must leave as it was.
type idSnapshot struct {
	contractVersion int64
	status          string
	audit           int
	deliveries      int
	verified        bool
}

func (w *idWorld) snapshot(t *testing.T, c *signflow.Contract, sess *signflow.SignSession, signer string) idSnapshot {
	t.Helper()
	var s idSnapshot
	fixture.Must(t, func() error {
		return w.DB.View(func(tx signflow.Tx) error {
			cur, err := tx.Contract(c.ID)
			if err != nil {
				return err
			}
			se, err := tx.Session(sess.ID)
			if err != nil {
				return err
			}
			events, err := tx.AuditEvents(c.ID)
			if err != nil {
				return err
			}
			ds, err := tx.Deliveries(signflow.DeliveryFilter{ContractID: c.ID})
			if err != nil {
				return err
			}
			cl, err := tx.Owner(signer) // the signer as owner A's tenant knows it
			if signflow.ErrorCode(err) == signflow.ENOTFOUND {
				cl, err = tx.Claim(fixture.OwnerIN, signer)
			}
			if err != nil {
				return err
			}
			s = idSnapshot{cur.Version, se.Status, len(events), len(ds), cl.Verified}
			return nil
		})
	})
	return s
}

func (w *idWorld) session(t *testing.T, id string) *signflow.SignSession {
	t.Helper()
	var s *signflow.SignSession
	fixture.Must(t, func() error {
		return w.DB.View(func(tx signflow.Tx) (err error) { s, err = tx.Session(id); return err })
	})
	return s
}

func wantCode(t *testing.T, err error, code, message string) {
	t.Helper()
	if signflow.ErrorCode(err) != code || !strings.Contains(signflow.ErrorMessage(err), message) {
		t.Fatalf("got %v; want %s mentioning %q", err, code, message)
	}
}
