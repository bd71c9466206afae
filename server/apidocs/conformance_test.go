package apidocs_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"contracts/internal/apitest"
	"contracts/internal/fixture"
	"contracts/server"
	"contracts/server/embedded"
	"contracts/server/keyapi"
	"contracts/signflow"

	"github.com/rs/zerolog"
)

// api sends requests through the validating transport of one interface.
type api struct {
	t      *testing.T
	base   string
	client *http.Client
	header http.Header
}

func newAPI(t *testing.T, which apitest.Interface, h http.Handler, header http.Header) *api {
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return &api{t: t, base: srv.URL, client: &http.Client{Transport: apitest.Wrap(t, which, srv.Client().Transport)}, header: header}
}

// call sends body (a string as is, anything else as JSON) and returns the
// status and the body.
func (a *api) call(method, path string, body any, header ...string) (int, []byte) {
	a.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		data, _ := json.Marshal(b)
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, a.base+path, rd)
	if err != nil {
		a.t.Fatal(err)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range a.header {
		req.Header[k] = v
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := a.client.Do(req)
	if err != nil {
		a.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, data
}

// expect calls and fails unless the status is want; it returns the JSON
// object of the answer (nil for other bodies).
func (a *api) expect(want int, method, path string, body any, header ...string) map[string]any {
	a.t.Helper()
	status, data := a.call(method, path, body, header...)
	if status != want {
		a.t.Fatalf("%s %s: %d, want %d: %s", method, path, status, want, data)
	}
	var m map[string]any
	_ = json.Unmarshal(data, &m)
	return m
}

// sign records both parties' signatures in the store, through the state
// machine: the signing page is not part of these interfaces.
func sign(t *testing.T, w *fixture.Standard, id string, parties ...string) {
	t.Helper()
	fixture.Must(t, func() error {
		return w.DB.Update(func(tx signflow.Tx) error {
			c, err := tx.Contract(id)
			if err != nil {
				return err
			}
			for _, in := range parties {
				if _, err := c.Sign(in, signflow.Signature{Method: signflow.MethodOTP, At: w.Clock.Now()}, w.Clock.Now()); err != nil {
					return err
				}
			}
			return tx.PutContract(c)
		})
	})
}

var signToken = regexp.MustCompile(`/sign/([A-Za-z0-9_-]+)$`)

// TestEmbeddedConformance drives every operation of the embedded interface
// on the real handlers and checks each exchange against the document.
func TestEmbeddedConformance(t *testing.T) {
	w := fixture.NewStandard(t)
	e := server.NewEcho("embedded", zerolog.Nop(), nil, false)
	embedded.Register(e, embedded.Deps{Service: w.Service, BaseURL: "https://sign.example", Now: w.Clock.Now})
	open := newAPI(t, apitest.Embedded, e, nil)
	tok := open.expect(200, "POST", "/v1/auth/token", map[string]string{"appId": w.AppA.ID, "appSecret": w.AppA.Secret})["accessToken"].(string)
	a := newAPI(t, apitest.Embedded, e, http.Header{"Authorization": {"Bearer " + tok}})

	a.expect(200, "POST", "/v1/clients", map[string]any{"in": "32345678901234", "firstName": "Dilnoza", "lastName": "Rahimova",
		"midName": "Akmalovna", "phone": "+998 91 765-43-21", "passport": "AA1234567", "passportIssuedBy": "IIV",
		"passportIssueDate": "2020-01-15", "passportExpiryDate": "2030-01-14", "birthday": "1995-06-01", "isMan": false,
		"address": "Samarqand", "email": "d@example.uz"})
	a.expect(200, "POST", "/v1/clients", map[string]any{"in": "305555555", "type": "COMPANY", "legalName": "Gamma LLC"})
	a.expect(200, "GET", "/v1/clients/305555555", nil)
	a.expect(200, "GET", "/v1/clients/"+fixture.CustomerIN, nil)
	a.expect(404, "GET", "/v1/clients/"+fixture.UnknownIN, nil)
	a.expect(400, "GET", "/v1/clients/123", nil)
	a.expect(200, "GET", "/v1/templates", nil)
	a.expect(200, "GET", "/v1/templates/"+w.Template.ID+"/fields", nil)
	a.expect(404, "GET", "/v1/templates/"+signflow.NewID()+"/fields", nil)

	full := map[string]any{"templateId": w.Template.ID, "buyerIn": fixture.CustomerIN, "price": 1500.5, "currency": "USD",
		"initialPayment": 500, "deliveryAt": "2026-12-01T10:00:00+05:00",
		"values":   []any{map[string]any{"keyName": "deliveryAddress", "value": "Toshkent", "position": 1}},
		"payments": []any{map[string]any{"amount": 1000.5, "paymentDate": "2027-01-01T00:00:00Z"}},
		"products": []any{map[string]any{"name": "Fridge", "unit": "DONA", "price": 1500.5, "quantity": 1,
			"deliveryAt": "2026-12-01T00:00:00Z", "values": map[string]any{"color": "white"}}}}
	id := a.expect(200, "POST", "/v1/contracts", full)["id"].(string)
	a.expect(200, "GET", "/v1/contracts/"+id, nil)

	// A deadline, an Idempotency-Key replayed and reused for another body,
	// and a signing link texted.
	withKey := map[string]any{"templateId": w.Template.ID, "buyerIn": fixture.CustomerIN, "price": 10, "signBy": "2027-01-01T00:00:00Z"}
	once := a.expect(200, "POST", "/v1/contracts", withKey, "Idempotency-Key", "conformance-1")["id"].(string)
	if again := a.expect(200, "POST", "/v1/contracts", withKey, "Idempotency-Key", "conformance-1")["id"]; again != once {
		t.Errorf("the replayed id %v, want %s", again, once)
	}
	a.expect(400, "POST", "/v1/contracts", full, "Idempotency-Key", "conformance-1")
	if c := a.expect(200, "GET", "/v1/contracts/"+once, nil); c["signBy"] != "2027-01-01T00:00:00Z" {
		t.Errorf("signBy reads %v", c["signBy"])
	}
	texted := a.expect(200, "POST", "/v1/contracts/"+once+"/sign-sessions", map[string]any{"signerIn": fixture.CustomerIN, "notify": "SMS"})
	if s := a.expect(200, "GET", "/v1/sign-sessions/"+texted["id"].(string), nil); s["notifiedAt"] == nil || texted["notifiedAt"] == nil {
		t.Errorf("notifiedAt: %v, %v", texted["notifiedAt"], s["notifiedAt"])
	}
	a.expect(200, "GET", "/v1/contracts/"+id+"/pdf?lang=en", nil)
	a.expect(200, "GET", "/v1/contracts/"+id+"/pdf", nil)
	a.expect(400, "GET", "/v1/contracts/"+id+"/pdf?lang=de", nil)

	// A party not registered yet is null.
	foreign := a.expect(200, "POST", "/v1/contracts", map[string]any{"templateId": w.Template.ID, "buyerIn": fixture.UnknownIN, "price": 10})["id"].(string)
	if c := a.expect(200, "GET", "/v1/contracts/"+foreign, nil); c["buyer"] != nil || c["buyerUserId"] != nil {
		t.Errorf("unregistered buyer: %v %v", c["buyer"], c["buyerUserId"])
	}

	// The customer signs through an SMS session; the session reads SIGNED.
	sess := a.expect(200, "POST", "/v1/contracts/"+id+"/sign-sessions", map[string]any{"signerIn": fixture.CustomerIN,
		"lang": "ru", "parentOrigin": "https://shop.example", "redirectUrl": "https://shop.example/done"})
	a.expect(200, "GET", "/v1/sign-sessions/"+sess["id"].(string), nil)
	token := signToken.FindStringSubmatch(sess["url"].(string))[1]
	if _, err := w.Service.SendCode(context.Background(), token, signflow.Actor{}); err != nil {
		t.Fatal(err)
	}
	code := regexp.MustCompile(`\d{5}`).FindString(w.SMS.Last().Text)
	if _, err := w.Service.ConfirmCode(token, code, signflow.Actor{}); err != nil {
		t.Fatal(err)
	}
	if s := a.expect(200, "GET", "/v1/sign-sessions/"+sess["id"].(string), nil); s["status"] != "SIGNED" || s["completedAt"] == nil {
		t.Errorf("signed session: %v", s)
	}
	a.expect(400, "POST", "/v1/contracts/"+id+"/sign-sessions", map[string]any{"signerIn": fixture.CustomerIN})
	a.expect(404, "GET", "/v1/sign-sessions/"+signflow.NewID(), nil)

	sign(t, w, id, fixture.OwnerIN)
	a.expect(200, "POST", "/v1/contracts/"+id+"/payments", map[string]any{"amount": 200.5, "paidAt": "2026-11-22T08:00:00Z",
		"method": "CASH", "reference": "PKO-1"})
	a.expect(400, "POST", "/v1/contracts/"+id+"/payments", map[string]any{"amount": 5000, "paidAt": "2026-11-22T08:00:00Z", "method": "BANK"})
	a.expect(200, "GET", "/v1/contracts/"+id+"/payments", nil)
	a.expect(400, "POST", "/v1/contracts/"+id+"/payment-links", map[string]any{"provider": "PAYME"}) // a USD contract
	uzs := a.expect(200, "POST", "/v1/contracts", map[string]any{"templateId": w.Template.ID, "buyerIn": fixture.CustomerIN, "price": 1000, "currency": "UZS"})["id"].(string)
	sign(t, w, uzs, fixture.CustomerIN, fixture.OwnerIN)
	if _, err := w.Service.SetMerchant(fixture.OwnerIN, &signflow.MerchantInput{Payme: &signflow.PaymeInput{MerchantID: "m", Key: "k"}}); err != nil {
		t.Fatal(err)
	}
	a.expect(200, "POST", "/v1/contracts/"+uzs+"/payment-links", map[string]any{"provider": "PAYME", "amount": 250.5})
	if c := a.expect(200, "POST", "/v1/contracts/"+id+"/complete", nil); c["status"] != "COMPLETED" {
		t.Errorf("completed: %v", c["status"])
	}
	a.expect(400, "POST", "/v1/contracts/"+id+"/cancel", nil)
	a.expect(200, "POST", "/v1/contracts/"+foreign+"/cancel", nil)

	// Errors of every kind, each checked against the document.
	a.expect(400, "POST", "/v1/contracts", `{"templateId":`)
	a.expect(400, "POST", "/v1/contracts", map[string]any{"templateId": w.Template.ID, "price": "ten"})
	a.expect(413, "POST", "/v1/contracts", bytes.Repeat([]byte(" "), server.MaxBody+1))
	a.expect(404, "GET", "/v1/contracts/"+signflow.NewID(), nil)
	open.expect(401, "GET", "/v1/contracts/"+id, nil)
	open.expect(401, "POST", "/v1/auth/token", map[string]string{"appId": w.AppA.ID, "appSecret": "wrong"})
	open.expect(400, "POST", "/v1/auth/token", map[string]string{})
	tokB := open.expect(200, "POST", "/v1/auth/token", map[string]string{"appId": w.AppB.ID, "appSecret": w.AppB.Secret})["accessToken"].(string)
	a.expect(403, "GET", "/v1/contracts/"+id, nil, "Authorization", "Bearer "+tokB)

	limited := server.NewEcho("embedded", zerolog.Nop(), nil, false)
	embedded.Register(limited, embedded.Deps{Service: w.Service, BaseURL: "https://sign.example", TokenPerMinute: 1, Now: w.Clock.Now})
	l := newAPI(t, apitest.Embedded, limited, nil)
	wrong := map[string]string{"appId": w.AppA.ID, "appSecret": "wrong"}
	l.expect(401, "POST", "/v1/auth/token", wrong)
	l.expect(429, "POST", "/v1/auth/token", wrong)

	if left := apitest.Unexercised(apitest.Embedded); len(left) > 0 {
		t.Errorf("operations never answered below 400: %q", left)
	}
}

// TestKeyConformance drives every operation of the key interface on the
// real handlers and checks each exchange against the document.
func TestKeyConformance(t *testing.T) {
	w := fixture.NewStandard(t)
	e := server.NewEcho("key", zerolog.Nop(), nil, true)
	keyapi.Register(e, keyapi.Deps{Service: w.Service, VerifyBaseURL: "https://sign.example", Now: w.Clock.Now})
	a := newAPI(t, apitest.Key, e, http.Header{"X-Api-Key": {w.KeyA.Secret}})

	a.expect(200, "GET", "/v1/me", nil)
	a.expect(200, "GET", "/v1/me", nil, "X-API-Key", w.LimitedKey.Secret)
	a.expect(200, "GET", "/v1/templates", nil)
	a.expect(200, "GET", "/v1/templates/"+w.Template.ID+"/fields", nil)
	a.expect(403, "GET", "/v1/templates/"+w.Other.ID+"/fields", nil, "X-API-Key", w.LimitedKey.Secret)
	a.expect(404, "GET", "/v1/templates/"+w.Draft.ID+"/fields", nil)

	full := map[string]any{"templateId": w.Template.ID, "buyerIn": fixture.CustomerIN, "price": 150050, "currency": "UZS",
		"initialPayment": 50000, "deliveryAt": "2026-12-01T10:00:00Z",
		"values":   []any{map[string]any{"keyName": "warrantyMonths", "value": "12"}},
		"payments": []any{map[string]any{"amount": 100050, "paymentDate": "2027-01-01T00:00:00Z"}},
		"products": []any{map[string]any{"name": "Fridge", "unit": "KG", "price": 150050, "quantity": 1, "amount": 150050}}}
	id := a.expect(200, "POST", "/v1/contracts", full)["id"].(string)
	other := a.expect(200, "POST", "/v1/contracts", map[string]any{"templateId": w.Other.ID, "sellerIn": fixture.UnknownIN})["id"].(string)
	invite := map[string]any{"templateId": w.Template.ID, "buyerIn": fixture.CustomerIN, "notify": "SMS", "lang": "ru",
		"signBy": "2027-01-01T00:00:00Z"}
	invited := a.expect(200, "POST", "/v1/contracts", invite, "Idempotency-Key", "conformance-1")["id"].(string)
	if again := a.expect(200, "POST", "/v1/contracts", invite, "Idempotency-Key", "conformance-1")["id"]; again != invited {
		t.Errorf("the replayed id %v, want %s", again, invited)
	}
	a.expect(400, "POST", "/v1/contracts", full, "Idempotency-Key", "conformance-1")
	if c := a.expect(200, "GET", "/v1/contracts/"+invited, nil); c["signBy"] != "2027-01-01T00:00:00Z" {
		t.Errorf("signBy reads %v", c["signBy"])
	}
	a.expect(200, "GET", "/v1/contracts/"+id, nil)
	a.expect(200, "GET", "/v1/contracts/"+other, nil)
	a.expect(200, "GET", "/v1/contracts", nil)
	a.expect(200, "GET", "/v1/contracts?statuses=CREATED&statuses=ACTIVE&templateId="+w.Template.ID+"&search=Karimov&page=0&size=5", nil)
	if p := a.expect(200, "GET", "/v1/contracts?size=500", nil); p["size"] != float64(100) {
		t.Errorf("size is not clamped: %v", p["size"])
	}
	a.expect(400, "GET", "/v1/contracts?page=-1", nil)
	a.expect(200, "GET", "/v1/contracts/"+id+"/pdf?lang=ru", nil)
	a.expect(200, "GET", "/v1/clients/"+fixture.CustomerIN, nil)
	a.expect(200, "GET", "/v1/clients/"+fixture.OwnerIN, nil)
	a.expect(404, "GET", "/v1/clients/"+fixture.UnknownIN, nil)
	a.expect(400, "GET", "/v1/clients/12", nil)

	sign(t, w, id, fixture.CustomerIN, fixture.OwnerIN)
	a.expect(200, "POST", "/v1/contracts/"+id+"/payments", map[string]any{"amount": 50000, "paidAt": "2026-11-22T08:00:00Z",
		"method": "CARD", "reference": "slip 7"})
	a.expect(400, "POST", "/v1/contracts/"+id+"/payments", map[string]any{"amount": 1, "paidAt": "2027-11-22T08:00:00Z", "method": "CARD"})
	a.expect(200, "GET", "/v1/contracts/"+id+"/payments", nil)
	if _, err := w.Service.SetMerchant(fixture.OwnerIN, &signflow.MerchantInput{Click: &signflow.ClickInput{ServiceID: "1", MerchantID: "2", SecretKey: "s"}}); err != nil {
		t.Fatal(err)
	}
	a.expect(200, "POST", "/v1/contracts/"+id+"/payment-links", map[string]any{"provider": "CLICK", "returnUrl": "https://shop.example/paid"})
	a.expect(400, "POST", "/v1/contracts/"+id+"/payment-links", map[string]any{"provider": "PAYME"})
	a.expect(200, "POST", "/v1/contracts/"+id+"/complete", nil)
	a.expect(400, "POST", "/v1/contracts/"+id+"/complete", nil)
	a.expect(200, "POST", "/v1/contracts/"+other+"/cancel", nil)

	a.expect(400, "POST", "/v1/contracts", map[string]any{"templateId": w.Template.ID})
	a.expect(400, "POST", "/v1/contracts", `[`)
	a.expect(403, "POST", "/v1/contracts", map[string]any{"templateId": w.Template.ID, "buyerIn": fixture.CustomerIN, "sellerIn": fixture.OtherIN})
	a.expect(413, "POST", "/v1/contracts", bytes.Repeat([]byte(" "), server.MaxBody+1))
	a.expect(404, "GET", "/v1/contracts/"+signflow.NewID(), nil)
	a.expect(403, "GET", "/v1/contracts/"+id, nil, "X-API-Key", w.KeyB.Secret)
	a.expect(401, "GET", "/v1/me", nil, "X-API-Key", signflow.KeyPrefix+"wrong")

	limited := server.NewEcho("key", zerolog.Nop(), nil, true)
	keyapi.Register(limited, keyapi.Deps{Service: w.Service, VerifyBaseURL: "https://sign.example", KeyPerSecond: 1, Now: w.Clock.Now})
	l := newAPI(t, apitest.Key, limited, http.Header{"X-Api-Key": {w.KeyA.Secret}})
	l.expect(200, "GET", "/v1/contracts", nil)
	l.expect(429, "GET", "/v1/contracts", nil)

	if left := apitest.Unexercised(apitest.Key); len(left) > 0 {
		t.Errorf("operations never answered below 400: %q", left)
	}
}
