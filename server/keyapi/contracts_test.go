package keyapi

import (
	"slices"
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
)

func TestCreateContract(t *testing.T) {
	e := newEnv(t, 0)
	k := e.KeyA.Secret
	fieldID := e.Template.Fields[0].ID
	e.run(t, []scenario{
		{name: "owner sells, empty seller is the owner", method: "POST", path: "/v1/contracts", key: k, body: e.sale(),
			status: 200, want: []string{`"id":"`}},
		{name: "owner buys, empty buyer is the owner", method: "POST", path: "/v1/contracts", key: k,
			body: map[string]any{"templateId": e.Template.ID, "sellerIn": fixture.CustomerIN, "price": 1}, status: 200},
		{name: "owner named explicitly", method: "POST", path: "/v1/contracts", key: k,
			body: e.sale("sellerIn", fixture.OwnerIN), status: 200},
		{name: "unregistered counterparty", method: "POST", path: "/v1/contracts", key: k,
			body: e.sale("buyerIn", fixture.UnknownIN), status: 200},
		{name: "every field", method: "POST", path: "/v1/contracts", key: k, status: 200, body: e.sale(
			"initialPayment", 50000, "deliveryAt", "2026-12-01T10:00:00+05:00",
			"values", []map[string]any{{"templateFieldId": fieldID, "value": "Toshkent", "position": 1, "id": signflow.NewID()},
				{"keyName": "warrantyMonths", "value": "12", "templateId": e.Template.ID}},
			"payments", []map[string]any{{"amount": 100000, "paymentDate": "2027-01-01T00:00:00Z"}},
			"products", []map[string]any{{"name": "Chair", "unit": "DONA", "price": 2500, "quantity": 2, "values": map[string]any{"color": "red"}}})},
		{name: "unknown fields are ignored", method: "POST", path: "/v1/contracts", key: k, body: e.sale("comment", "x", "extra", []int{1}),
			status: 200},
		{name: "both parties empty", method: "POST", path: "/v1/contracts", key: k,
			body: map[string]any{"templateId": e.Template.ID, "price": 1}, status: 400, want: []string{"buyerIn and sellerIn"}},
		{name: "both parties foreign", method: "POST", path: "/v1/contracts", key: k,
			body: e.sale("sellerIn", fixture.OtherIN), status: 403, want: []string{"third parties"}},
		{name: "owner on both sides", method: "POST", path: "/v1/contracts", key: k,
			body: e.sale("buyerIn", fixture.OwnerIN, "sellerIn", fixture.OwnerIN), status: 400},
		{name: "bad party number", method: "POST", path: "/v1/contracts", key: k, body: e.sale("buyerIn", "123"), status: 400,
			want: []string{"buyerIn: must be 14 digits"}},
		{name: "price with a fraction", method: "POST", path: "/v1/contracts", key: k, body: `{"templateId":"` + e.Template.ID +
			`","buyerIn":"` + fixture.CustomerIN + `","price":1500.5}`, status: 400, want: []string{"price: must be a whole number of minor units"}},
		{name: "price as a string", method: "POST", path: "/v1/contracts", key: k, body: e.sale("price", "150000"), status: 400,
			want: []string{"price: must be a number, not string"}},
		{name: "negative price", method: "POST", path: "/v1/contracts", key: k, body: e.sale("price", -1), status: 400,
			want: []string{"price: must be between 0"}},
		{name: "initial payment with a fraction", method: "POST", path: "/v1/contracts", key: k, body: e.sale("initialPayment", 0.25),
			status: 400, want: []string{"initialPayment: must be a whole number"}},
		{name: "payment amount with a fraction", method: "POST", path: "/v1/contracts", key: k, status: 400,
			body: e.sale("payments", []map[string]any{{"amount": 10.5, "paymentDate": "2027-01-01T00:00:00Z"}}),
			want: []string{"payments[0].amount: must be a whole number"}},
		{name: "product price with a fraction", method: "POST", path: "/v1/contracts", key: k, status: 400,
			body: e.sale("products", []map[string]any{{"name": "Chair", "price": 99.9, "quantity": 1}}),
			want: []string{"products[0].price: must be a whole number"}},
		{name: "product amount as a bool", method: "POST", path: "/v1/contracts", key: k, status: 400,
			body: e.sale("products", []map[string]any{{"name": "Chair", "price": 1, "quantity": 1, "amount": true}}),
			want: []string{"products.amount: must be a number, not bool"}},
		{name: "wrong type names the field", method: "POST", path: "/v1/contracts", key: k, body: e.sale("buyerIn", 31234567890123),
			status: 400, want: []string{"buyerIn: must be a string"}},
		{name: "malformed JSON", method: "POST", path: "/v1/contracts", key: k, body: `{"templateId":`, status: 400,
			want: []string{"Malformed request"}},
		{name: "empty body", method: "POST", path: "/v1/contracts", key: k, body: " ", status: 400},
		{name: "bad delivery date", method: "POST", path: "/v1/contracts", key: k, body: e.sale("deliveryAt", "tomorrow"),
			status: 400, want: []string{"deliveryAt: must be a date-time"}},
		{name: "missing template", method: "POST", path: "/v1/contracts", key: k, body: map[string]any{"buyerIn": fixture.CustomerIN},
			status: 400, want: []string{"templateId: required"}},
		{name: "unknown template", method: "POST", path: "/v1/contracts", key: k, body: e.sale("templateId", signflow.NewID()),
			status: 400, want: []string{"templateId: no such template"}},
		{name: "draft template", method: "POST", path: "/v1/contracts", key: k, body: e.sale("templateId", e.Draft.ID), status: 400},
		{name: "template outside the key", method: "POST", path: "/v1/contracts", key: e.LimitedKey.Secret,
			body: e.sale("templateId", e.Other.ID), status: 403, want: []string{"not allowed"}},
		{name: "currency the template does not enable", method: "POST", path: "/v1/contracts", key: k, body: e.sale("currency", "RUB"),
			status: 400, want: []string{"currency"}},
		{name: "value of another template", method: "POST", path: "/v1/contracts", key: k, status: 400,
			body: e.sale("values", []map[string]any{{"keyName": "deliveryAddress", "value": "x", "templateId": e.Other.ID}}),
			want: []string{"values[0].templateId"}},
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
	got := r.json(t)
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
	e.run(t, []scenario{
		{name: "own contract", method: "GET", path: path, key: e.KeyA.Secret, status: 200, want: []string{
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
			not: []string{"phone", "998901234567", "998712000000", "passport", "version", "products", "hash", `"deleted":true`}},
		{name: "unregistered party is null", method: "GET", path: "/v1/contracts/" + unregistered, key: e.KeyA.Secret, status: 200,
			want: []string{`"buyer":null`, `"buyerIn":"` + fixture.UnknownIN + `"`}},
		{name: "another owner's contract", method: "GET", path: "/v1/contracts/" + theirs, key: e.KeyA.Secret, status: 403,
			want: []string{"does not belong"}, not: []string{fixture.OtherIN}},
		{name: "other owner reads ours", method: "GET", path: path, key: e.KeyB.Secret, status: 403},
		{name: "template outside the key", method: "GET", path: "/v1/contracts/" + other, key: e.LimitedKey.Secret, status: 403,
			want: []string{"template"}},
		{name: "limited key, its template", method: "GET", path: path, key: e.LimitedKey.Secret, status: 200},
		{name: "unknown id", method: "GET", path: "/v1/contracts/" + signflow.NewID(), key: e.KeyA.Secret, status: 404,
			want: []string{"Contract not found."}},
		{name: "not a UUID", method: "GET", path: "/v1/contracts/42", key: e.KeyA.Secret, status: 404},
	})
	// Exactly the key interface's fields, and every date-time in the wire form.
	got := e.do("GET", path, e.KeyA.Secret, nil).json(t)
	want := []string{"id", "number", "status", "purpose", "buyerStatus", "sellerStatus", "buyerIn", "sellerIn", "creatorIn",
		"price", "initialPayment", "currency", "deliveryAt", "templateId", "buyer", "seller", "createdBy", "values", "createdDate"}
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
		if !wireDate.MatchString(s.(string)) {
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
	e.run(t, []scenario{
		{name: "creator cancels", method: "POST", path: "/v1/contracts/" + toCancel + "/cancel", key: k, status: 200,
			want: []string{`"id":"` + toCancel + `"`, `"status":"CANCELLED"`, `"sellerStatus":"CANCELLED"`, `"buyerStatus":"PENDING"`,
				`"buyer":{"firstName":"Aziz"`, `"values":[]`}},
		{name: "cancel twice", method: "POST", path: "/v1/contracts/" + toCancel + "/cancel", key: k, status: 400,
			want: []string{"only a CREATED contract can be cancelled"}},
		{name: "cancel an ACTIVE contract", method: "POST", path: "/v1/contracts/" + toComplete + "/cancel", key: k, status: 400},
		{name: "complete a CANCELLED contract", method: "POST", path: "/v1/contracts/" + toCancel + "/complete", key: k, status: 400,
			want: []string{"only an ACTIVE contract can be completed"}},
		{name: "a write-only key completes and gets the contract", method: "POST", path: "/v1/contracts/" + toComplete + "/complete",
			key: writeOnly, status: 200, want: []string{`"status":"COMPLETED"`, `"buyerStatus":"ACCEPTED"`, `"sellerStatus":"ACCEPTED"`}},
		{name: "complete twice", method: "POST", path: "/v1/contracts/" + toComplete + "/complete", key: k, status: 400},
		{name: "party but not creator cancels", method: "POST", path: "/v1/contracts/" + notCreator + "/cancel", key: k, status: 403,
			want: []string{"Only the creator"}},
		{name: "other owner cancels", method: "POST", path: "/v1/contracts/" + otherTemplate + "/cancel", key: e.KeyB.Secret,
			status: 403},
		{name: "template outside the key", method: "POST", path: "/v1/contracts/" + otherTemplate + "/cancel",
			key: e.LimitedKey.Secret, status: 403},
		{name: "unknown contract", method: "POST", path: "/v1/contracts/" + signflow.NewID() + "/complete", key: k, status: 404},
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
