package payments_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/server"
	"contracts/server/payments"
	"contracts/signflow"
	"contracts/storage/postgres/pgtest"

	"github.com/rs/zerolog"
)

const (
	paymeKey    = "test-payme-key"
	clickSecret = "test-click-secret"
	clickSvc    = "1111"
)

// world is a standard world whose owner A sells through Payme and Click,
// with one ACTIVE contract of 1500.00 UZS (150000 tiyin) to the customer.
type world struct {
	*fixture.Standard
	url      string
	contract *signflow.Contract
}

func serve(t *testing.T, svc *signflow.Service) string {
	t.Helper()
	e := server.NewEcho("embedded", zerolog.Nop(), nil, false)
	payments.Register(e, payments.Deps{Service: svc, Log: zerolog.Nop()})
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return srv.URL
}

func newWorld(t *testing.T, store signflow.Store) *world {
	t.Helper()
	var s *fixture.Standard
	if store == nil {
		s = fixture.NewStandard(t)
	} else {
		s = fixture.NewStandardOn(t, store)
	}
	_, err := s.Service.SetMerchant(fixture.OwnerIN, &signflow.MerchantInput{
		Payme: &signflow.PaymeInput{MerchantID: "m1", Key: paymeKey},
		Click: &signflow.ClickInput{ServiceID: clickSvc, MerchantID: "2222", SecretKey: clickSecret}})
	if err != nil {
		t.Fatal(err)
	}
	w := &world{Standard: s, url: serve(t, s.Service)}
	w.contract = w.active(t)
	return w
}

// active creates a contract and records both signatures through the
// state machine, as the signing page does.
func (w *world) active(t *testing.T) *signflow.Contract {
	t.Helper()
	c := w.Contract(t)
	var out *signflow.Contract
	fixture.Must(t, func() error {
		return w.Store.Update(func(tx signflow.Tx) error {
			c, err := tx.Contract(c.ID)
			if err != nil {
				return err
			}
			for _, in := range []string{c.SellerIN, c.BuyerIN} {
				if _, err := c.Sign(in, signflow.Signature{Method: signflow.MethodOTP, At: w.Clock.Now()}, w.Clock.Now()); err != nil {
					return err
				}
			}
			out = c
			return tx.PutContract(c)
		})
	})
	return out
}

// payme sends one Merchant API call as Payme does.
func payme(t *testing.T, base, method string, params map[string]any) (result, rpcErr map[string]any) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 7, "method": method, "params": params})
	req, _ := http.NewRequest("POST", base+"/payments/payme", bytes.NewReader(body))
	req.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte("Paycom:"+paymeKey)))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var a struct{ Result, Error map[string]any }
	if resp.StatusCode != 200 || json.Unmarshal(data, &a) != nil {
		t.Fatalf("%s: %d %s", method, resp.StatusCode, data)
	}
	if a.Error != nil {
		// Every error says its message in Payme's three languages.
		msg, _ := a.Error["message"].(map[string]any)
		for _, lang := range []string{"ru", "uz", "en"} {
			if s, _ := msg[lang].(string); s == "" {
				t.Fatalf("%s: error %v has no %s message", method, a.Error, lang)
			}
		}
	}
	return a.Result, a.Error
}

// An error's message is the one assets/i18n/payments.json gives its code.
func TestPaymeErrorMessage(t *testing.T) {
	w := newWorld(t, nil)
	created := w.Contract(t)
	_, e := payme(t, w.url, "CheckPerformTransaction", map[string]any{"amount": 100, "account": map[string]string{"contract": created.Number}})
	want := map[string]any{"ru": "Договор не принимает оплату", "uz": "Shartnoma to'lov qabul qilmaydi", "en": "The contract takes no payments now"}
	if e["code"] != float64(-31051) || !reflect.DeepEqual(e["message"], want) {
		t.Fatalf("a CREATED contract: %v, want code -31051 and message %v", e, want)
	}
}

func (w *world) account() map[string]string { return map[string]string{"contract": w.contract.Number} }

func (w *world) ledger(t *testing.T) *signflow.Ledger {
	t.Helper()
	l, err := w.Service.Ledger(fixture.TenantAccess(fixture.OwnerIN), w.contract.ID)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// A created transaction expires after 12 hours: performing it then is
// refused and cancels it (reason 4); while it is open, it holds its amount.
func TestPaymeTransactionExpires(t *testing.T) {
	w := newWorld(t, nil)
	r, _ := payme(t, w.url, "CreateTransaction", map[string]any{"id": "tx1", "time": 1, "amount": 100000, "account": w.account()})
	if r["state"] != float64(1) {
		t.Fatalf("create: %v", r)
	}
	if _, e := payme(t, w.url, "CreateTransaction", map[string]any{"id": "tx2", "time": 2, "amount": 50001, "account": w.account()}); e["code"] != float64(-31001) {
		t.Fatalf("a second payment above what the first leaves: %v", e)
	}
	w.Clock.Advance(12*time.Hour + time.Millisecond)
	if _, e := payme(t, w.url, "PerformTransaction", map[string]any{"id": "tx1"}); e["code"] != float64(-31008) {
		t.Fatalf("perform after 12 hours: %v", e)
	}
	ct, _ := payme(t, w.url, "CheckTransaction", map[string]any{"id": "tx1"})
	if ct["state"] != float64(-1) || ct["reason"] != float64(4) || ct["perform_time"] != float64(0) {
		t.Fatalf("the expired transaction: %v", ct)
	}
	if l := w.ledger(t); len(l.Receipts) != 0 || l.Balance != 150000 {
		t.Fatalf("an expired transaction paid: %+v", l)
	}
	// Its amount is free again.
	if r, e := payme(t, w.url, "CreateTransaction", map[string]any{"id": "tx2", "time": 2, "amount": 150000, "account": w.account()}); r["state"] != float64(1) {
		t.Fatalf("create after the expiry: %v %v", r, e)
	}
	// Payme cancelling an expired transaction gets the cancellation, with its reason.
	w.Clock.Advance(13 * time.Hour)
	if r, e := payme(t, w.url, "CancelTransaction", map[string]any{"id": "tx2", "reason": 3}); r["state"] != float64(-1) {
		t.Fatalf("cancel after 12 hours: %v %v", r, e)
	}
	if ct, _ := payme(t, w.url, "CheckTransaction", map[string]any{"id": "tx2"}); ct["reason"] != float64(3) {
		t.Fatalf("the cancelled transaction: %v", ct)
	}
}

// A contract not ACTIVE, or whose seller is another owner, is refused with
// Payme's account errors.
func TestPaymeAccountErrors(t *testing.T) {
	w := newWorld(t, nil)
	created := w.Contract(t)
	if _, e := payme(t, w.url, "CheckPerformTransaction", map[string]any{"amount": 100, "account": map[string]string{"contract": created.Number}}); e["code"] != float64(-31051) || e["data"] != "contract" {
		t.Fatalf("a CREATED contract: %v", e)
	}
	other, err := w.Service.CreateContract(w.Access(t, w.AppB), &signflow.ContractInput{TemplateID: w.Template.ID, BuyerIN: fixture.CustomerIN,
		Price: 1000, Currency: "UZS"}, signflow.Actor{})
	if err != nil {
		t.Fatal(err)
	}
	if _, e := payme(t, w.url, "CheckPerformTransaction", map[string]any{"amount": 100, "account": map[string]string{"contract": other.Number}}); e["code"] != float64(-31050) {
		t.Fatalf("another owner's contract: %v", e)
	}
	if _, e := payme(t, w.url, "CheckPerformTransaction", map[string]any{"amount": 0, "account": w.account()}); e["code"] != float64(-31001) {
		t.Fatalf("amount 0: %v", e)
	}
}

// On PostgreSQL, one transaction performed through two nodes at once
// records one receipt, and both answer the same.
func TestPaymePerformOnTwoNodes(t *testing.T) {
	store := pgtest.Open(t)
	w := newWorld(t, store)
	peer := signflow.NewService(pgtest.Peer(t, store), w.Options)
	urls := []string{w.url, serve(t, peer)}
	for round := 0; round < 5; round++ {
		id := fmt.Sprint("round", round)
		if r, e := payme(t, w.url, "CreateTransaction", map[string]any{"id": id, "time": 1, "amount": 1000, "account": w.account()}); r == nil {
			t.Fatalf("create: %v", e)
		}
		answers := make([]string, 2)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range urls {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				r, e := payme(t, urls[i], "PerformTransaction", map[string]any{"id": id})
				answers[i] = fmt.Sprint(r, e)
			}()
		}
		close(start)
		wg.Wait()
		if answers[0] != answers[1] {
			t.Fatalf("round %d: the nodes answer %s and %s", round, answers[0], answers[1])
		}
		if l := w.ledger(t); len(l.Receipts) != round+1 || l.Paid != int64(1000*(round+1)) {
			t.Fatalf("round %d: %d receipts, paid %d", round, len(l.Receipts), l.Paid)
		}
	}
}

// Merchant accounts: secrets encrypted, never in the record's clear; a key
// or service another owner holds is refused; an unknown owner is 404.
func TestSetMerchant(t *testing.T) {
	w := newWorld(t, nil)
	m, err := w.Service.Merchant(fixture.OwnerIN)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(m)
	if bytes.Contains(raw, []byte(paymeKey)) || bytes.Contains(raw, []byte(clickSecret)) {
		t.Fatalf("a secret in the clear: %s", raw)
	}
	_, err = w.Service.SetMerchant(fixture.OtherIN, &signflow.MerchantInput{Payme: &signflow.PaymeInput{MerchantID: "m2", Key: paymeKey}})
	if signflow.ErrorCode(err) != signflow.EINVALID {
		t.Fatalf("another owner's Payme key: %v", err)
	}
	_, err = w.Service.SetMerchant(fixture.OtherIN, &signflow.MerchantInput{Click: &signflow.ClickInput{ServiceID: clickSvc, MerchantID: "1", SecretKey: "x"}})
	if signflow.ErrorCode(err) != signflow.EINVALID {
		t.Fatalf("another owner's Click service: %v", err)
	}
	if _, err := w.Service.SetMerchant(fixture.UnknownIN, &signflow.MerchantInput{Payme: &signflow.PaymeInput{MerchantID: "m3", Key: "k3"}}); signflow.ErrorCode(err) != signflow.ENOTFOUND {
		t.Fatalf("unknown owner: %v", err)
	}
	// A new key replaces the old one: the old one names no merchant any more.
	if _, err := w.Service.SetMerchant(fixture.OwnerIN, &signflow.MerchantInput{Payme: &signflow.PaymeInput{MerchantID: "m1", Key: "rotated"}}); err != nil {
		t.Fatal(err)
	}
	if _, e := payme(t, w.url, "CheckPerformTransaction", map[string]any{"amount": 100, "account": w.account()}); e["code"] != float64(-32504) {
		t.Fatalf("the replaced key: %v", e)
	}
	if m, _ := w.Service.Merchant(fixture.OwnerIN); m.Click == nil || m.Click.ServiceID != clickSvc {
		t.Fatalf("setting Payme alone lost Click: %+v", m)
	}
}

// Pay links lead to the configured pay pages with the merchant, the
// contract number and the amount as each provider reads them.
func TestPayLinks(t *testing.T) {
	w := newWorld(t, nil)
	opt := w.Options
	opt.PayLinks = signflow.PayLinkHosts{Payme: "https://checkout.test.paycom.uz", Click: "https://sandbox.click.test/services/pay"}
	svc := signflow.NewService(w.Store, opt)
	a := fixture.TenantAccess(fixture.OwnerIN)
	link, err := svc.PayLink(a, w.contract.ID, signflow.PayLinkInput{Provider: signflow.ProviderPayme, ReturnURL: "https://shop.example/done"})
	if err != nil {
		t.Fatal(err)
	}
	enc, ok := strings.CutPrefix(link, "https://checkout.test.paycom.uz/")
	params, _ := base64.StdEncoding.DecodeString(enc)
	if !ok || string(params) != "m=m1;ac.contract="+w.contract.Number+";a=150000;c=https://shop.example/done" {
		t.Fatalf("Payme link %s: %s", link, params)
	}
	link, err = svc.PayLink(a, w.contract.ID, signflow.PayLinkInput{Provider: signflow.ProviderClick, Amount: 12345})
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(link)
	q := u.Query()
	if u.Host != "sandbox.click.test" || q.Get("service_id") != clickSvc || q.Get("merchant_id") != "2222" || q.Get("amount") != "123.45" ||
		q.Get("transaction_param") != w.contract.Number {
		t.Fatalf("Click link %s", link)
	}
	usd, err := w.Service.CreateContract(w.Access(t, w.AppA), &signflow.ContractInput{TemplateID: w.Template.ID, BuyerIN: fixture.CustomerIN,
		Price: 100, Currency: "USD"}, signflow.Actor{})
	if err != nil {
		t.Fatal(err)
	}
	refusals := []struct {
		name string
		id   string
		in   signflow.PayLinkInput
	}{
		{"a USD contract", usd.ID, signflow.PayLinkInput{Provider: signflow.ProviderPayme}},
		{"above the balance", w.contract.ID, signflow.PayLinkInput{Provider: signflow.ProviderPayme, Amount: 150001}},
		{"unknown provider", w.contract.ID, signflow.PayLinkInput{Provider: "UZUM"}},
		{"a return URL that is no URL", w.contract.ID, signflow.PayLinkInput{Provider: signflow.ProviderClick, ReturnURL: "javascript:alert(1)"}},
	}
	for _, r := range refusals {
		if _, err := svc.PayLink(a, r.id, r.in); signflow.ErrorCode(err) != signflow.EINVALID {
			t.Errorf("%s: %v", r.name, err)
		}
	}
	// The seller of another owner's contract has no accounts; another tenant cannot read this one.
	if _, err := svc.PayLink(fixture.TenantAccess(fixture.OtherIN), w.contract.ID, signflow.PayLinkInput{Provider: signflow.ProviderPayme}); signflow.ErrorCode(err) != signflow.EFORBIDDEN {
		t.Fatalf("another tenant: %v", err)
	}
}

// One merchant's key reaches none of another merchant's transactions or
// contracts: they are unknown to it.
func TestPaymeMerchantsApart(t *testing.T) {
	w := newWorld(t, nil)
	if r, e := payme(t, w.url, "CreateTransaction", map[string]any{"id": "a1", "time": 1, "amount": 100, "account": w.account()}); r == nil {
		t.Fatalf("create: %v", e)
	}
	if _, err := w.Service.SetMerchant(fixture.OtherIN, &signflow.MerchantInput{Payme: &signflow.PaymeInput{MerchantID: "b", Key: "other-key"}}); err != nil {
		t.Fatal(err)
	}
	other := func(method string, params map[string]any) map[string]any {
		body, _ := json.Marshal(map[string]any{"id": 1, "method": method, "params": params})
		req, _ := http.NewRequest("POST", w.url+"/payments/payme", bytes.NewReader(body))
		req.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte("Paycom:other-key")))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var a struct{ Error map[string]any }
		json.NewDecoder(resp.Body).Decode(&a)
		return a.Error
	}
	for _, m := range []string{"CheckTransaction", "PerformTransaction", "CancelTransaction"} {
		if e := other(m, map[string]any{"id": "a1", "reason": 1}); e["code"] != float64(-31003) {
			t.Errorf("%s of another merchant's transaction: %v", m, e)
		}
	}
	theirs, err := w.Service.CreateContract(w.Access(t, w.AppB), &signflow.ContractInput{TemplateID: w.Template.ID, BuyerIN: fixture.CustomerIN,
		Price: 1000, Currency: "UZS"}, signflow.Actor{})
	if err != nil {
		t.Fatal(err)
	}
	fixture.Must(t, func() error {
		return w.Store.Update(func(tx signflow.Tx) error {
			c, err := tx.Contract(theirs.ID)
			if err != nil {
				return err
			}
			for _, in := range []string{c.SellerIN, c.BuyerIN} {
				if _, err := c.Sign(in, signflow.Signature{Method: signflow.MethodOTP, At: w.Clock.Now()}, w.Clock.Now()); err != nil {
					return err
				}
			}
			return tx.PutContract(c)
		})
	})
	if e := other("CreateTransaction", map[string]any{"id": "a1", "time": 1, "amount": 100, "account": map[string]string{"contract": theirs.Number}}); e["code"] != float64(-31008) {
		t.Errorf("another merchant's transaction id created again: %v", e)
	}
	if e := other("CheckPerformTransaction", map[string]any{"amount": 100, "account": w.account()}); e["code"] != float64(-31050) {
		t.Errorf("another merchant's contract: %v", e)
	}
	if ct, _ := payme(t, w.url, "CheckTransaction", map[string]any{"id": "a1"}); ct["state"] != float64(1) {
		t.Fatalf("the transaction after the other merchant's calls: %v", ct)
	}
	var stored *signflow.ProviderTx
	fixture.Must(t, func() error {
		return w.Store.View(func(tx signflow.Tx) (err error) {
			stored, err = tx.ProviderTx(signflow.ProviderPayme, "a1")
			return err
		})
	})
	if stored.OwnerIN != fixture.OwnerIN || stored.ContractID != w.contract.ID {
		t.Fatalf("another merchant took the transaction over: %+v", stored)
	}
}
