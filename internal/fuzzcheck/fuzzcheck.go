// Package fuzzcheck is what the fuzz tests of the HTTP interfaces share: a
// standard world whose bbolt file skips fsync (so a fuzz worker makes
// thousands of requests a second), a way to serve one request in process,
// and the invariants every answer must keep on any input: no 5xx, no panic,
// JSON errors in the spec's body with the status as their code.
package fuzzcheck

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"contracts/internal/fixture"
	"contracts/server"
	"contracts/signflow"
)

// NewStandard is fixture.NewStandard with a fast file: no fsync and no
// batch delay. Only for fuzzing, where durability is not under test.
func NewStandard(tb testing.TB) *fixture.Standard {
	tb.Helper()
	w := fixture.NewStandard(tb)
	b := w.DB.Bolt()
	b.NoSync = true
	b.MaxBatchDelay = 0
	return w
}

// Answer is one response served in process.
type Answer struct {
	Status int
	Header http.Header
	Body   []byte
}

// Serve runs one request through h (an echo instance with the common
// middleware) without a network.
func Serve(h http.Handler, method, target, ctype string, header http.Header, body []byte) Answer {
	u, err := url.Parse(target)
	if err != nil {
		u = &url.URL{Path: "/"}
	}
	req := httptest.NewRequest(method, "/", bytes.NewReader(body))
	req.URL, req.RequestURI = u, u.RequestURI()
	req.RemoteAddr = "192.0.2.1:1234"
	for k, vs := range header {
		for _, v := range vs {
			req.Header.Add(k, v) // canonical names, as a real server sees them
		}
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return Answer{Status: rec.Code, Header: rec.Header(), Body: rec.Body.Bytes()}
}

// Check fails the test when the answer breaks an invariant: a 5xx (a panic
// is recovered into a 500, so it fails here too), or an error that is not
// the spec's JSON body carrying its own status. what describes the request.
func Check(t *testing.T, a Answer, what string) {
	t.Helper()
	if a.Status >= 500 || a.Status < 200 {
		t.Fatalf("%s: status %d\n%s", what, a.Status, a.Body)
	}
	if a.Status < 400 {
		return
	}
	if ct := a.Header.Get("Content-Type"); ct != server.MIMEJSON {
		if ct == "" && len(a.Body) == 0 {
			return // HEAD-style answer without a body
		}
		t.Fatalf("%s: error %d with Content-Type %q\n%s", what, a.Status, ct, a.Body)
	}
	var body server.ErrorBody
	if err := json.Unmarshal(a.Body, &body); err != nil || body.Code != a.Status || body.Message == "" {
		t.Fatalf("%s: error %d with body %s (%v)", what, a.Status, a.Body, err)
	}
}

// MustServe fails the test unless the request is answered with want: a
// fuzz world checks its credentials with it, so that a target cannot
// quietly fuzz nothing but its 401.
func MustServe(tb testing.TB, h http.Handler, method, target string, header http.Header, want int) {
	tb.Helper()
	if a := Serve(h, method, target, "", header, nil); a.Status != want {
		tb.Fatalf("%s %s: %d, want %d: %s", method, target, a.Status, want, a.Body)
	}
}

// CheckJSON is Check plus, for a success, a body that is valid JSON.
func CheckJSON(t *testing.T, a Answer, what string) {
	t.Helper()
	Check(t, a, what)
	if a.Status == http.StatusOK && !json.Valid(a.Body) {
		t.Fatalf("%s: 200 with a body that is not JSON: %.300s", what, a.Body)
	}
}

// CheckCreate sends body to POST /v1/contracts of h with header and
// checks the answer; a body that is accepted must give a contract that
// reads back, with its money stored within bounds.
func CheckCreate(t *testing.T, w *fixture.Standard, h http.Handler, header http.Header, body []byte) {
	t.Helper()
	a := Serve(h, "POST", "/v1/contracts", "application/json", header, body)
	CheckJSON(t, a, "POST /v1/contracts")
	if a.Status != http.StatusOK {
		return
	}
	var out struct{ ID string }
	if err := json.Unmarshal(a.Body, &out); err != nil || out.ID == "" {
		t.Fatalf("200 without an id: %s", a.Body)
	}
	read := Serve(h, "GET", "/v1/contracts/"+out.ID, "", header, nil)
	CheckJSON(t, read, "GET the created contract")
	if read.Status != http.StatusOK {
		t.Fatalf("the created contract reads %d: %s", read.Status, read.Body)
	}
	CheckStoredMoney(t, w, out.ID)
}

// CheckStoredMoney fails the test unless every money value of the stored
// contract id, and the sums of its products and of its payments, lie
// within 0 and signflow.MaxMoney: nothing accepted may wrap around.
func CheckStoredMoney(t *testing.T, w *fixture.Standard, id string) {
	t.Helper()
	var c *signflow.Contract
	if err := w.DB.View(func(tx signflow.Tx) (err error) { c, err = tx.Contract(id); return err }); err != nil {
		t.Fatalf("read back %s: %v", id, err)
	}
	in := func(v int64) bool { return v >= 0 && v <= signflow.MaxMoney }
	var products, payments int64
	for _, p := range c.Products {
		if !in(p.Price) || !in(p.Amount) {
			t.Fatalf("stored product price %d amount %d", p.Price, p.Amount)
		}
		products += p.Amount
	}
	for _, p := range c.Payments {
		if !in(p.Amount) {
			t.Fatalf("stored payment %d", p.Amount)
		}
		payments += p.Amount
	}
	if !in(c.Price) || !in(c.InitialPayment) || !in(products) || !in(payments) {
		t.Fatalf("stored price %d, initial payment %d, products %d, payments %d", c.Price, c.InitialPayment, products, payments)
	}
}
