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
		for refusal, key := range knownRefusals {
			if words[key] == "" {
				t.Errorf("%s: no words for %q (%s)", lang, refusal, key)
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
		if err == nil || knownRefusals[signflow.ErrorKey(err)] == "" {
			t.Errorf("%+v: refusal %q (key %q) is not known", c, signflow.ErrorMessage(err), signflow.ErrorKey(err))
		}
	}
}

// Every refusal key signflow gives has the console's words, so a refusal
// is never told by signflow's English message for want of them.
func TestEveryRefusalKeyHasConsoleWords(t *testing.T) {
	for _, key := range signflow.RefusalKeys {
		if knownRefusals[key] == "" {
			t.Errorf("refusal key %q has no console words (knownRefusals)", key)
		}
	}
}

// The words follow the key, not the English message: a reworded message
// with a known key is still told in the page's language, and an unknown
// key falls back to the message as the detail.
func TestRefusalTextByKey(t *testing.T) {
	words := i18n.Console.For("uz")
	reworded := signflow.Errorf(signflow.EINVALID, "phone: digits please").Keyed(signflow.KeyPhone)
	if got := refusalText(words, reworded); got != words["refuse.phone"] {
		t.Fatalf("reworded phone refusal: %q, want %q", got, words["refuse.phone"])
	}
	plain := signflow.Errorf(signflow.EINVALID, "phone: must be a country code and 7 to 15 digits")
	if got, want := refusalText(words, plain), words.F("refuse.detail", "detail", signflow.ErrorMessage(plain)); got != want {
		t.Fatalf("refusal without a key: %q, want %q", got, want)
	}
}
