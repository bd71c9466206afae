package embedded

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"contracts/internal/config"
	"contracts/internal/fixture"
	"contracts/internal/fuzzcheck"
	"contracts/server"
	"contracts/server/signpage"
	"contracts/signflow"

	"github.com/rs/zerolog"
)

// The fuzz targets of the embedded interface send any bytes to its request
// decoders and validators, through the real echo stack over a real bbolt
// file: no input may panic or answer 5xx. The seed corpus is in
// testdata/fuzz/<target>; "go test" runs only the seeds, and
//
//	go test -run '^$' -fuzz '^FuzzEmbeddedContract$' -fuzztime 1000000x ./server/embedded/
//
// fuzzes one target (one at a time: the machine has two cores).

// fuzzWorld is the embedded listener's routes (the interface and the
// signing page's API) over a fast standard world, with a token of app A,
// a CREATED contract and a pending session whose SMS code has been sent.
type fuzzWorld struct {
	*fixture.Standard
	h            http.Handler
	auth         http.Header
	contractID   string
	sessionID    string
	sessionToken string
}

func newFuzzWorld(tb testing.TB) *fuzzWorld {
	tb.Helper()
	w := fuzzcheck.NewStandard(tb)
	e := server.NewEcho("embedded", zerolog.Nop(), nil, false)
	Register(e, Deps{Service: w.Service, BaseURL: testBaseURL, Now: w.Clock.Now})
	signpage.Register(e, signpage.Deps{Service: w.Service, ServiceName: config.Default().Service.Name, Now: w.Clock.Now})
	token, err := w.Service.IssueToken(w.AppA.ID, w.AppA.Secret)
	if err != nil {
		tb.Fatal(err)
	}
	c := w.Contract(tb)
	s, sessionToken, err := w.Service.OpenSession(w.Access(tb, w.AppA), c.ID,
		signflow.SessionRequest{SignerIN: fixture.CustomerIN, Lang: "en"}, signflow.Actor{IP: "127.0.0.1"})
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := w.Service.SendCode(context.Background(), sessionToken, signflow.Actor{IP: "127.0.0.1"}); err != nil {
		tb.Fatal(err)
	}
	auth := http.Header{"Authorization": {"Bearer " + token}}
	fuzzcheck.MustServe(tb, e, "GET", "/v1/contracts/"+c.ID, auth, http.StatusOK)
	return &fuzzWorld{Standard: w, h: e, auth: auth,
		contractID: c.ID, sessionID: s.ID, sessionToken: sessionToken}
}

// FuzzEmbeddedContract fuzzes POST /v1/contracts, the largest request type:
// money in major units, dates, values, products and payments. A body that
// is accepted must give a contract that reads back.
func FuzzEmbeddedContract(f *testing.F) {
	w := newFuzzWorld(f)
	for _, seed := range contractSeeds(w.Template.ID) {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) { fuzzcheck.CheckCreate(t, w.Standard, w.h, w.auth, body) })
}

// contractSeeds are valid and nearly valid contract bodies.
func contractSeeds(templateID string) []string {
	full := `{"templateId":"` + templateID + `","buyerIn":"` + fixture.CustomerIN + `","price":1500.25,"currency":"UZS",` +
		`"initialPayment":100,"deliveryAt":"2026-12-01T10:00:00Z","values":[{"keyName":"deliveryAddress","value":"Toshkent"},` +
		`{"keyName":"warrantyMonths","value":"12"}],"products":[{"name":"TV","unit":"DONA","quantity":1,"price":1500.25,` +
		`"values":{"color":"black"}}],"payments":[{"amount":700,"paymentDate":"2027-01-01"},{"amount":700.25,"paymentDate":"2027-02-01T00:00:00+05:00"}]}`
	return []string{
		full,
		`{"templateId":"` + templateID + `","buyerIn":"` + fixture.CustomerIN + `","price":1,"currency":"USD"}`,
		`{"templateId":"` + templateID + `","sellerIn":"` + fixture.OwnerIN + `","buyerIn":"` + fixture.CustomerIN + `","price":0.001}`,
		`{"templateId":"` + templateID + `","buyerIn":"` + fixture.CustomerIN + `","price":"1","values":[{"templateFieldId":"x"}]}`,
		`{"templateId":"` + templateID + `","buyerIn":"` + fixture.CustomerIN + `","price":1e400,"products":[{"quantity":-1}]}`,
		`{"templateId":null,"price":null,"values":null,"products":[null],"payments":[{}]}`,
		`{"price":-92233720368547758.08}`,
		`[]`, `null`, `{}`, `{"a":1}{"b":2}`, ``, `{"values":[{"position":99999999999}]}`,
		// Hostile numbers: a long price, exponents, a line and sums past the money maximum.
		`{"templateId":"` + templateID + `","buyerIn":"` + fixture.CustomerIN + `","price":` + strings.Repeat("9", 4096) + `}`,
		`{"templateId":"` + templateID + `","buyerIn":"` + fixture.CustomerIN + `","price":1E3,"initialPayment":1e-3}`,
		`{"templateId":"` + templateID + `","buyerIn":"` + fixture.CustomerIN + `","price":1,"products":[{"name":"TV","price":10000000000000,"quantity":10000}]}`,
		`{"templateId":"` + templateID + `","buyerIn":"` + fixture.CustomerIN + `","price":1,"products":[{"name":"A","price":10000000000000,"quantity":1},` +
			`{"name":"B","price":10000000000000,"quantity":1}],"payments":[{"amount":10000000000000,"paymentDate":"2027-01-01"},` +
			`{"amount":0.01,"paymentDate":"2027-01-02"}]}`,
	}
}

// Kinds of request of FuzzEmbeddedRequest: each is a route with a body or
// a path parameter from the fuzzer.
var embeddedKinds = []struct {
	name   string
	method string
	path   func(w *fuzzWorld, param string) string
}{
	{name: "token", method: "POST", path: func(*fuzzWorld, string) string { return "/v1/auth/token" }},
	{name: "client", method: "POST", path: func(*fuzzWorld, string) string { return "/v1/clients" }},
	{name: "session", method: "POST", path: func(w *fuzzWorld, _ string) string { return "/v1/contracts/" + w.contractID + "/sign-sessions" }},
	{name: "confirm", method: "POST", path: func(w *fuzzWorld, _ string) string { return "/sign/" + w.sessionToken + "/confirm" }},
	{name: "get client", method: "GET", path: func(_ *fuzzWorld, p string) string { return "/v1/clients/" + url.PathEscape(p) }},
	{name: "get contract", method: "GET", path: func(_ *fuzzWorld, p string) string { return "/v1/contracts/" + url.PathEscape(p) }},
	{name: "get session", method: "GET", path: func(_ *fuzzWorld, p string) string { return "/v1/sign-sessions/" + url.PathEscape(p) }},
	{name: "fields", method: "GET", path: func(_ *fuzzWorld, p string) string { return "/v1/templates/" + url.PathEscape(p) + "/fields" }},
	// An unknown contract: rendering real PDFs would slow fuzzing a hundredfold.
	{name: "pdf", method: "GET", path: func(_ *fuzzWorld, p string) string {
		return "/v1/contracts/00000000-0000-4000-8000-000000000000/pdf?lang=" + url.QueryEscape(p)
	}},
	{name: "cancel", method: "POST", path: func(_ *fuzzWorld, p string) string { return "/v1/contracts/" + url.PathEscape(p) + "/cancel" }},
	{name: "session of", method: "POST", path: func(_ *fuzzWorld, p string) string { return "/v1/contracts/" + url.PathEscape(p) + "/sign-sessions" }},
	{name: "sign action", method: "POST", path: func(_ *fuzzWorld, p string) string { return "/sign/" + url.PathEscape(p) + "/reject" }},
}

// FuzzEmbeddedRequest fuzzes every other request type of the embedded
// listener: the token request, client registration, the sign-session
// request and the signing page's code confirmation (bodies), and the path
// and query parameters of its reads and actions.
func FuzzEmbeddedRequest(f *testing.F) {
	w := newFuzzWorld(f)
	seeds := map[string][]string{
		"token": {`{"appId":"` + w.AppA.ID + `","appSecret":"` + w.AppA.Secret + `"}`, `{"appId":"x","appSecret":"y"}`,
			`{"appId":1}`, `{"appId":"` + strings.Repeat("a", 101) + `","appSecret":"s"}`},
		"client": {`{"in":"31234567890124","firstName":"Ali","lastName":"Valiyev","phone":"+998 90 000-00-01"}`,
			`{"in":"301234568","type":"COMPANY","legalName":"Gamma MChJ","isMan":true,"birthday":"1990-01-31"}`,
			`{"in":"31234567890125","firstName":"` + strings.Repeat("x", 40000) + `","lastName":"Y","phone":"998900000002"}`,
			`{"in":"31234567890126","firstName":"A","lastName":"B","phone":"99890","passportIssueDate":"2020-13-01"}`,
			`{"isMan":"yes"}`},
		"session": {`{"signerIn":"` + fixture.CustomerIN + `","lang":"en","parentOrigin":"https://shop.example","redirectUrl":"https://shop.example/done"}`,
			`{"signerIn":"` + fixture.OwnerIN + `","lang":"xx"}`, `{"signerIn":"` + fixture.CustomerIN + `","parentOrigin":"javascript:alert(1)"}`},
		"confirm": {`{"code":"12345"}`, `{"code":"1"}`, `{"code":12345}`},
	}
	for i, k := range embeddedKinds {
		for _, body := range append(seeds[k.name], `{}`) {
			f.Add(uint8(i), "", []byte(body))
		}
		for _, p := range []string{w.contractID, w.sessionID, fixture.CustomerIN, w.Template.ID, "en", "../x", "%00", "\x00\xff"} {
			f.Add(uint8(i), p, []byte(nil))
		}
	}
	f.Fuzz(func(t *testing.T, kind uint8, param string, body []byte) {
		k := embeddedKinds[int(kind)%len(embeddedKinds)]
		target := k.path(w, param)
		a := fuzzcheck.Serve(w.h, k.method, target, "application/json", w.auth, body)
		fuzzcheck.CheckJSON(t, a, fmt.Sprintf("%s %s", k.method, target))
	})
}
