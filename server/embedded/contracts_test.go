package embedded

import (
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"testing"

	"contracts/internal/apitest"
	"contracts/internal/fixture"
	"contracts/signflow"
)

const (
	productRequiredYAML = `name: {uz: "Yetkazish", ru: "Поставка", en: "Supply"}
sellerName: {uz: "S", ru: "S", en: "S"}
buyerName: {uz: "B", ru: "B", en: "B"}
productEnabled: true
productRequired: true
`
	witnessYAML = `name: {uz: "Guvoh", ru: "Свидетель", en: "Witnessed"}
sellerName: {uz: "S", ru: "S", en: "S"}
buyerName: {uz: "B", ru: "B", en: "B"}
witnessEnabled: true
witnessCount: 2
`
)

// witnessIDs registers two witnesses as the owner's tenant and returns their ids.
func witnessIDs(t *testing.T, svc *signflow.Service) []string {
	var ids []string
	for i, name := range []string{"Saidova", "Aliyev"} {
		c := fixture.MustClaim(t, svc, fixture.OwnerIN, &signflow.Client{IN: fmt.Sprintf("4111111111111%d", i), FirstName: "W",
			LastName: name, Phone: fmt.Sprintf("99890700000%d", i)})
		ids = append(ids, c.ID)
	}
	return ids
}

func TestCreateContract(t *testing.T) {
	e := newEnv(t, 0)
	tok := e.token(e.AppA)
	onlyOther := e.token(e.app(signflow.AppScopes, e.Other.ID))
	required := fixture.MustTemplate(t, e.Service, productRequiredYAML)
	witnessed := fixture.MustTemplate(t, e.Service, witnessYAML)
	witnesses, unknown := witnessIDs(t, e.Service), signflow.NewID()
	address := e.Template.Fields[0]
	body := func(over map[string]any) map[string]any {
		m := map[string]any{"templateId": e.Template.ID, "buyerIn": fixture.CustomerIN, "price": 1500.25, "currency": "UZS"}
		maps.Copy(m, over)
		for k, v := range over {
			if v == nil {
				delete(m, k)
			}
		}
		return m
	}
	post := func(name string, over map[string]any, status int, want ...string) apitest.Scenario {
		return apitest.Scenario{Name: name, Method: "POST", Path: "/v1/contracts", As: tok, Body: body(over), Status: status, Want: want}
	}
	apitest.Run(t, e.api, []apitest.Scenario{
		post("minimal: empty seller is the owner", nil, 200, `"id":"`),
		post("full", map[string]any{"currency": "USD", "initialPayment": 100.5, "deliveryAt": "2026-12-01T15:04:05+05:00",
			"values": []map[string]any{{"keyName": "deliveryAddress", "value": "Chilonzor 7", "position": 1},
				{"templateFieldId": e.Template.Fields[1].ID, "keyName": "warrantyMonths", "value": "12"}},
			"products": []map[string]any{{"name": "Televizor", "unit": "DONA", "price": 1500.25, "quantity": 1,
				"deliveryAt": "2026-12-01T00:00:00Z", "values": map[string]any{"color": "black"}}},
			"payments":   []map[string]any{{"amount": 500, "paymentDate": "2027-01-01T00:00:00Z"}},
			"witnessIds": []string{}, "extraField": true}, 200, `"id":"`),
		post("owner as buyer, customer as seller", map[string]any{"buyerIn": fixture.OwnerIN, "sellerIn": fixture.CustomerIN}, 200),
		post("unregistered counterparty is allowed", map[string]any{"buyerIn": fixture.UnknownIN}, 200),
		post("both parties empty", map[string]any{"buyerIn": ""}, 400, "buyerIn and sellerIn"),
		post("both parties the owner", map[string]any{"buyerIn": fixture.OwnerIN}, 400, "different parties"),
		post("same party twice", map[string]any{"sellerIn": fixture.CustomerIN}, 400, "different parties"),
		post("no owner party", map[string]any{"sellerIn": fixture.OtherIN}, 403, "One party must be the owner"),
		post("party number of 10 digits", map[string]any{"buyerIn": "1234567890"}, 400, "buyerIn: must be 14 digits"),
		post("templateId missing", map[string]any{"templateId": nil}, 400, "templateId: required"),
		post("templateId malformed", map[string]any{"templateId": "x1"}, 400, "templateId: must be a UUID"),
		post("templateId unknown", map[string]any{"templateId": signflow.NewID()}, 400, "templateId: no such template"),
		post("template not published", map[string]any{"templateId": e.Draft.ID}, 400, "not published"),
		{Name: "template not allowed for the app", Method: "POST", Path: "/v1/contracts", As: onlyOther, Body: body(nil),
			Status: 403, Want: []string{"not allowed"}},
		post("unknown currency", map[string]any{"currency": "EUR"}, 400, "currency"),
		post("currency not enabled by the template", map[string]any{"currency": "RUB"}, 400, "RUB is not enabled"),
		post("price with three decimals", map[string]any{"price": 1500.255}, 400, "price: must be a number with at most 2 decimal places"),
		post("negative price", map[string]any{"price": -1}, 400, "price"),
		post("price as a string", map[string]any{"price": "1500"}, 400, "price: must be a number, not string"),
		post("payment amount with three decimals", map[string]any{"payments": []map[string]any{{"amount": 0.001, "paymentDate": "2027-01-01T00:00:00Z"}}},
			400, "payments[0].amount"),
		post("payment without date", map[string]any{"payments": []map[string]any{{"amount": 5}}}, 400, "payments[0]"),
		post("payment date malformed", map[string]any{"payments": []map[string]any{{"amount": 5, "paymentDate": "tomorrow"}}},
			400, "payments[0].paymentDate"),
		post("deliveryAt malformed", map[string]any{"deliveryAt": "2026-13-01T00:00:00Z"}, 400, "deliveryAt: must be a date-time"),
		post("product price with three decimals", map[string]any{"products": []map[string]any{{"name": "A", "quantity": 1, "price": 1.001}}},
			400, "products[0].price"),
		post("product amount not price × quantity", map[string]any{"products": []map[string]any{{"name": "A", "quantity": 2, "price": 10, "amount": 25}}},
			400, "products[0].amount"),
		post("product value not a product field", map[string]any{"products": []map[string]any{{"name": "A", "quantity": 1, "values": map[string]any{"deliveryAddress": "x"}}}},
			400, "products[0].values"),
		// The review's STRING value: an array nested 9,996 deep.
		post("STRING product value nested 9,996 deep", map[string]any{"products": []map[string]any{{"name": "A", "quantity": 1,
			"values": map[string]any{"color": json.RawMessage(strings.Repeat("[", 9996) + strings.Repeat("]", 9996))}}}},
			400, "products[0].values.color: must be a string"),
		post("STRING product value a number", map[string]any{"products": []map[string]any{{"name": "A", "quantity": 1, "values": map[string]any{"color": 5}}}},
			400, "products[0].values.color: must be a string"),
		post("STRING product value too long", map[string]any{"products": []map[string]any{{"name": "A", "quantity": 1,
			"values": map[string]any{"color": strings.Repeat("x", 10001)}}}}, 400, "products[0].values.color: too long"),
		post("product unit unknown", map[string]any{"products": []map[string]any{{"name": "A", "quantity": 1, "unit": "BOX"}}}, 400, "products[0].unit"),
		post("products on a template without products", map[string]any{"templateId": e.Other.ID, "currency": "RUB",
			"products": []map[string]any{{"name": "A", "quantity": 1}}}, 400, "products: the template has no products"),
		post("products missing where required", map[string]any{"templateId": required.ID}, 400, "products: required"),
		post("products given where required", map[string]any{"templateId": required.ID, "products": []map[string]any{{"name": "A", "quantity": 3, "price": 2.5}}}, 200),
		post("payments on a template without a schedule", map[string]any{"templateId": e.Other.ID,
			"payments": []map[string]any{{"amount": 5, "paymentDate": "2027-01-01T00:00:00Z"}}}, 400, "payments: the template has no payment schedule"),
		post("initial payment on a template without it", map[string]any{"templateId": e.Other.ID, "initialPayment": 1}, 400, "initialPayment"),
		post("initial payment above price", map[string]any{"initialPayment": 2000}, 400, "initialPayment: must not exceed price"),
		post("value by unknown key", map[string]any{"values": []map[string]any{{"keyName": "nope", "value": "x"}}}, 400, "values[0]"),
		post("value whose keyName does not match its id", map[string]any{"values": []map[string]any{{"templateFieldId": address.ID, "keyName": "warrantyMonths", "value": "x"}}},
			400, "does not match templateFieldId"),
		post("value of the wrong type", map[string]any{"values": []map[string]any{{"keyName": "warrantyMonths", "value": "twelve"}}}, 400, "warrantyMonths"),
		post("value naming another template", map[string]any{"values": []map[string]any{{"keyName": "deliveryAddress", "value": "x", "templateId": e.Other.ID}}},
			400, "values[0].templateId"),
		post("value for a product field", map[string]any{"values": []map[string]any{{"keyName": "color", "value": "red"}}}, 400, "values[0]"),
		post("witnesses on a template without witnesses", map[string]any{"witnessIds": []string{signflow.NewID()}}, 400, "witnessIds"),
		post("too few witnesses", map[string]any{"templateId": witnessed.ID, "witnessIds": []string{signflow.NewID()}}, 400, "requires 2 witnesses"),
		post("witnesses as required", map[string]any{"templateId": witnessed.ID, "witnessIds": witnesses}, 200),
		post("unknown witness", map[string]any{"templateId": witnessed.ID, "witnessIds": []string{witnesses[0], unknown}}, 400, unknown),
		post("witness given twice", map[string]any{"templateId": witnessed.ID, "witnessIds": []string{witnesses[1], witnesses[1]}}, 400,
			witnesses[1]+`\" is given twice`),
		post("a party as its own witness", map[string]any{"templateId": witnessed.ID, "witnessIds": []string{witnesses[0], e.Customer.ID}}, 400,
			e.Customer.ID+`\" is a party`),
		post("witness id not a UUID", map[string]any{"templateId": witnessed.ID, "witnessIds": []string{"a", "b"}}, 400, "not a UUID"),
		post("buyerIn of the wrong type", map[string]any{"buyerIn": 31234567890123}, 400, "buyerIn: must be a string"),
		post("values of the wrong type", map[string]any{"values": "x"}, 400, "values: must be an array"),
		{Name: "malformed JSON", Method: "POST", Path: "/v1/contracts", As: tok, Body: `{"templateId": "`, Status: 400},
		{Name: "no token", Method: "POST", Path: "/v1/contracts", Body: body(nil), Status: 401},
	})
}

// Money crosses the wire in major units and is stored once, in minor units.
func TestMoneyRoundTrip(t *testing.T) {
	e := newEnv(t, 0)
	tok := e.token(e.AppA)
	id := e.createContract(tok, map[string]any{"templateId": e.Template.ID, "buyerIn": fixture.CustomerIN, "price": 1500.25,
		"initialPayment": 0.1, "products": []map[string]any{{"name": "A", "quantity": 0.5, "price": 3000.5}},
		"payments": []map[string]any{{"amount": 1000, "paymentDate": "2027-01-01T00:00:00Z"}}})
	v, err := e.Service.Contract(e.Access(t, e.AppA), id)
	if err != nil {
		t.Fatal(err)
	}
	if v.Price != 150025 || v.InitialPayment != 10 || v.Products[0].Price != 300050 || v.Products[0].Amount != 150025 || v.Payments[0].Amount != 100000 {
		t.Fatalf("stored minor units: price %d initial %d product %d/%d payment %d", v.Price, v.InitialPayment,
			v.Products[0].Price, v.Products[0].Amount, v.Payments[0].Amount)
	}
	r := e.do("GET", "/v1/contracts/"+id, tok, nil)
	for _, want := range []string{`"price":1500.25`, `"initialPayment":0.1`, `"price":3000.5`, `"amount":1500.25`, `"amount":1000`} {
		if !strings.Contains(r.String(), want) {
			t.Errorf("read back lacks %s: %s", want, r)
		}
	}
	if r := e.do("POST", "/v1/contracts", tok, `{"templateId":"`+e.Template.ID+`","buyerIn":"`+fixture.CustomerIN+`","price":1500.255}`); r.Status != 400 {
		t.Fatalf("1500.255: %d %s", r.Status, r)
	}
}

func TestCancelAndComplete(t *testing.T) {
	e := newEnv(t, 0)
	tokA, tokB := e.token(e.AppA), e.token(e.AppB)
	// Created by A, with B's owner as buyer: B reads it but is not the creator.
	shared := e.createContract(tokA, map[string]any{"templateId": e.Template.ID, "buyerIn": fixture.OtherIN})
	own := e.createContract(tokA, map[string]any{"templateId": e.Template.ID, "buyerIn": fixture.CustomerIN})
	active := e.createContract(tokA, map[string]any{"templateId": e.Template.ID, "buyerIn": fixture.CustomerIN})
	makeActive(t, e, active)
	apitest.Run(t, e.api, []apitest.Scenario{
		{Name: "cancel by a party that did not create it", Method: "POST", Path: "/v1/contracts/" + shared + "/cancel", As: tokB,
			Status: 403, Want: []string{"Only the creator"}},
		{Name: "cancel by the creator", Method: "POST", Path: "/v1/contracts/" + shared + "/cancel", As: tokA, Status: 200,
			Want: []string{`"status":"CANCELLED"`, `"sellerStatus":"CANCELLED"`, `"buyerStatus":"PENDING"`, `"version":2`, `"number":"`}},
		{Name: "cancel twice", Method: "POST", Path: "/v1/contracts/" + shared + "/cancel", As: tokA, Status: 400,
			Want: []string{"only a CREATED contract"}},
		{Name: "complete a CREATED contract", Method: "POST", Path: "/v1/contracts/" + own + "/complete", As: tokA, Status: 400,
			Want: []string{"only an ACTIVE contract"}},
		{Name: "cancel an ACTIVE contract", Method: "POST", Path: "/v1/contracts/" + active + "/cancel", As: tokA, Status: 400},
		{Name: "complete by another owner", Method: "POST", Path: "/v1/contracts/" + active + "/complete", As: tokB, Status: 403},
		{Name: "complete an ACTIVE contract", Method: "POST", Path: "/v1/contracts/" + active + "/complete", As: tokA, Status: 200,
			Want: []string{`"status":"COMPLETED"`, `"buyerStatus":"ACCEPTED"`, `"sellerStatus":"ACCEPTED"`}},
		{Name: "cancel unknown", Method: "POST", Path: "/v1/contracts/" + signflow.NewID() + "/cancel", As: tokA, Status: 404},
		{Name: "complete malformed id", Method: "POST", Path: "/v1/contracts/x/complete", As: tokA, Status: 404},
	})
	// An app with CONTRACTS_WRITE but not CONTRACTS_READ still gets the read response.
	writeOnly := e.token(e.app([]string{signflow.ScopeContractsWrite}))
	r := e.do("POST", "/v1/contracts/"+own+"/cancel", writeOnly, nil)
	if r.Status != 200 || !strings.Contains(r.String(), `"status":"CANCELLED"`) {
		t.Fatalf("cancel with write scope only: %d %s", r.Status, r)
	}
}

// makeActive records both signatures through the domain's state machine,
// as the signing page will, on the real store.
func makeActive(t *testing.T, e *env, id string) {
	t.Helper()
	fixture.Must(t, func() error {
		return e.DB.Update(func(tx signflow.Tx) error {
			c, err := tx.Contract(id)
			if err != nil {
				return err
			}
			for _, in := range []string{c.SellerIN, c.BuyerIN} {
				if _, err := c.Sign(in, signflow.Signature{Method: signflow.MethodOTP, At: e.Clock.Now()}, e.Clock.Now()); err != nil {
					return err
				}
			}
			return tx.PutContract(c)
		})
	})
}
