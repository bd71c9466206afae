package embedded

import (
	"regexp"
	"strings"
	"testing"

	"contracts/internal/apitest"
	"contracts/internal/fixture"
	"contracts/internal/testtools"
	"contracts/signflow"

	"github.com/google/uuid"
)

func TestReadContract(t *testing.T) {
	e := newEnv(t, 0)
	tok := e.token(e.AppA)
	id := e.createContract(tok, map[string]any{"templateId": e.Template.ID, "buyerIn": fixture.CustomerIN, "price": 1500.25,
		"initialPayment": 100, "deliveryAt": "2026-12-01T15:04:05+05:00",
		"values":   []map[string]any{{"keyName": "deliveryAddress", "value": "Chilonzor 7", "position": 2}},
		"products": []map[string]any{{"name": "Televizor", "quantity": 1, "price": 1500.25, "deliveryAt": "2026-12-02T00:00:00Z", "values": map[string]any{"color": "black"}}},
		"payments": []map[string]any{{"amount": 500, "paymentDate": "2027-01-01T00:00:00.5Z"}}})
	unregistered := e.createContract(tok, map[string]any{"templateId": e.Template.ID, "buyerIn": fixture.UnknownIN, "currency": "USD"})
	otherOwner := e.createContract(e.token(e.AppB), map[string]any{"templateId": e.Template.ID, "buyerIn": fixture.CustomerIN})
	onlyOther := e.token(e.app(signflow.AppScopes, e.Other.ID))

	apitest.Run(t, e.api, []apitest.Scenario{
		{Name: "own contract", Method: "GET", Path: "/v1/contracts/" + id, As: tok, Status: 200,
			Want: []string{`"id":"` + id + `"`, `"number":"2026-000001"`, `"status":"CREATED"`, `"purpose":"CONTRACT"`,
				`"buyerStatus":"PENDING"`, `"sellerStatus":"PENDING"`, `"buyerIn":"` + fixture.CustomerIN + `"`,
				`"sellerIn":"` + fixture.OwnerIN + `"`, `"creatorIn":"` + fixture.OwnerIN + `"`, `"price":1500.25`,
				`"initialPayment":100`, `"currency":"UZS"`, `"deliveryAt":"2026-12-01T10:04:05Z"`,
				`"templateId":"` + e.Template.ID + `"`, `"buyerUserId":"` + e.Customer.ID + `"`,
				`"firstName":"Aziz"`, `"phone":"998901234567"`, `"legalName":"Alpha Savdo MChJ"`, `"type":"COMPANY"`,
				`"exchangeMode":"GOODS"`, `"name":{"uz":"Oldi-sotdi shartnomasi","ru":"Договор купли-продажи","en":"Sales contract"}`,
				`"sellerName":{"uz":"Sotuvchi"`, `"buyerName":{"uz":"Xaridor"`, `"documentId":"` + id + `"`,
				`"keyName":"deliveryAddress"`, `"value":"Chilonzor 7"`, `"position":2`, `"unit":"DONA"`, `"amount":1500.25`,
				`"values":{"color":"black"}`, `"deliveryAt":"2026-12-02T00:00:00Z"`, `"paymentDate":"2027-01-01T00:00:00Z"`,
				`"witnessIds":[]`, `"deleted":false`, `"version":1`, `"createdDate":"2026-11-22T09:00:00Z"`},
			Not: []string{"body", "hash", "signatures", "appId", `"seq"`}},
		{Name: "unregistered party is null", Method: "GET", Path: "/v1/contracts/" + unregistered, As: tok, Status: 200,
			Want: []string{`"buyer":null`, `"buyerUserId":null`, `"seller":{`, `"currency":"USD"`, `"deliveryAt":null`,
				`"values":[]`, `"products":[]`, `"payments":[]`}},
		{Name: "another owner's contract", Method: "GET", Path: "/v1/contracts/" + otherOwner, As: tok, Status: 403,
			Want: []string{"does not belong to the owner"}},
		{Name: "contract of a template the app may not use", Method: "GET", Path: "/v1/contracts/" + id, As: onlyOther, Status: 403},
		{Name: "unknown id", Method: "GET", Path: "/v1/contracts/" + signflow.NewID(), As: tok, Status: 404,
			Want: []string{"Contract not found."}},
		{Name: "malformed id", Method: "GET", Path: "/v1/contracts/not-a-uuid", As: tok, Status: 404},
	})

	body := e.do("GET", "/v1/contracts/"+id, tok, nil).JSON(t)
	assertKeys(t, body, "id", "number", "status", "purpose", "buyerStatus", "sellerStatus", "buyerIn", "sellerIn", "creatorIn",
		"price", "initialPayment", "currency", "currencyId", "deliveryAt", "templateId", "templateVersion", "template", "buyer", "seller",
		"createdBy", "buyerUserId", "sellerUserId", "values", "products", "payments", "witnessIds", "witnesses", "deleted",
		"createdDate", "lastModifiedDate", "version")
	assertKeys(t, body["buyer"].(map[string]any), "id", "firstName", "lastName", "phone", "legalName", "type")
	assertKeys(t, body["template"].(map[string]any), "id", "name", "sellerName", "buyerName", "exchangeMode")
	assertKeys(t, body["values"].([]any)[0].(map[string]any), "id", "position", "value", "documentId", "templateId",
		"templateFieldId", "keyName", "deleted", "createdDate", "lastModifiedDate")
	assertKeys(t, body["products"].([]any)[0].(map[string]any), "id", "name", "unit", "price", "quantity", "amount", "deliveryAt", "values")
	assertKeys(t, body["payments"].([]any)[0].(map[string]any), "amount", "paymentDate")
	if body["sellerUserId"] == nil || body["createdBy"].(map[string]any)["id"] != body["sellerUserId"] {
		t.Errorf("createdBy and sellerUserId: %v %v", body["createdBy"], body["sellerUserId"])
	}
	checkDates(t, "", body)

	// currencyId is a UUID, the same for every contract of a currency.
	usd := e.do("GET", "/v1/contracts/"+unregistered, tok, nil).JSON(t)["currencyId"]
	uzs := body["currencyId"]
	if uuid.Validate(uzs.(string)) != nil || uzs == usd {
		t.Errorf("currencyId UZS %v, USD %v", uzs, usd)
	}
	again := e.createContract(tok, map[string]any{"templateId": e.Template.ID, "buyerIn": fixture.CustomerIN})
	if got := e.do("GET", "/v1/contracts/"+again, tok, nil).JSON(t)["currencyId"]; got != uzs {
		t.Errorf("currencyId not stable: %v vs %v", got, uzs)
	}
}

// checkDates asserts that every *Date, *At and date-time value is in the
// wire form YYYY-MM-DDThh:mm:ssZ.
func checkDates(t *testing.T, path string, v any) {
	t.Helper()
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if s, ok := x.(string); ok && (strings.HasSuffix(k, "Date") || strings.HasSuffix(k, "At")) && !apitest.WireDate.MatchString(s) {
				t.Errorf("%s.%s = %q is not YYYY-MM-DDThh:mm:ssZ", path, k, s)
			}
			checkDates(t, path+"."+k, x)
		}
	case []any:
		for _, x := range v {
			checkDates(t, path+"[]", x)
		}
	}
}

func TestContractPDF(t *testing.T) {
	e := newEnv(t, 0)
	tok := e.token(e.AppA)
	id := e.createContract(tok, map[string]any{"templateId": e.Template.ID, "buyerIn": fixture.CustomerIN, "price": 1500.25,
		"values": []map[string]any{{"keyName": "deliveryAddress", "value": "Chilonzor 7"}}})
	v, err := e.Service.Contract(e.Access(t, e.AppA), id)
	if err != nil {
		t.Fatal(err)
	}
	otherOwner := e.createContract(e.token(e.AppB), map[string]any{"templateId": e.Template.ID, "buyerIn": fixture.CustomerIN})

	for _, tc := range []struct {
		lang, want string
	}{{want: "Xaridor"}, {lang: "uz", want: "Xaridor"}, {lang: "ru", want: "Покупатель"}, {lang: "en", want: "Buyer"}} {
		t.Run("lang "+tc.lang, func(t *testing.T) {
			path := "/v1/contracts/" + id + "/pdf"
			if tc.lang != "" {
				path += "?lang=" + tc.lang
			}
			r := e.do("GET", path, tok, nil)
			if r.Status != 200 || r.Header.Get("Content-Type") != "application/pdf" || !strings.HasPrefix(r.Body, "%PDF-") {
				t.Fatalf("%d %q %.40s", r.Status, r.Header.Get("Content-Type"), r.Body)
			}
			text := testtools.PDFText(t, []byte(r.Body))
			for _, want := range []string{v.Number, "Karimov Aziz", "Alpha Savdo MChJ", tc.want, "Chilonzor 7", v.Hash} {
				if !strings.Contains(text, want) {
					t.Errorf("PDF text lacks %q", want)
				}
			}
			verify := testBaseURL + "/verify/" + id + "?h=" + v.Hash[:16]
			if flat := regexp.MustCompile(`\s+`).ReplaceAllString(text, ""); !strings.Contains(flat, verify) {
				t.Errorf("PDF text lacks the verify URL %s", verify)
			}
		})
	}
	apitest.Run(t, e.api, []apitest.Scenario{
		{Name: "unknown lang", Method: "GET", Path: "/v1/contracts/" + id + "/pdf?lang=de", As: tok, Status: 400, Want: []string{"lang"}},
		{Name: "another owner's contract", Method: "GET", Path: "/v1/contracts/" + otherOwner + "/pdf", As: tok, Status: 403},
		{Name: "unknown contract", Method: "GET", Path: "/v1/contracts/" + signflow.NewID() + "/pdf", As: tok, Status: 404},
	})
}
