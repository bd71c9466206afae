package admin

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"contracts/assets"
	"contracts/internal/fixture"
	"contracts/internal/fuzzcheck"
	"contracts/server"

	"github.com/rs/zerolog"
)

// Kinds of admin request of FuzzAdminRequest: a body or a path or query
// parameter from the fuzzer.
var adminKinds = []struct {
	method, ctype string
	path          func(p string) string
}{
	{"POST", "application/json", func(string) string { return "/admin/v1/owners" }},
	{"POST", "application/json", func(string) string { return "/admin/v1/templates" }},
	{"POST", "application/yaml", func(string) string { return "/admin/v1/templates" }},
	{"POST", "application/json", func(string) string { return "/admin/v1/apps" }},
	{"POST", "application/json", func(string) string { return "/admin/v1/keys" }},
	{"POST", "", func(p string) string { return "/admin/v1/apps/" + url.PathEscape(p) + "/secret" }},
	{"POST", "", func(p string) string { return "/admin/v1/apps/" + url.PathEscape(p) + "/cancel" }},
	{"POST", "", func(p string) string { return "/admin/v1/keys/" + url.PathEscape(p) + "/revoke" }},
	{"GET", "", func(p string) string { return "/admin/v1/deliveries?" + p }},
	{"POST", "", func(p string) string { return "/admin/v1/deliveries/" + url.PathEscape(p) + "/redeliver" }},
}

// FuzzAdminRequest fuzzes the admin API's request types (owner, template in
// JSON and YAML, app, key) and its path and query parameters, through the
// real echo stack over a real bbolt file: no input may panic or answer 5xx.
// Seeds are in testdata/fuzz/FuzzAdminRequest; to fuzz:
//
//	go test -run '^$' -fuzz '^FuzzAdminRequest$' -fuzztime 1000000x ./server/admin/
func FuzzAdminRequest(f *testing.F) {
	const token = "fuzz-admin-token-0123456789abcdef"
	w := fuzzcheck.NewStandard(f)
	e := server.NewEcho("admin", zerolog.Nop(), nil, true)
	Register(e, Deps{Service: w.Service, DB: w.DB, Token: token, Metrics: server.NewMetrics()})
	auth := http.Header{"Authorization": {"Bearer " + token}}
	fuzzcheck.MustServe(f, e, "GET", "/admin/v1/deliveries", auth, http.StatusOK)
	bodies := map[int][]string{
		0: {`{"in":"301234560","type":"COMPANY","legalName":"Delta MChJ","phone":"+998 71 200-00-09"}`,
			`{"in":"31234567890120","firstName":"A","lastName":"B","phone":"998901112233","email":"a@b.uz"}`, `{"in":5}`},
		1: {`{"name":{"uz":"a","ru":"b","en":"c"},"sellerName":{"uz":"a","ru":"b","en":"c"},"buyerName":{"uz":"a","ru":"b","en":"c"},` +
			`"fields":[{"keyName":"k","type":"STRING","name":{"uz":"a","ru":"b","en":"c"}}]}`, `{"fields":{}}`},
		2: {string(assets.DemoTemplate), fixture.TemplateYAML, "name: [1, 2]\n", "a: &x [*x]\n"},
		3: {`{"name":"Shop","ownerIn":"` + fixture.OwnerIN + `","scopes":["CONTRACTS_READ","CONTRACTS_WRITE"],"allTemplates":true,` +
			`"webhookUrl":"https://shop.example/hook","webhookEvents":["CONTRACT_CREATED"],"expiresAt":"2030-01-01T00:00:00Z"}`,
			`{"name":"Shop","ownerIn":"` + fixture.OwnerIN + `","scopes":["NOPE"],"templateIds":["x"],"webhookUrl":"ftp://x"}`,
			`{"expiresAt":"tomorrow"}`,
			`{"name":"Shop","ownerIn":"` + fixture.OwnerIN + `","scopes":["CONTRACTS_READ"],"allTemplates":true,"webhookUrl":"http://169.254.169.254/latest/"}`,
			`{"name":"Shop","ownerIn":"` + fixture.OwnerIN + `","scopes":["CONTRACTS_READ"],"allTemplates":true,"webhookUrl":"http://[fe80::1%25eth0]:9/"}`,
			`{"name":"Shop","ownerIn":"` + fixture.OwnerIN + `","scopes":["CONTRACTS_READ"],"allTemplates":true,"webhookUrl":"http://0xa9fea9fe/"}`},
		4: {`{"name":"ERP","ownerIn":"` + fixture.OwnerIN + `","scopes":["CONTRACTS_READ"],"templateIds":["` + w.Template.ID + `"]}`,
			`{"name":"ERP","ownerIn":"` + fixture.OwnerIN + `","scopes":["CONTRACTS_READ"],"allTemplates":true,"webhookEvents":["CONTRACT_CREATED"]}`},
	}
	for i := range adminKinds {
		for _, b := range append(bodies[i], `{}`, ``) {
			f.Add(uint8(i), "", []byte(b))
		}
		for _, p := range []string{w.AppB.ID, w.KeyB.ID, "status=PENDING&contractId=x", "status=NOPE", "..", "%zz"} {
			f.Add(uint8(i), p, []byte(nil))
		}
	}
	f.Fuzz(func(t *testing.T, kind uint8, param string, body []byte) {
		k := adminKinds[int(kind)%len(adminKinds)]
		target := k.path(param)
		if _, err := url.ParseRequestURI(target); err != nil {
			return // not a request a client could send
		}
		a := fuzzcheck.Serve(e, k.method, target, k.ctype, auth, body)
		fuzzcheck.CheckJSON(t, a, fmt.Sprintf("%s %s", k.method, target))
	})
}
