package console

import (
	"strings"
	"testing"

	"contracts/server/i18n"
	"contracts/signflow"
)

// Every refusal the console knows has its words in each language, and
// each refusal of the owner form (signflow's Client.Validate) is known.
func TestKnownRefusals(t *testing.T) {
	for _, lang := range signflow.Languages {
		words := i18n.Console.For(lang)
		for msg, key := range knownRefusals {
			if words[key] == "" {
				t.Errorf("%s: no words for %q (%s)", lang, msg, key)
			}
		}
		for field, key := range knownFields {
			if words[key] == "" {
				t.Errorf("%s: no words for %s (%s)", lang, field, key)
			}
		}
	}
	long := strings.Repeat("a", 501)
	for _, c := range []*signflow.Client{
		{Type: signflow.ClientIndividual, IN: "1"},
		{Type: signflow.ClientIndividual, IN: "32000000000009"},
		{Type: signflow.ClientIndividual, IN: "32000000000009", FirstName: "A", LastName: "B"},
		{Type: signflow.ClientCompany, IN: "1"},
		{Type: signflow.ClientCompany, IN: "305555555"},
		{Type: "TRUST"},
		{Type: signflow.ClientCompany, IN: "305555555", LegalName: "G", Phone: "12"},
		{Type: signflow.ClientCompany, IN: "305555555", LegalName: long},
	} {
		err := c.Validate()
		if msg := signflow.ErrorMessage(err); err == nil || knownRefusals[msg] == "" {
			t.Errorf("%+v: refusal %q is not known", c, msg)
		}
	}
}
