package e2e

import (
	"bytes"
	"crypto/md5"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"contracts/assets"
	"contracts/signflow/eimzo/eimzotest"
	"contracts/webhooks"
)

// paymeSim calls the appliance's Merchant API as Payme does: JSON-RPC
// 2.0 with Basic auth "Paycom:<key>", answers always HTTP 200.
type paymeSim struct {
	t        *testing.T
	url, key string
	n        int
}

// call sends one method and returns its result or error object.
func (p *paymeSim) call(method string, params any) (result, rpcErr map[string]any) {
	p.t.Helper()
	p.n++
	body := jsonBody(map[string]any{"jsonrpc": "2.0", "id": p.n, "method": method, "params": params})
	return p.raw(body, "Paycom:"+p.key)
}

func (p *paymeSim) raw(body []byte, cred string) (result, rpcErr map[string]any) {
	p.t.Helper()
	req, _ := http.NewRequest("POST", p.url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if cred != "" {
		req.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(cred)))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		p.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var a struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  map[string]any  `json:"result"`
		Error   map[string]any  `json:"error"`
	}
	if resp.StatusCode != 200 || json.Unmarshal(data, &a) != nil || a.JSONRPC != "2.0" {
		p.t.Fatalf("payme answer %d %s", resp.StatusCode, data)
	}
	return a.Result, a.Error
}

// wantErr checks an error answer's code, and that it has a message in
// each of Payme's languages.
func (p *paymeSim) wantErr(what string, rpcErr map[string]any, code int) {
	p.t.Helper()
	msg, _ := rpcErr["message"].(map[string]any)
	if rpcErr == nil || rpcErr["code"] != float64(code) || msg["ru"] == nil || msg["uz"] == nil || msg["en"] == nil {
		p.t.Fatalf("%s: error %v, want code %d", what, rpcErr, code)
	}
}

// clickSim calls the SHOP API as Click does: form fields signed with MD5.
type clickSim struct {
	t                                 *testing.T
	base, service, merchantID, secret string
}

func (c *clickSim) call(path string, f url.Values, sign bool) map[string]any {
	c.t.Helper()
	if sign {
		text := f.Get("click_trans_id") + f.Get("service_id") + c.secret + f.Get("merchant_trans_id") + f.Get("merchant_prepare_id") +
			f.Get("amount") + f.Get("action") + f.Get("sign_time")
		sum := md5.Sum([]byte(text))
		f.Set("sign_string", hex.EncodeToString(sum[:]))
	}
	resp, err := http.PostForm(c.base+path, f)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != 200 {
		c.t.Fatalf("click %s: %d %v", path, resp.StatusCode, err)
	}
	return out
}

func (c *clickSim) form(trans, number, amount, action string) url.Values {
	return url.Values{"click_trans_id": {trans}, "service_id": {c.service}, "click_paydoc_id": {"99" + trans},
		"merchant_trans_id": {number}, "amount": {amount}, "action": {action}, "error": {"0"}, "error_note": {"Success"},
		"sign_time": {time.Now().Format("2006-01-02 15:04:05")}}
}

// The whole life of a ledger on a contract signed through the real
// signing flow: the initial payment through Payme (with a cancelled
// payment on the way), an instalment through Click, the rest recorded by
// hand, and the contract COMPLETED by its last receipt; every receipt
// sends PAYMENT_ACCEPTED, signed, to the app and the key in their units.
func TestPaymentsLedgerLife(t *testing.T) {
	ez := eimzotest.New(t)
	receiver := newSignedReceiver(t)
	in := startInstance(t, t.TempDir(), t.TempDir(), "CONTRACTS_EIMZO__VERIFYURL="+ez.URL, "CONTRACTS_RATELIMIT__OTPPERMINUTE=0")
	p := provision(t, in, receiver.URL)
	admin := []string{"Authorization", "Bearer " + in.adminToken}
	var tpl struct{ ID string }
	mustCall(t, "POST", in.admin+"/admin/v1/templates", append(bytes.Clone(assets.DemoTemplate), "\ncompleteWhenPaid: true\n"...), &tpl,
		append(admin, "Content-Type", "application/yaml")...)
	var merchant map[string]any
	mustCall(t, "POST", in.admin+"/admin/v1/owners/"+loadOwnerIN+"/payments", jsonBody(map[string]any{
		"payme": map[string]string{"merchantId": "5e730e8e0b852a417aa49ceb", "key": "payme-secret-key"},
		"click": map[string]string{"serviceId": "4321", "merchantId": "8765", "secretKey": "click-secret"}}), &merchant, admin...)
	if m, _ := json.Marshal(merchant); strings.Contains(string(m), "secret") {
		t.Fatalf("the merchant answer shows a secret: %s", m)
	}

	bearer := []string{"Authorization", "Bearer " + p.token}
	var created struct{ ID string }
	mustCall(t, "POST", in.embedded+"/v1/contracts", jsonBody(map[string]any{"templateId": tpl.ID, "buyerIn": loadCustomerIN,
		"price": 1500, "initialPayment": 500, "currency": "UZS",
		"payments": []map[string]any{{"amount": 400, "paymentDate": "2027-01-10"}, {"amount": 600, "paymentDate": "2027-02-10"}}}),
		&created, bearer...)
	id := created.ID
	signBoth(t, in, p, id)
	var contract struct{ Number, Status string }
	mustCall(t, "GET", in.embedded+"/v1/contracts/"+id, nil, &contract, bearer...)
	account := map[string]string{"contract": contract.Number}

	payme := &paymeSim{t: t, url: in.embedded + "/payments/payme", key: "payme-secret-key"}
	_, e := payme.raw(jsonBody(map[string]any{"id": 1, "method": "CheckPerformTransaction", "params": map[string]any{}}), "Paycom:wrong")
	payme.wantErr("a wrong key", e, -32504)
	_, e = payme.raw([]byte(`{not json`), "")
	payme.wantErr("no key and no JSON", e, -32504)
	_, e = payme.raw([]byte(`{not json`), "Paycom:payme-secret-key")
	payme.wantErr("malformed JSON", e, -32700)
	_, e = payme.call("ChargeEverything", map[string]any{})
	payme.wantErr("unknown method", e, -32601)
	_, e = payme.call("CheckPerformTransaction", map[string]any{"amount": 50000, "account": map[string]string{"contract": "2026-999999"}})
	payme.wantErr("unknown contract", e, -31050)
	if e["data"] != "contract" {
		t.Fatalf("account error data %v", e["data"])
	}
	_, e = payme.call("CheckPerformTransaction", map[string]any{"amount": 150001, "account": account})
	payme.wantErr("above the balance", e, -31001)
	if r, _ := payme.call("CheckPerformTransaction", map[string]any{"amount": 50000, "account": account}); r["allow"] != true {
		t.Fatalf("check: %v", r)
	}

	// A payment of 100 soums is performed and then cancelled: it stays in the ledger and pays nothing.
	now := time.Now().UnixMilli()
	r1, _ := payme.call("CreateTransaction", map[string]any{"id": "65a0c1f2e4b0a1b2c3d4e5f1", "time": now, "amount": 10000, "account": account})
	if r1["state"] != float64(1) || r1["transaction"] == nil {
		t.Fatalf("create: %v", r1)
	}
	payme.call("PerformTransaction", map[string]any{"id": "65a0c1f2e4b0a1b2c3d4e5f1"})
	c1, _ := payme.call("CancelTransaction", map[string]any{"id": "65a0c1f2e4b0a1b2c3d4e5f1", "reason": 5})
	if c1["state"] != float64(-2) || c1["cancel_time"] == float64(0) {
		t.Fatalf("cancel after perform: %v", c1)
	}
	if again, _ := payme.call("CancelTransaction", map[string]any{"id": "65a0c1f2e4b0a1b2c3d4e5f1", "reason": 5}); fmt.Sprint(again) != fmt.Sprint(c1) {
		t.Fatalf("repeated cancel: %v, first %v", again, c1)
	}

	// The initial payment through Payme; repeated calls answer as the first.
	r2, _ := payme.call("CreateTransaction", map[string]any{"id": "65a0c1f2e4b0a1b2c3d4e5f2", "time": now, "amount": 50000, "account": account})
	if again, _ := payme.call("CreateTransaction", map[string]any{"id": "65a0c1f2e4b0a1b2c3d4e5f2", "time": now, "amount": 50000, "account": account}); fmt.Sprint(again) != fmt.Sprint(r2) {
		t.Fatalf("repeated create: %v, first %v", again, r2)
	}
	p2, _ := payme.call("PerformTransaction", map[string]any{"id": "65a0c1f2e4b0a1b2c3d4e5f2"})
	if again, _ := payme.call("PerformTransaction", map[string]any{"id": "65a0c1f2e4b0a1b2c3d4e5f2"}); p2["state"] != float64(2) || fmt.Sprint(again) != fmt.Sprint(p2) {
		t.Fatalf("perform %v, again %v", p2, again)
	}
	if ct, _ := payme.call("CheckTransaction", map[string]any{"id": "65a0c1f2e4b0a1b2c3d4e5f2"}); ct["state"] != float64(2) || ct["reason"] != nil {
		t.Fatalf("check transaction: %v", ct)
	}
	_, e = payme.call("PerformTransaction", map[string]any{"id": "65a0c1f2e4b0a1b2c3d4e5f9"})
	payme.wantErr("unknown transaction", e, -31003)
	st, _ := payme.call("GetStatement", map[string]any{"from": now - 60000, "to": time.Now().UnixMilli() + 60000})
	if list, _ := st["transactions"].([]any); len(list) != 2 {
		t.Fatalf("statement: %v", st)
	}

	// One instalment through Click, in soums with decimals.
	click := &clickSim{t: t, base: in.embedded + "/payments/click", service: "4321", merchantID: "8765", secret: "click-secret"}
	bad := click.form("7001", contract.Number, "400.00", "0")
	bad.Set("sign_string", strings.Repeat("0", 32))
	if a := click.call("/prepare", bad, false); a["error"] != float64(-1) {
		t.Fatalf("a wrong signature: %v", a)
	}
	if a := click.call("/prepare", click.form("7002", contract.Number, "1000.01", "0"), true); a["error"] != float64(-2) {
		t.Fatalf("above the balance: %v", a)
	}
	prep := click.call("/prepare", click.form("7001", contract.Number, "400.00", "0"), true)
	if prep["error"] != float64(0) || prep["merchant_prepare_id"] == nil {
		t.Fatalf("prepare: %v", prep)
	}
	done := click.form("7001", contract.Number, "400.00", "1")
	done.Set("merchant_prepare_id", fmt.Sprint(int64(prep["merchant_prepare_id"].(float64))))
	if a := click.call("/complete", done, true); a["error"] != float64(0) || a["merchant_confirm_id"] == nil {
		t.Fatalf("complete: %v", a)
	}
	if a := click.call("/complete", done, true); a["error"] != float64(-4) {
		t.Fatalf("repeated complete: %v", a)
	}

	// The rest by hand, in minor units on the key interface.
	key := []string{"X-API-Key", p.apiKey}
	var ledger struct {
		Total, Paid, Balance float64
		Items                []struct{ Status string }
		Receipts             []struct {
			Method, Reference string
			CancelledAt       *string
		}
	}
	mustCall(t, "GET", in.key+"/v1/contracts/"+id+"/payments", nil, &ledger, key...)
	if ledger.Total != 150000 || ledger.Paid != 90000 || ledger.Balance != 60000 || len(ledger.Receipts) != 3 ||
		ledger.Receipts[0].CancelledAt == nil || ledger.Receipts[1].Method != "PAYME" || ledger.Receipts[2].Method != "CLICK" ||
		ledger.Items[0].Status != "PAID" || ledger.Items[1].Status != "PAID" || ledger.Items[2].Status != "PENDING" {
		t.Fatalf("ledger before the last payment: %+v", ledger)
	}
	paidAt := time.Now().UTC().Format(time.RFC3339)
	var receipt struct{ ID string }
	mustCall(t, "POST", in.key+"/v1/contracts/"+id+"/payments", jsonBody(map[string]any{"amount": 60000, "paidAt": paidAt,
		"method": "BANK", "reference": "PP-112"}), &receipt, key...)
	mustCall(t, "GET", in.embedded+"/v1/contracts/"+id, nil, &contract, bearer...)
	if contract.Status != "COMPLETED" {
		t.Fatalf("paid in full: %s", contract.Status)
	}

	// PAYMENT_ACCEPTED for each of the four receipts, to the app and to the key, signed.
	deadline := time.Now().Add(20 * time.Second)
	var got []signedDelivery
	for {
		got = nil
		for _, d := range receiver.all() {
			if d.event == "PAYMENT_ACCEPTED" {
				got = append(got, d)
			}
		}
		if len(got) >= 8 || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if len(got) != 8 {
		t.Fatalf("%d PAYMENT_ACCEPTED deliveries, want 8", len(got))
	}
	lastByTarget := map[string]map[string]any{}
	for _, d := range got {
		target := ""
		switch d.signature {
		case webhooks.Signature([]byte(p.webhookSecret), d.body):
			target = "app"
		case webhooks.Signature([]byte(p.keyWebhookSecret), d.body):
			target = "key"
		default:
			t.Fatalf("a PAYMENT_ACCEPTED delivery signed with neither secret: %s", d.body)
		}
		var b map[string]any
		if err := json.Unmarshal(d.body, &b); err != nil {
			t.Fatal(err)
		}
		if pay, _ := b["payment"].(map[string]any); pay["reference"] == "PP-112" {
			lastByTarget[target] = b
		}
	}
	app, k := lastByTarget["app"], lastByTarget["key"]
	appPay, _ := app["payment"].(map[string]any)
	keyPay, _ := k["payment"].(map[string]any)
	if appPay["amount"] != float64(600) || keyPay["amount"] != float64(60000) || app["balance"] != float64(0) || k["status"] != "COMPLETED" ||
		appPay["id"] != receipt.ID || appPay["method"] != "BANK" || appPay["paidAt"] != paidAt {
		t.Fatalf("the last receipt's bodies:\napp %v\nkey %v", app, k)
	}
}
