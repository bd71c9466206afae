package signflow_test

import (
	"strings"
	"testing"

	"contracts/signflow"
)

// The rules of client.go as each interface answers them are checked by
// server/embedded/clients_test.go (TestClients), server/keyapi's
// TestReadClient and server/country_codes_test.go
// (TestPhonesOutsideAllowedCountriesRefused); here, the rules themselves.

func TestCheckIN(t *testing.T) {
	for in, ok := range map[string]bool{"31234567890123": true, "301234567": true, "": false, "3123456789012": false,
		"312345678901234": false, "30123456a": false, "+01234567": false, "3012345678": false} {
		err := signflow.CheckIN("buyerIn", in)
		if ok != (err == nil) || ok != signflow.ValidIN(in) {
			t.Errorf("CheckIN(%q) = %v, ValidIN %v; want accepted %v", in, err, signflow.ValidIN(in), ok)
		}
		if err != nil && (signflow.ErrorCode(err) != signflow.EINVALID || !strings.HasPrefix(signflow.ErrorMessage(err), "buyerIn: ")) {
			t.Errorf("CheckIN(%q): %v, want EINVALID naming buyerIn", in, err)
		}
	}
	if signflow.ClientTypeOf("301234567") != signflow.ClientCompany || signflow.ClientTypeOf("31234567890123") != signflow.ClientIndividual {
		t.Error("a 9-digit number is a company's, a 14-digit one a person's")
	}
}

func TestClientValidate(t *testing.T) {
	person := func() *signflow.Client {
		return &signflow.Client{IN: " 31234567890123 ", FirstName: "Ali", LastName: "Valiyev", Phone: "+998 (90) 123-45-67"}
	}
	c := person()
	c.Normalize()
	if c.IN != "31234567890123" || c.Type != signflow.ClientIndividual || c.Phone != "998901234567" {
		t.Fatalf("normalized %+v", c)
	}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		change func(*signflow.Client)
		want   string
	}{
		"company number for a person": {func(c *signflow.Client) { c.IN = "301234567" }, "in: must be 14 digits for an individual"},
		"no last name":                {func(c *signflow.Client) { c.LastName = "" }, "firstName and lastName"},
		"no phone":                    {func(c *signflow.Client) { c.Phone = "" }, "phone: required"},
		"short phone":                 {func(c *signflow.Client) { c.Phone = "998901" }, "phone: must be"},
		"bad birthday":                {func(c *signflow.Client) { c.Birthday = "01.02.1990" }, "birthday: must be a date"},
		"company without legal name":  {func(c *signflow.Client) { c.Type, c.IN = signflow.ClientCompany, "301234567" }, "legalName: required"},
		"unknown type":                {func(c *signflow.Client) { c.Type = "PERSON" }, "type: must be"},
		"long address":                {func(c *signflow.Client) { c.Address = strings.Repeat("a", 1001) }, "too long"},
	} {
		c := person()
		c.Normalize()
		tc.change(c)
		if err := c.Validate(); signflow.ErrorCode(err) != signflow.EINVALID || !strings.Contains(signflow.ErrorMessage(err), tc.want) {
			t.Errorf("%s: %v, want EINVALID with %q", name, err, tc.want)
		}
	}
}
