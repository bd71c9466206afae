package signpage_test

import (
	"io"
	"net"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"contracts/internal/apitest"
	appconfig "contracts/internal/config"
	"contracts/internal/fixture"
	"contracts/server"
	"contracts/server/signpage"
	"contracts/signflow"
	"contracts/signflow/eimzo"
	"contracts/signflow/eimzo/eimzotest"
	"contracts/signflow/idp"
	"contracts/signflow/idp/idptest"

	"github.com/rs/zerolog"
)

// The peer is an individual owner selling to the customer, so that both
// parties sign with SMS codes.
const (
	peerIN    = "32222222222222"
	peerPhone = "998901111111"
	custPhone = "998901234567"
)

// env is the signing page served over real HTTP on a real bbolt world,
// with the echo setup of the embedded listener.
type env struct {
	*fixture.Standard
	peer *signflow.Access // app of the individual owner
	srv  *httptest.Server
	base string // the page's origin as the browser sees it
	// With envOptions.outside: the fake MyID and AbleID providers, the
	// fake E-IMZO server and templates whose individuals sign with MY_ID
	// and ABLE_ID (companies sign with E_IMZO in every template).
	myid, ableid   *idptest.Provider
	myidWeb        *idptest.MyIDWeb
	ez             *eimzotest.Server
	myidT, ableidT *signflow.Template
}

// envOptions vary the world of a test.
type envOptions struct {
	otpPerMinute int
	serviceName  string
	// outside configures MY_ID, ABLE_ID and E_IMZO with fakes over real
	// HTTP; without it those methods are switched on but have no provider,
	// so the page must not offer them.
	outside bool
	timeout time.Duration        // of each call to an outside service; default 10 s
	myidWeb bool                 // with outside: MY_ID is MyID's web check (e.myidWeb)
	eimzo   signpage.EIMZOClient // the page's local E-IMZO client
}

func newEnv(t *testing.T, otpPerMinute int, serviceName string) *env {
	t.Helper()
	return newEnvWith(t, envOptions{otpPerMinute: otpPerMinute, serviceName: serviceName})
}

func newEnvWith(t *testing.T, o envOptions) *env {
	t.Helper()
	w := fixture.NewStandard(t)
	fixture.MustOwner(t, w.Service, &signflow.Client{IN: peerIN, FirstName: "Dilnoza", LastName: "Rahimova", Phone: peerPhone})
	fixture.MustClaim(t, w.Service, peerIN, &signflow.Client{IN: fixture.CustomerIN, FirstName: "Aziz", LastName: "Karimov", Phone: custPhone})
	cred := fixture.MustCredential(t, w.Service.CreateApp, &signflow.CredentialInput{Name: "Peer shop", OwnerIN: peerIN,
		Scopes: signflow.AppScopes, AllTemplates: true})
	// The listener comes first: the providers' redirect URI needs its port.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	// localhost, not 127.0.0.1: the page's origin differs from the parent's.
	e := &env{Standard: w, peer: w.Access(t, cred), base: "http://localhost:" + strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)}
	if o.outside {
		e.configureOutside(t, o.timeout, o.myidWeb)
	}
	echoSrv := server.NewEcho("embedded", zerolog.New(io.Discard), server.NewMetrics(), false)
	if o.serviceName == "" {
		o.serviceName = appconfig.Default().Service.Name
	}
	signpage.Register(echoSrv, signpage.Deps{Service: e.Service, ServiceName: o.serviceName, OTPPerMinute: o.otpPerMinute,
		Now: w.Clock.Now, EIMZO: o.eimzo})
	e.srv = httptest.NewUnstartedServer(echoSrv)
	e.srv.Listener.Close()
	e.srv.Listener = ln
	e.srv.Start()
	t.Cleanup(e.srv.Close)
	return e
}

// configureOutside replaces the world's service by one whose MY_ID and
// ABLE_ID go to fake OAuth2 providers and whose E_IMZO goes to a fake
// E-IMZO server, all over real HTTP, and adds MY_ID and ABLE_ID templates.
func (e *env) configureOutside(t *testing.T, timeout time.Duration, myidWeb bool) {
	t.Helper()
	if timeout == 0 {
		timeout = appconfig.Default().EIMZO.Timeout // the providers' time-outs are alike
	}
	callback := idp.CallbackURL(e.base)
	opt := e.Options
	opt.Identity = map[string]signflow.IdentityProvider{}
	for method, fake := range map[string]**idptest.Provider{signflow.MethodMyID: &e.myid, signflow.MethodAbleID: &e.ableid} {
		*fake = idptest.New(t, "contracts-"+method, "secret-"+method, callback)
		(*fake).Set(func(p *idptest.Provider) { p.Userinfo = map[string]any{"pinfl": fixture.CustomerIN} })
		p, err := idp.New(idp.Config{Name: method, AuthURL: (*fake).AuthURL(), TokenURL: (*fake).TokenURL(), UserinfoURL: (*fake).UserinfoURL(),
			ClientID: "contracts-" + method, ClientSecret: "secret-" + method, Scope: "openid", InClaim: "pinfl", RedirectURL: callback, Timeout: timeout})
		if err != nil {
			t.Fatal(err)
		}
		opt.Identity[method] = p
	}
	if myidWeb {
		e.myidWeb = idptest.NewMyIDWeb(t, "shop-web", "secret-web")
		p, err := idp.NewMyIDWeb(idp.MyIDWebConfig{BaseURL: e.myidWeb.API.URL, WebURL: e.myidWeb.Web.URL, ClientID: "shop-web",
			ClientSecret: "secret-web", RedirectURL: callback, Timeout: timeout, Now: e.Clock.Now})
		if err != nil {
			t.Fatal(err)
		}
		opt.Identity[signflow.MethodMyID] = p
	}
	e.ez = eimzotest.New(t)
	v, err := eimzo.New(eimzo.Config{VerifyURL: e.ez.URL, Host: "localhost", Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	opt.EIMZO = v
	e.Service = signflow.NewService(e.DB, opt)
	e.myidT = fixture.MustTemplate(t, e.Service, strings.Replace(fixture.TemplateYAML, "enabledCurrencies:", "individualVerificationType: MY_ID\nenabledCurrencies:", 1))
	e.ableidT = fixture.MustTemplate(t, e.Service, strings.Replace(fixture.TemplateYAML, "enabledCurrencies:", "individualVerificationType: ABLE_ID\nenabledCurrencies:", 1))
}

// contract creates a contract with every section the page shows, between
// the peer (seller, creator) and the customer (buyer).
func (e *env) contract(t *testing.T) *signflow.Contract {
	t.Helper()
	day := func(m, d int) *time.Time { v := time.Date(2026, time.Month(m), d, 0, 0, 0, 0, time.UTC); return &v }
	c, err := e.Service.CreateContract(e.peer, &signflow.ContractInput{TemplateID: e.Template.ID, BuyerIN: fixture.CustomerIN,
		Price: 465000000, InitialPayment: 100000000, Currency: "UZS", DeliveryAt: day(12, 5),
		Values: []signflow.ValueInput{{KeyName: "deliveryAddress", Value: "Toshkent, Chilonzor 7"}, {KeyName: "warrantyMonths", Value: "12"}},
		Products: []signflow.Product{
			{Name: "Smartphone Nova X", Quantity: 1, Price: 450000000, Values: map[string]any{"color": "Graphite"}},
			{Name: "Silicone case", Quantity: 2, Price: 7500000},
		},
		Payments: []signflow.Payment{{Amount: 182500000, PaymentDate: *day(12, 22)}, {Amount: 182500000, PaymentDate: time.Date(2027, 1, 22, 0, 0, 0, 0, time.UTC)}},
	}, signflow.Actor{IP: "10.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// open opens a session and returns it with the page URL.
func (e *env) open(t *testing.T, contractID string, r signflow.SessionRequest) (*signflow.SignSession, string) {
	t.Helper()
	s, token, err := e.Service.OpenSession(e.peer, contractID, r, signflow.Actor{})
	if err != nil {
		t.Fatal(err)
	}
	return s, e.base + "/sign/" + token
}

// do sends a request to the page's server; url is on the page's origin,
// body ("" for none) is sent as JSON.
func (e *env) do(t *testing.T, method, url, body string, header ...string) apitest.Reply {
	t.Helper()
	var b any
	if body != "" {
		b = body
	}
	return (&apitest.Caller{}).Do(t, method, strings.Replace(url, e.base, e.srv.URL, 1), "", b, header...)
}

// page is the JSON API of the signing page at url, for apitest.Run: its
// answers are JSON, its errors in the embedded interface's error body.
func (e *env) page(url string) *apitest.Caller {
	return &apitest.Caller{URL: strings.Replace(url, e.base, e.srv.URL, 1), Answer: apitest.JSONAnswers(apitest.Embedded)}
}

// lastCode reads the code of the last SMS, which must have gone to phone.
// (Last locks: the server may be sending from another goroutine.)
func lastCode(t *testing.T, sms *fixture.SMS, phone string) string {
	t.Helper()
	m := sms.Last()
	if m.Phone != phone {
		t.Fatalf("last SMS %+v: want a code sent to %s", m, phone)
	}
	return m.Code(t)
}
