package signflow_test

import (
	"testing"

	"contracts/signflow"
)

// The body as each surface shows it (signing page, cabinet, PDF) is
// checked by server/document's tests; here, body.go's rules.

// An optional field left empty, or left out, prints as a dash.
func TestOptionalBlankPrintsDash(t *testing.T) {
	tpl := &signflow.Template{Fields: []signflow.Field{{ID: "f1", KeyName: "addr"}, {ID: "f2", KeyName: "note"}},
		Body: signflow.Text{UZ: "a={{addr}} n={{note}}", RU: "a={{ addr }}", EN: "n={{note}}."}}
	v := &signflow.ContractView{Contract: &signflow.Contract{Values: []signflow.Value{{TemplateFieldID: "f2", KeyName: "note", Value: ""}}}, Template: tpl}
	for lang, want := range map[string]string{"uz": "a=— n=—", "ru": "a=—", "en": "n=—."} {
		if got := signflow.FillBody(v, lang, signflow.BodyFormat{}); got != want {
			t.Errorf("%s: %q, want %q", lang, got, want)
		}
	}
}

// A party prints by its registered name, else by its number.
func TestPartyName(t *testing.T) {
	for _, tc := range []struct {
		c    *signflow.Client
		want string
	}{
		{nil, "31234567890123"},
		{&signflow.Client{}, "31234567890123"},
		{&signflow.Client{FirstName: "Aziz", LastName: "Karimov"}, "Karimov Aziz"},
		{&signflow.Client{Type: signflow.ClientCompany, LegalName: "Alpha Savdo MChJ", FirstName: "Aziz"}, "Alpha Savdo MChJ"},
	} {
		if got := signflow.PartyName(tc.c, "31234567890123"); got != tc.want {
			t.Errorf("PartyName(%+v) = %q, want %q", tc.c, got, tc.want)
		}
	}
}
