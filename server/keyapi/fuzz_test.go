package keyapi

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"contracts/internal/fixture"
	"contracts/internal/fuzzcheck"
	"contracts/server"

	"github.com/rs/zerolog"
)

// The fuzz targets of the key interface send any bytes to its one request
// body (the contract create request, money in minor units) and any text to
// its query and path parameters, through the real echo stack over a real
// bbolt file: no input may panic or answer 5xx. Seeds are in
// testdata/fuzz/<target>; to fuzz one target:
//
//	go test -run '^$' -fuzz '^FuzzKeyContract$' -fuzztime 1000000x ./server/keyapi/

// fuzzWorld is the key interface over a fast standard world with key A,
// and one contract of owner A.
type fuzzWorld struct {
	*fixture.Standard
	h          http.Handler
	key        http.Header
	contractID string
}

func newFuzzWorld(tb testing.TB) *fuzzWorld {
	tb.Helper()
	w := fuzzcheck.NewStandard(tb)
	e := server.NewEcho("key", zerolog.Nop(), nil, true)
	Register(e, Deps{Service: w.Service, VerifyBaseURL: verifyBase, Now: w.Clock.Now})
	c := w.Contract(tb)
	key := http.Header{HeaderAPIKey: {w.KeyA.Secret}}
	fuzzcheck.MustServe(tb, e, "GET", "/v1/contracts/"+c.ID, key, http.StatusOK)
	return &fuzzWorld{Standard: w, h: e, key: key, contractID: c.ID}
}

// FuzzKeyContract fuzzes POST /v1/contracts. An accepted body must give a
// contract that reads back.
func FuzzKeyContract(f *testing.F) {
	w := newFuzzWorld(f)
	tpl := w.Template.ID
	for _, seed := range []string{
		`{"templateId":"` + tpl + `","buyerIn":"` + fixture.CustomerIN + `","price":150000050,"currency":"UZS","initialPayment":10000,` +
			`"deliveryAt":"2026-12-01T10:00:00Z","values":[{"keyName":"deliveryAddress","value":"Toshkent"},{"keyName":"warrantyMonths","value":"12"}],` +
			`"products":[{"name":"TV","unit":"DONA","quantity":1,"price":150000050,"values":{"color":"black"}}],` +
			`"payments":[{"amount":75000025,"paymentDate":"2027-01-01"},{"amount":75000025,"paymentDate":"2027-02-01"}]}`,
		`{"templateId":"` + tpl + `","buyerIn":"` + fixture.CustomerIN + `","price":100}`,
		`{"templateId":"` + tpl + `","sellerIn":"` + fixture.OtherIN + `","price":100}`,
		`{"templateId":"` + tpl + `","buyerIn":"` + fixture.CustomerIN + `","price":1.5}`,
		`{"templateId":"` + tpl + `","buyerIn":"` + fixture.CustomerIN + `","price":9223372036854775808}`,
		`{"templateId":"` + tpl + `","buyerIn":"` + fixture.CustomerIN + `","price":-1,"values":[{"templateId":"other"}]}`,
		`{"price":"100"}`, `{"products":[{"quantity":"x"}]}`, `[1,2]`, `"x"`, `{`, ``,
		// Hostile numbers: a long price, exponents, a line and sums past the money maximum.
		`{"templateId":"` + tpl + `","buyerIn":"` + fixture.CustomerIN + `","price":` + strings.Repeat("9", 4096) + `}`,
		`{"templateId":"` + tpl + `","buyerIn":"` + fixture.CustomerIN + `","price":15E4,"initialPayment":1e-3}`,
		`{"templateId":"` + tpl + `","buyerIn":"` + fixture.CustomerIN + `","price":1,"products":[{"name":"TV","price":1000000000000000,"quantity":10000}]}`,
		`{"templateId":"` + tpl + `","buyerIn":"` + fixture.CustomerIN + `","price":1,"products":[{"name":"A","price":1000000000000000,"quantity":1},` +
			`{"name":"B","price":1,"quantity":1}],"payments":[{"amount":1000000000000000,"paymentDate":"2027-01-01"},{"amount":1,"paymentDate":"2027-01-02"}]}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) { fuzzcheck.CheckCreate(t, w.Standard, w.h, w.key, body) })
}

// keyKinds are the key interface's reads and actions whose query or path
// the fuzzer fills.
var keyKinds = []struct {
	method string
	path   func(w *fuzzWorld, p string) string
}{
	{method: "GET", path: func(_ *fuzzWorld, p string) string { return "/v1/contracts?" + p }}, // the raw query: statuses, templateId, search, page, size
	{method: "GET", path: func(_ *fuzzWorld, p string) string { return "/v1/contracts?search=" + url.QueryEscape(p) }},
	{method: "GET", path: func(_ *fuzzWorld, p string) string { return "/v1/contracts/" + url.PathEscape(p) }},
	{method: "GET", path: func(_ *fuzzWorld, p string) string { return "/v1/clients/" + url.PathEscape(p) }},
	{method: "GET", path: func(_ *fuzzWorld, p string) string { return "/v1/templates/" + url.PathEscape(p) + "/fields" }},
	{method: "GET", path: func(_ *fuzzWorld, p string) string {
		return "/v1/contracts/00000000-0000-4000-8000-000000000000/pdf?lang=" + url.QueryEscape(p)
	}},
	{method: "POST", path: func(_ *fuzzWorld, p string) string { return "/v1/contracts/" + url.PathEscape(p) + "/cancel" }},
	{method: "POST", path: func(_ *fuzzWorld, p string) string { return "/v1/contracts/" + url.PathEscape(p) + "/complete" }},
	{method: "GET", path: func(_ *fuzzWorld, p string) string { return "/v1/templates?" + p }},
}

// FuzzKeyRequest fuzzes the list query (paging, filters, search) and the
// path parameters of the key interface.
func FuzzKeyRequest(f *testing.F) {
	w := newFuzzWorld(f)
	for i := range keyKinds {
		for _, p := range []string{"", "page=0&size=20", "statuses=CREATED&statuses=ACTIVE,SIGNED&templateId=" + w.Template.ID,
			"page=-1", "size=0", "size=1000000000000000000000", "page=99999999999&size=100", "search=" + fixture.CustomerIN,
			"search=2026-000001", "search=3123", "search=Aziz%20Karimov", "search=%ff%fe", "statuses=NOPE", "templateId=%00",
			w.contractID, fixture.CustomerIN, fixture.OwnerIN, w.Template.ID, "en", "..", "\x00"} {
			f.Add(uint8(i), p)
		}
	}
	f.Fuzz(func(t *testing.T, kind uint8, param string) {
		k := keyKinds[int(kind)%len(keyKinds)]
		target := k.path(w, param)
		if _, err := url.ParseRequestURI(target); err != nil {
			return // not a request a client could send
		}
		fuzzcheck.CheckJSON(t, fuzzcheck.Serve(w.h, k.method, target, "", w.key, nil), fmt.Sprintf("%s %s", k.method, target))
	})
}
