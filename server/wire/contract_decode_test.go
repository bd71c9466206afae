package wire

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"contracts/server"

	"github.com/labstack/echo/v4"
)

// typicalBody is a create request as an integrator sends it (the bench's).
const typicalBody = `{"buyerIn":"123456789","currency":"UZS","deliveryAt":"2026-12-01T10:00:00Z","initialPayment":100,` +
	`"payments":[{"amount":700,"paymentDate":"2027-01-01T00:00:00Z"},{"amount":700.25,"paymentDate":"2027-02-01T00:00:00Z"}],` +
	`"price":1500.25,"products":[{"name":"Televizor Samsung 55","price":1500.25,"quantity":1,"values":{"color":"black"}}],` +
	`"templateId":"0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b","values":[{"keyName":"deliveryAddress","value":"Toshkent, Chilonzor 7, 12"},` +
	`{"keyName":"warrantyMonths","value":"12"}]}`

// TestBindContractIsDecode holds BindContract to server.Decode: for the
// typical body, bodies made at random from the request's fields (keys in
// other cases, unknown keys, twice-given keys, nulls, escapes, numbers of
// every form, other types) and random edits of the typical body, it gives
// the same request or the same error. It also checks that the typical
// body and most well-formed ones take the hand-written way.
func TestBindContractIsDecode(t *testing.T) {
	if !decodeContract([]byte(typicalBody), new(ContractRequest)) {
		t.Fatal("the typical body is not read by hand")
	}
	r := rand.New(rand.NewPCG(5, 6))
	byHand, plain := 0, 0
	check := func(body []byte) {
		t.Helper()
		want := new(ContractRequest)
		wantErr := server.Decode(body, want)
		got := new(ContractRequest)
		err := bindBody(body, got)
		if fmt.Sprint(err) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
			t.Fatalf("body %s:\n got %+v, %v\nwant %+v, %v", body, got, err, want, wantErr)
		}
		if decodeContract(body, new(ContractRequest)) {
			byHand++
		}
	}
	check([]byte(typicalBody))
	for range 8000 {
		body, odd := randomRequest(r)
		before := byHand
		check(body)
		if !odd {
			plain++
			if byHand == before {
				t.Fatalf("a body of the common form took encoding/json: %s", body)
			}
		}
	}
	for range 20000 {
		check(mutate(r, []byte(typicalBody)))
	}
	if plain < 500 {
		t.Fatalf("only %d bodies of the common form", plain)
	}
}

// bindBody runs BindContract on body as the handler does.
func bindBody(body []byte, r *ContractRequest) error {
	req := httptest.NewRequest(http.MethodPost, "/v1/contracts", bytes.NewReader(body))
	return BindContract(echo.New().NewContext(req, httptest.NewRecorder()), r)
}

func mutate(r *rand.Rand, b []byte) []byte {
	b = bytes.Clone(b)
	const alphabet = `{}[]":,0123456789.eE+-tfnul \\aZ` + "\x00\xff"
	for range 1 + r.IntN(3) {
		i := r.IntN(len(b))
		switch r.IntN(3) {
		case 0:
			b = append(b[:i], b[i+1:]...)
		case 1:
			b = append(b[:i], append([]byte{alphabet[r.IntN(len(alphabet))]}, b[i:]...)...)
		default:
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
	}
	return b
}

// randomRequest writes a request body; odd reports that it holds
// something outside the common form BindContract reads by hand.
func randomRequest(r *rand.Rand) (_ []byte, odd bool) {
	ws := func() string { return []string{"", "", " ", "\n\t", "\r\n  "}[r.IntN(5)] }
	str := func() string {
		switch r.IntN(30) {
		case 0:
			odd = true
			return `"a\"b\u0041"`
		case 1:
			odd = true
			return "\"bad \xff\""
		case 2:
			odd = true
			return `null`
		case 3:
			odd = true
			return `12`
		}
		return `"` + []string{"", "x", "Ўзбек тили", "2026-12-01T10:00:00Z", "<&>", "123456789"}[r.IntN(6)] + `"`
	}
	num := func() string {
		if r.IntN(15) == 0 {
			odd = true
			return []string{"null", `"12"`, "01", "1.", ".5", "-", "1e", "true", "[1]"}[r.IntN(9)]
		}
		return []string{"0", "-0", "12", "1500.25", "-3.5", "1e3", "2E-2", "1.5e+2", "99999999999999999999"}[r.IntN(9)]
	}
	integer := func() string {
		if r.IntN(10) == 0 {
			odd = true
			return []string{"1.5", "1e2", "4294967296", `"3"`, "null"}[r.IntN(5)]
		}
		return []string{"0", "-7", "2147483647", "-2147483648"}[r.IntN(4)]
	}
	key := func(k string) string {
		switch r.IntN(40) {
		case 0:
			odd = true
			return `"` + strings.ToUpper(k[:1]) + k[1:] + `"`
		case 1:
			odd = true
			return `"unknown"`
		}
		return `"` + k + `"`
	}
	object := func(fields map[string]func() string) string {
		var parts []string
		for k, v := range fields {
			if r.IntN(3) == 0 {
				continue
			}
			parts = append(parts, ws()+key(k)+ws()+":"+ws()+v()+ws())
			if r.IntN(40) == 0 {
				odd = true
				parts = append(parts, `"`+k+`":`+v())
			}
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	list := func(elem func() string) func() string {
		return func() string {
			if r.IntN(25) == 0 {
				odd = true
				return "null"
			}
			var parts []string
			for range r.IntN(3) {
				parts = append(parts, ws()+elem()+ws())
			}
			return "[" + strings.Join(parts, ",") + "]"
		}
	}
	plainValue := func() string {
		switch r.IntN(12) {
		case 0:
			odd = true
			return `{"a":1}`
		case 1:
			return "true"
		case 2:
			return "false"
		case 3, 4:
			return num()
		}
		return str()
	}
	productValues := func() string {
		if r.IntN(10) == 0 {
			odd = true
			return "null"
		}
		var parts []string
		for i := range r.IntN(3) {
			parts = append(parts, fmt.Sprintf(`"k%d":%s`, i, plainValue()))
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	body := object(map[string]func() string{
		"templateId": str, "buyerIn": str, "sellerIn": str, "price": num, "currency": str, "initialPayment": num,
		"deliveryAt": str, "signBy": str, "witnessIds": list(str),
		"values": list(func() string {
			return object(map[string]func() string{"id": str, "position": integer, "value": str, "templateId": str,
				"templateFieldId": str, "keyName": str})
		}),
		"payments": list(func() string { return object(map[string]func() string{"amount": num, "paymentDate": str}) }),
		"products": list(func() string {
			return object(map[string]func() string{"name": str, "unit": str, "price": num, "quantity": num, "amount": num,
				"deliveryAt": str, "values": productValues})
		}),
	})
	if r.IntN(30) == 0 {
		odd = true
		body += []string{" x", "{}", ",", " null"}[r.IntN(4)]
	}
	return []byte(ws() + body + ws()), odd
}

// BenchmarkDecodeContract is the typical create request read by hand and
// (plain) by server.Decode.
func BenchmarkDecodeContract(b *testing.B) {
	body := []byte(typicalBody)
	b.Run("hand", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			decodeContract(body, new(ContractRequest))
		}
	})
	b.Run("json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			server.Decode(body, new(ContractRequest))
		}
	})
}

// TestInputNamesTheItem: an item's field is named with its index, though
// the name is made only when the value is refused.
func TestInputNamesTheItem(t *testing.T) {
	ok := PaymentItem{Amount: "5", PaymentDate: "2027-01-01"}
	good := ProductItem{Name: "p", Price: "1", Amount: "1", DeliveryAt: "2027-01-01"}
	for want, r := range map[string]ContractRequest{
		"payments[1].amount":      {Payments: []PaymentItem{ok, {Amount: "1.234", PaymentDate: "2027-01-01"}}},
		"payments[1].paymentDate": {Payments: []PaymentItem{ok, {Amount: "5", PaymentDate: "soon"}}},
		"products[1].price":       {Products: []ProductItem{good, {Price: "1e400"}}},
		"products[1].amount":      {Products: []ProductItem{good, {Amount: "0.001"}}},
		"products[1].deliveryAt":  {Products: []ProductItem{good, {DeliveryAt: "later"}}},
	} {
		if _, err := r.Input(Major); err == nil || !strings.Contains(err.Error(), "message="+want+":") {
			t.Errorf("%s: got %v", want, err)
		}
	}
	if _, err := (&ContractRequest{Payments: []PaymentItem{ok}, Products: []ProductItem{good}}).Input(Major); err != nil {
		t.Fatal(err)
	}
}
