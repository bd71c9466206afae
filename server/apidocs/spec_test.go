package apidocs_test

import (
	"slices"
	"sort"
	"strings"
	"testing"

	"contracts/assets"
	"contracts/signflow"

	"github.com/getkin/kin-openapi/openapi3"
)

// routes are the operations each interface serves (the spec and docs/decisions.md).
var routes = map[string][]string{
	"embedded": {
		"POST /v1/auth/token", "POST /v1/clients", "GET /v1/clients/{in}", "GET /v1/templates",
		"GET /v1/templates/{templateId}/fields", "POST /v1/contracts", "GET /v1/contracts/{id}",
		"GET /v1/contracts/{id}/pdf", "POST /v1/contracts/{id}/sign-sessions", "GET /v1/sign-sessions/{id}",
		"POST /v1/contracts/{id}/cancel", "POST /v1/contracts/{id}/complete",
		"GET /v1/contracts/{id}/payments", "POST /v1/contracts/{id}/payments", "POST /v1/contracts/{id}/payment-links",
	},
	"key": {
		"GET /v1/me", "GET /v1/templates", "GET /v1/templates/{templateId}/fields", "POST /v1/contracts",
		"GET /v1/contracts", "GET /v1/contracts/{id}", "GET /v1/contracts/{id}/pdf", "GET /v1/clients/{in}",
		"POST /v1/contracts/{id}/cancel", "POST /v1/contracts/{id}/complete",
		"GET /v1/contracts/{id}/payments", "POST /v1/contracts/{id}/payments", "POST /v1/contracts/{id}/payment-links",
	},
}

func documents(t *testing.T) map[string]*openapi3.T {
	t.Helper()
	return map[string]*openapi3.T{"embedded": load(t, assets.OpenAPIEmbedded), "key": load(t, assets.OpenAPIKey)}
}

func TestDocumentsDescribeEveryRoute(t *testing.T) {
	for name, doc := range documents(t) {
		var got []string
		for path, item := range doc.Paths.Map() {
			for method := range item.Operations() {
				got = append(got, method+" "+path)
			}
		}
		sort.Strings(got)
		want := slices.Clone(routes[name])
		sort.Strings(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: operations\n got %q\nwant %q", name, got, want)
		}
	}
}

// TestSecurity: a bearer token on the embedded interface (the token
// endpoint open), X-API-Key on the key interface, and each operation
// answers the errors of its security.
func TestSecurity(t *testing.T) {
	docs := documents(t)
	bearer := docs["embedded"].Components.SecuritySchemes["bearerAuth"].Value
	if bearer.Type != "http" || bearer.Scheme != "bearer" {
		t.Errorf("embedded scheme %+v", bearer)
	}
	key := docs["key"].Components.SecuritySchemes["apiKey"].Value
	if key.Type != "apiKey" || key.In != "header" || key.Name != "X-API-Key" {
		t.Errorf("key scheme %+v", key)
	}
	for name, doc := range docs {
		for path, item := range doc.Paths.Map() {
			for method, op := range item.Operations() {
				where := name + " " + method + " " + path
				open := op.Security != nil && len(*op.Security) == 0
				if open != (where == "embedded POST /v1/auth/token") {
					t.Errorf("%s: open=%v", where, open)
				}
				codes := []string{"401", "403", "500", "503"}
				if where == "key GET /v1/me" {
					codes = []string{"401", "500", "503"} // needs no scope
					if op.Responses.Value("403") != nil {
						t.Errorf("%s: 403, but it needs no scope", where)
					}
				}
				if method == "POST" {
					codes = append(codes, "413")
				}
				if name == "key" || open {
					codes = append(codes, "429")
				}
				if strings.Contains(path, "{") {
					codes = append(codes, "404")
				}
				if method == "POST" && !strings.HasSuffix(path, "/cancel") && !strings.HasSuffix(path, "/complete") && op.RequestBody == nil {
					t.Errorf("%s: no request body", where)
				}
				for _, c := range codes {
					if op.Responses.Value(c) == nil && !(c == "404" && path == "/v1/auth/token") {
						t.Errorf("%s: no %s response", where, c)
					}
				}
				if op.Responses.Value("200") == nil {
					t.Errorf("%s: no 200 response", where)
				}
				for code, r := range op.Responses.Map() {
					if code < "400" {
						continue
					}
					mt := r.Value.Content.Get("application/json")
					if mt == nil || mt.Schema.Ref != "#/components/schemas/Error" {
						t.Errorf("%s %s: not the error body", where, code)
					}
				}
			}
		}
	}
}

// TestErrorBodies: the key interface adds path and description.
func TestErrorBodies(t *testing.T) {
	docs := documents(t)
	want := map[string][]string{
		"embedded": {"code", "message", "status", "timestamp"},
		"key":      {"code", "description", "message", "path", "status", "timestamp"},
	}
	for name, doc := range docs {
		s := doc.Components.Schemas["Error"].Value
		got := slices.Sorted(func(yield func(string) bool) {
			for k := range s.Properties {
				if !yield(k) {
					return
				}
			}
		})
		if !slices.Equal(got, want[name]) || !slices.Equal(slices.Sorted(slices.Values(s.Required)), want[name]) {
			t.Errorf("%s: error body fields %v, required %v", name, got, s.Required)
		}
	}
}

// TestPDF: the PDF is binary application/pdf on both interfaces.
func TestPDF(t *testing.T) {
	for name, doc := range documents(t) {
		op := doc.Paths.Value("/v1/contracts/{id}/pdf").Get
		mt := op.Responses.Value("200").Value.Content["application/pdf"]
		if mt == nil || mt.Schema.Value.Format != "binary" {
			t.Errorf("%s: PDF response %+v", name, op.Responses.Value("200").Value.Content)
		}
	}
}

// TestEnumsMatchDomain: the documents list exactly the domain's values.
func TestEnumsMatchDomain(t *testing.T) {
	for name, doc := range documents(t) {
		s := doc.Components.Schemas
		check := func(what string, schema *openapi3.Schema, want []string) {
			t.Helper()
			var got []string
			for _, v := range schema.Enum {
				got = append(got, v.(string))
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s %s: enum %q, domain %q", name, what, got, want)
			}
		}
		check("ContractStatus", s["ContractStatus"].Value, signflow.ContractStatuses)
		check("FieldType", s["FieldType"].Value, signflow.FieldTypes)
		check("Unit", s["Unit"].Value, signflow.Units)
		check("Currency", s["Currency"].Value, signflow.Currencies)
		check("PartyStatus", s["PartyStatus"].Value, []string{signflow.PartyPending, signflow.PartyAccepted, signflow.PartyRejected, signflow.PartyCancelled})
		check("purpose", s["Contract"].Value.Properties["purpose"].Value, signflow.Purposes)
		check("position", s["TemplateField"].Value.Properties["position"].Value, signflow.FieldPositions)
		if name == "embedded" {
			check("exchangeMode", s["TemplateSummary"].Value.Properties["exchangeMode"].Value, signflow.ExchangeModes)
			check("SessionStatus", s["SessionStatus"].Value, []string{signflow.SessionPending, signflow.SessionSigned, signflow.SessionRejected, signflow.SessionExpired})
			check("SignMethod", s["SignMethod"].Value, []string{signflow.MethodOTP, signflow.MethodMyID, signflow.MethodAbleID, signflow.MethodEIMZO})
		} else {
			check("Scope", s["Scope"].Value, signflow.KeyScopes)
		}
	}
}
