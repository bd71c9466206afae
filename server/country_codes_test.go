package server_test

import (
	"net/http"
	"strings"
	"testing"

	"contracts/signflow"
)

// The review texted any number through the clients it wrote (+1 900...,
// +882...: SMS pumping). With sms.allowedCountryCodes [998] such a phone is
// refused where a client or owner is written, and nothing is stored.
func TestPhonesOutsideAllowedCountriesRefused(t *testing.T) {
	e := newTenancyWith(t, signflow.Options{CountryCodes: []string{"998"}})
	_, appB := e.alphaAndBeta()
	for _, phone := range []string{"+1 900 555 0100", "+882 16 0000 0000", "99", "9989"} {
		for _, in := range []string{personN, personX} {
			r := e.emb(appB, "POST", "/v1/clients", person(in, "Olim", "Test", phone))
			if r.Status != 400 || !strings.Contains(r.Body, "phone") {
				t.Errorf("client with %s: %d %s", phone, r.Status, r.Body)
			}
		}
		r := e.send(http.DefaultClient, "POST", e.admin.URL+"/admin/v1/owners", person(personX, "Olim", "Test", phone),
			"Authorization", "Bearer "+adminToken)
		if r.Status != 400 || !strings.Contains(r.Body, "phone") {
			t.Errorf("owner with %s: %d %s", phone, r.Status, r.Body)
		}
	}
	for _, in := range []string{personN, personX} {
		if r := e.emb(appB, "GET", "/v1/clients/"+in, nil); r.Status != 404 {
			t.Errorf("%s stored: %d %s", in, r.Status, r.Body)
		}
	}
	// An Uzbek phone is written as before.
	e.ok(e.emb(appB, "POST", "/v1/clients", person(personN, "Olim", "Test", "+998 90 123 45 67")), "client")
	e.owner(person(personX, "Olim", "Test", ownerXPh))
}
