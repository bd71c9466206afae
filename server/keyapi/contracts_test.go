package keyapi

import (
	"slices"
	"testing"

	"contracts/internal/apitest"
	"contracts/internal/fixture"
	"contracts/signflow"
)

func TestCreateContract(t *testing.T) {
	e := newEnv(t, 0)
	k := e.KeyA.Secret
	fieldID := e.Template.Fields[0].ID
	apitest.Run(t, e.api, []apitest.Scenario{
		{Name: "owner sells, empty seller is the owner", Method: "POST", Path: "/v1/contracts", As: k, Body: e.sale(),
			Status: 200, Want: []string{`"id":"`}},
		{Name: "owner buys, empty buyer is the owner", Method: "POST", Path: "/v1/contracts", As: k,
			Body: map[string]any{"templateId": e.Template.ID, "sellerIn": fixture.CustomerIN, "price": 1}, Status: 200},
		{Name: "owner named explicitly", Method: "POST", Path: "/v1/contracts", As: k,
			Body: e.sale("sellerIn", fixture.OwnerIN), Status: 200},
		{Name: "unregistered counterparty", Method: "POST", Path: "/v1/contracts", As: k,
			Body: e.sale("buyerIn", fixture.UnknownIN), Status: 200},
		{Name: "every field", Method: "POST", Path: "/v1/contracts", As: k, Status: 200, Body: e.sale(
			"initialPayment", 50000, "deliveryAt", "2026-12-01T10:00:00+05:00",
			"values", []map[string]any{{"templateFieldId": fieldID, "value": "Toshkent", "position": 1, "id": signflow.NewID()},
				{"keyName": "warrantyMonths", "value": "12", "templateId": e.Template.ID}},
			"payments", []map[string]any{{"amount": 100000, "paymentDate": "2027-01-01T00:00:00Z"}},
			"products", []map[string]any{{"name": "Chair", "unit": "DONA", "price": 2500, "quantity": 2, "values": map[string]any{"color": "red"}}})},
		{Name: "unknown fields are ignored", Method: "POST", Path: "/v1/contracts", As: k, Body: e.sale("comment", "x", "extra", []int{1}),
			Status: 200},
		{Name: "both parties empty", Method: "POST", Path: "/v1/contracts", As: k,
			Body: map[string]any{"templateId": e.Template.ID, "price": 1}, Status: 400, Want: []string{"buyerIn and sellerIn"}},
		{Name: "both parties foreign", Method: "POST", Path: "/v1/contracts", As: k,
			Body: e.sale("sellerIn", fixture.OtherIN), Status: 403, Want: []string{"third parties"}},
		{Name: "owner on both sides", Method: "POST", Path: "/v1/contracts", As: k,
			Body: e.sale("buyerIn", fixture.OwnerIN, "sellerIn", fixture.OwnerIN), Status: 400},
		{Name: "bad party number", Method: "POST", Path: "/v1/contracts", As: k, Body: e.sale("buyerIn", "123"), Status: 400,
			Want: []string{"buyerIn: must be 14 digits"}},
		{Name: "price with a fraction", Method: "POST", Path: "/v1/contracts", As: k, Body: `{"templateId":"` + e.Template.ID +
			`","buyerIn":"` + fixture.CustomerIN + `","price":1500.5}`, Status: 400, Want: []string{"price: must be a whole number of minor units"}},
		{Name: "price as a string", Method: "POST", Path: "/v1/contracts", As: k, Body: e.sale("price", "150000"), Status: 400,
			Want: []string{"price: must be a number, not string"}},
		{Name: "negative price", Method: "POST", Path: "/v1/contracts", As: k, Body: e.sale("price", -1), Status: 400,
			Want: []string{"price: must be between 0"}},
		{Name: "initial payment with a fraction", Method: "POST", Path: "/v1/contracts", As: k, Body: e.sale("initialPayment", 0.25),
			Status: 400, Want: []string{"initialPayment: must be a whole number"}},
		{Name: "payment amount with a fraction", Method: "POST", Path: "/v1/contracts", As: k, Status: 400,
			Body: e.sale("payments", []map[string]any{{"amount": 10.5, "paymentDate": "2027-01-01T00:00:00Z"}}),
			Want: []string{"payments[0].amount: must be a whole number"}},
		{Name: "product price with a fraction", Method: "POST", Path: "/v1/contracts", As: k, Status: 400,
			Body: e.sale("products", []map[string]any{{"name": "Chair", "price": 99.9, "quantity": 1}}),
			Want: []string{"products[0].price: must be a whole number"}},
		{Name: "product amount as a bool", Method: "POST", Path: "/v1/contracts", As: k, Status: 400,
			Body: e.sale("products", []map[string]any{{"name": "Chair", "price": 1, "quantity": 1, "amount": true}}),
			Want: []string{"products.amount: must be a number, not bool"}},
		{Name: "wrong type names the field", Method: "POST", Path: "/v1/contracts", As: k, Body: e.sale("buyerIn", 31234567890123),
			Status: 400, Want: []string{"buyerIn: must be a string"}},
		{Name: "malformed JSON", Method: "POST", Path: "/v1/contracts", As: k, Body: `{"templateId":`, Status: 400,
			Want: []string{"Malformed request"}},
		{Name: "empty body", Method: "POST", Path: "/v1/contracts", As: k, Body: " ", Status: 400},
		{Name: "bad delivery date", Method: "POST", Path: "/v1/contracts", As: k, Body: e.sale("deliveryAt", "tomorrow"),
			Status: 400, Want: []string{"deliveryAt: must be a date-time"}},
		{Name: "missing template", Method: "POST", Path: "/v1/contracts", As: k, Body: map[string]any{"buyerIn": fixture.CustomerIN},
			Status: 400, Want: []string{"templateId: required"}},
		{Name: "unknown template", Method: "POST", Path: "/v1/contracts", As: k, Body: e.sale("templateId", signflow.NewID()),
			Status: 400, Want: []string{"templateId: no such template"}},
		{Name: "draft template", Method: "POST", Path: "/v1/contracts", As: k, Body: e.sale("templateId", e.Draft.ID), Status: 400},
		{Name: "template outside the key", Method: "POST", Path: "/v1/contracts", As: e.LimitedKey.Secret,
			Body: e.sale("templateId", e.Other.ID), Status: 403, Want: []string{"not allowed"}},
		{Name: "currency the template does not enable", Method: "POST", Path: "/v1/contracts", As: k, Body: e.sale("currency", "RUB"),
			Status: 400, Want: []string{"currency"}},
		{Name: "value of another template", Method: "POST", Path: "/v1/contracts", As: k, Status: 400,
			Body: e.sale("values", []map[string]any{{"keyName": "deliveryAddress", "value": "x", "templateId": e.Other.ID}}),
			Want: []string{"values[0].templateId"}},
	})
}

// Money goes in and out of the key interface in minor units and is the same
// amount in major units on the embedded read path of the same owner.
func TestMinorUnitRoundTrip(t *testing.T) {
	e := newEnv(t, 0)
	id := e.create(e.KeyA.Secret, e.sale("initialPayment", 50000,
		"payments", []map[string]any{{"amount": 100000, "paymentDate": "2027-01-01T00:00:00Z"}},
		"products", []map[string]any{{"name": "Chair", "price": 2500, "quantity": 2}}))
	r := e.do("GET", "/v1/contracts/"+id, e.KeyA.Secret, nil)
	got := r.JSON(t)
	if got["price"] != float64(150000) || got["initialPayment"] != float64(50000) {
		t.Fatalf("key read: price %v initialPayment %v", got["price"], got["initialPayment"])
	}
	v, err := e.Service.Contract(e.Access(t, e.AppA), id)
	if err != nil {
		t.Fatal(err)
	}
	if p, ip := signflow.MajorNumber(v.Price), signflow.MajorNumber(v.InitialPayment); p != "1500" || ip != "500" {
		t.Fatalf("embedded path: price %s initialPayment %s, want 1500 and 500", p, ip)
	}
	if a := signflow.MajorNumber(v.Payments[0].Amount); a != "1000" {
		t.Fatalf("payment %s, want 1000", a)
	}
	if pr, am := signflow.MajorNumber(v.Products[0].Price), signflow.MajorNumber(v.Products[0].Amount); pr != "25" || am != "50" {
		t.Fatalf("product price %s amount %s, want 25 and 50", pr, am)
	}
}

func TestReadContract(t *testing.T) {
	e := newEnv(t, 0)
	id := e.create(e.KeyA.Secret, e.sale("deliveryAt", "2026-12-01T15:00:00+05:00",
		"values", []map[string]any{{"keyName": "deliveryAddress", "value": "Toshkent", "position": 2}}))
	unregistered := e.create(e.KeyA.Secret, e.sale("buyerIn", fixture.UnknownIN))
	other := e.create(e.KeyA.Secret, e.sale("templateId", e.Other.ID))
	theirs := e.create(e.KeyB.Secret, e.sale())
	path := "/v1/contracts/" + id
	apitest.Run(t, e.api, []apitest.Scenario{
		{Name: "own contract", Method: "GET", Path: path, As: e.KeyA.Secret, Status: 200, Want: []string{
			`"id":"` + id + `"`, `"number":"2026-`, `"status":"CREATED"`, `"purpose":"CONTRACT"`, `"buyerStatus":"PENDING"`,
			`"sellerStatus":"PENDING"`, `"buyerIn":"` + fixture.CustomerIN + `"`, `"sellerIn":"` + fixture.OwnerIN + `"`,
			`"creatorIn":"` + fixture.OwnerIN + `"`, `"price":150000`, `"initialPayment":0`, `"currency":"UZS"`,
			`"deliveryAt":"2026-12-01T10:00:00Z"`, `"templateId":"` + e.Template.ID + `"`,
			`"buyer":{"firstName":"Aziz","lastName":"Karimov","legalName":null,"type":"CLIENT"}`,
			`"seller":{"firstName":null,"lastName":null,"legalName":"Alpha Savdo MChJ","type":"COMPANY"}`,
			`"createdBy":{"firstName":null,"lastName":null,"legalName":"Alpha Savdo MChJ","type":"COMPANY"}`,
			`"position":2`, `"value":"Toshkent"`, `"documentId":"` + id + `"`, `"keyName":"deliveryAddress"`, `"deleted":false`,
			`"createdDate":"` + e.at(0) + `"`, `"lastModifiedDate":"` + e.at(0) + `"`},
			// The parties' phones (the customer's and the owner's, as stored)
			// are never shown; ids may contain any digits, so look for the
			// numbers themselves.
			Not: []string{"phone", "998901234567", "998712000000", "passport", "version", "products", "hash", `"deleted":true`}},
		{Name: "unregistered party is null", Method: "GET", Path: "/v1/contracts/" + unregistered, As: e.KeyA.Secret, Status: 200,
			Want: []string{`"buyer":null`, `"buyerIn":"` + fixture.UnknownIN + `"`}},
		{Name: "another owner's contract", Method: "GET", Path: "/v1/contracts/" + theirs, As: e.KeyA.Secret, Status: 403,
			Want: []string{"does not belong"}, Not: []string{fixture.OtherIN}},
		{Name: "other owner reads ours", Method: "GET", Path: path, As: e.KeyB.Secret, Status: 403},
		{Name: "template outside the key", Method: "GET", Path: "/v1/contracts/" + other, As: e.LimitedKey.Secret, Status: 403,
			Want: []string{"template"}},
		{Name: "limited key, its template", Method: "GET", Path: path, As: e.LimitedKey.Secret, Status: 200},
		{Name: "unknown id", Method: "GET", Path: "/v1/contracts/" + signflow.NewID(), As: e.KeyA.Secret, Status: 404,
			Want: []string{"Contract not found."}},
		{Name: "not a UUID", Method: "GET", Path: "/v1/contracts/42", As: e.KeyA.Secret, Status: 404},
	})
	// Exactly the key interface's fields, and every date-time in the wire form.
	got := e.do("GET", path, e.KeyA.Secret, nil).JSON(t)
	want := []string{"id", "number", "status", "purpose", "buyerStatus", "sellerStatus", "buyerIn", "sellerIn", "creatorIn",
		"price", "initialPayment", "currency", "deliveryAt", "templateId", "templateVersion", "buyer", "seller", "createdBy", "values", "witnesses", "createdDate"}
	if k := keys(got); !slices.Equal(k, sorted(want)) {
		t.Fatalf("fields %v, want %v", k, sorted(want))
	}
	val := got["values"].([]any)[0].(map[string]any)
	wantVal := []string{"id", "position", "value", "documentId", "templateId", "templateFieldId", "keyName", "deleted",
		"createdDate", "lastModifiedDate"}
	if k := keys(val); !slices.Equal(k, sorted(wantVal)) {
		t.Fatalf("value fields %v, want %v", k, sorted(wantVal))
	}
	for _, s := range []any{got["createdDate"], got["deliveryAt"], val["createdDate"]} {
		if !apitest.WireDate.MatchString(s.(string)) {
			t.Errorf("date-time %v", s)
		}
	}
}

func TestCancelAndComplete(t *testing.T) {
	e := newEnv(t, 0)
	k := e.KeyA.Secret
	toCancel := e.create(k, e.sale())
	toComplete := e.create(k, e.sale())
	e.activate(toComplete)
	// Owner A is the buyer of B's contract but not its creator.
	notCreator := e.create(e.KeyB.Secret, e.sale("buyerIn", fixture.OwnerIN, "currency", "USD"))
	otherTemplate := e.create(k, e.sale("templateId", e.Other.ID))
	writeOnly := e.key([]string{signflow.ScopeContractsWrite})
	apitest.Run(t, e.api, []apitest.Scenario{
		{Name: "creator cancels", Method: "POST", Path: "/v1/contracts/" + toCancel + "/cancel", As: k, Status: 200,
			Want: []string{`"id":"` + toCancel + `"`, `"status":"CANCELLED"`, `"sellerStatus":"CANCELLED"`, `"buyerStatus":"PENDING"`,
				`"buyer":{"firstName":"Aziz"`, `"values":[]`}},
		{Name: "cancel twice", Method: "POST", Path: "/v1/contracts/" + toCancel + "/cancel", As: k, Status: 400,
			Want: []string{"only a CREATED contract can be cancelled"}},
		{Name: "cancel an ACTIVE contract", Method: "POST", Path: "/v1/contracts/" + toComplete + "/cancel", As: k, Status: 400},
		{Name: "complete a CANCELLED contract", Method: "POST", Path: "/v1/contracts/" + toCancel + "/complete", As: k, Status: 400,
			Want: []string{"only an ACTIVE contract can be completed"}},
		{Name: "a write-only key completes and gets the contract", Method: "POST", Path: "/v1/contracts/" + toComplete + "/complete",
			As: writeOnly, Status: 200, Want: []string{`"status":"COMPLETED"`, `"buyerStatus":"ACCEPTED"`, `"sellerStatus":"ACCEPTED"`}},
		{Name: "complete twice", Method: "POST", Path: "/v1/contracts/" + toComplete + "/complete", As: k, Status: 400},
		{Name: "party but not creator cancels", Method: "POST", Path: "/v1/contracts/" + notCreator + "/cancel", As: k, Status: 403,
			Want: []string{"Only the creator"}},
		{Name: "other owner cancels", Method: "POST", Path: "/v1/contracts/" + otherTemplate + "/cancel", As: e.KeyB.Secret,
			Status: 403},
		{Name: "template outside the key", Method: "POST", Path: "/v1/contracts/" + otherTemplate + "/cancel",
			As: e.LimitedKey.Secret, Status: 403},
		{Name: "unknown contract", Method: "POST", Path: "/v1/contracts/" + signflow.NewID() + "/complete", As: k, Status: 404},
	})
	// The change is in the audit trail, by the owner.
	trail, err := e.Service.AuditTrail(toCancel)
	if err != nil {
		t.Fatal(err)
	}
	last := trail[len(trail)-1]
	if last.Type != signflow.EventCancelled || last.ActorIN != fixture.OwnerIN {
		t.Fatalf("last audit event %+v", last)
	}
	if p := e.list(t, k, "statuses=COMPLETED"); p.TotalElements != 1 || !slices.Equal(p.ids(), []string{toComplete}) {
		t.Fatalf("completed contract not listed: %+v", p)
	}
}
